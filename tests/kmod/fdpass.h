/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fdpass.h - pass one file descriptor over a UNIX stream socket
 * (SCM_RIGHTS), as the tests of the file_receive check do (kact fd-pass,
 * task-matrix's fd-pass cases).  Each caller says the outcome its own way.
 */
#ifndef FDPASS_H
#define FDPASS_H

/* Send @fd, with one byte to carry it, on @s.  Returns 0 or -errno. */
int fdpass_send(int s, int fd);

/*
 * Receive the descriptor sent on @s.  Returns it (the caller closes it);
 * -EACCES when the byte came without it (MSG_CTRUNC: the receiver's
 * security_file_receive() refused it; recvmsg itself on a socketpair
 * asks no Smack check); -EPIPE when the sender closed its end without
 * sending; else recvmsg's -errno.
 */
int fdpass_recv(int s);

#endif /* FDPASS_H */
