// SPDX-License-Identifier: GPL-2.0-only
/*
 * pam-label - open a PAM session as login, sshd and su do, then show the
 * labels that the session's processes run with.
 *
 *   pam-label [-n COUNT] [-k DIR] SERVICE USER
 *   pam-label [-k DIR] SERVICE USER CMD [ARG...]
 *
 * Opens COUNT (default 1) sessions of SERVICE for USER one after the
 * other in this process, then prints
 *   session: ok | session: <pam error>     (per session)
 *   self: LABEL                            (DIR/current, read by us)
 *   child: LABEL                           (read by a forked child after
 *                                           it exec'd this program again)
 * DIR is smackfuse.ko's directory, /sys/kernel/security/smackfuse.
 * Exit 0 when every session opened, 1 when one was refused, 2 on misuse.
 * With CMD, the session runs CMD as its shell would run: in a forked
 * child that took USER's groups, gid and uid; prints "session: ..." and
 * exits with CMD's status.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <security/pam_appl.h>

static const char *kdir = "/sys/kernel/security/smackfuse";

/* No prompts in a session: answer none. */
static int conv(int n, const struct pam_message **msg,
		struct pam_response **resp, void *arg)
{
	(void)n;
	(void)msg;
	(void)resp;
	(void)arg;
	return PAM_CONV_ERR;
}

static void print_label(const char *who)
{
	char path[4096], buf[300];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/current", kdir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		printf("%s: (none)\n", who);
		return;
	}
	while (n > 0 && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	printf("%s: %s\n", who, buf);
}

/* A child that exec'd: the label a session's shell would run with. */
static int child_label(const char *self)
{
	pid_t pid;
	int st;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execl(self, self, "-k", kdir, "-c", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return 0;
}

/* The session's "shell": CMD as USER, forked from the session opener. */
static int run_as(const char *user, char **cmd)
{
	struct passwd *pw = getpwnam(user);
	pid_t pid;
	int st;

	if (!pw)
		return 1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		if (initgroups(user, pw->pw_gid) || setgid(pw->pw_gid) ||
		    setuid(pw->pw_uid))
			_exit(126);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st);
}

static int one_session(const char *service, const char *user, char **cmd)
{
	struct pam_conv c = { conv, NULL };
	pam_handle_t *h = NULL;
	int rc;

	rc = pam_start(service, user, &c, &h);
	if (rc != PAM_SUCCESS) {
		printf("session: pam_start: %s\n", pam_strerror(h, rc));
		return -1;
	}
	rc = pam_open_session(h, 0);
	printf("session: %s\n", rc == PAM_SUCCESS ? "ok" : pam_strerror(h, rc));
	if (rc == PAM_SUCCESS) {
		int st = cmd ? run_as(user, cmd) : 0;

		pam_close_session(h, 0);
		pam_end(h, PAM_SUCCESS);
		return st;
	}
	pam_end(h, rc);
	return -1;
}

int main(int argc, char **argv)
{
	int opt, count = 1, i, failed = 0;

	while ((opt = getopt(argc, argv, "+n:k:c")) != -1) {
		if (opt == 'n') {
			count = atoi(optarg);
		} else if (opt == 'k') {
			kdir = optarg;
		} else if (opt == 'c') {	/* the exec'd child */
			print_label("child");
			return 0;
		} else {
			return 2;
		}
	}
	if (argc - optind < 2 || count < 1) {
		fprintf(stderr, "usage: pam-label [-n COUNT] [-k DIR] "
			"SERVICE USER [CMD ARG...]\n");
		return 2;
	}
	if (argc - optind > 2) {
		i = one_session(argv[optind], argv[optind + 1],
				argv + optind + 2);
		return i < 0 ? 1 : i;
	}
	for (i = 0; i < count; i++)
		if (one_session(argv[optind], argv[optind + 1], NULL))
			failed = 1;
	print_label("self");
	if (child_label("/proc/self/exe"))
		printf("child: (failed)\n");
	return failed;
}
