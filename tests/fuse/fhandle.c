// SPDX-License-Identifier: GPL-2.0-only
/*
 * fhandle.c - name_to_handle_at(2) and open_by_handle_at(2) for the tests.
 *
 *   fhandle [-u USER] encode PATH
 *	prints OK and the handle as TYPE:HEX (or the errno name)
 *   fhandle [-u USER] open MOUNTDIR TYPE:HEX r|w|path|dir
 *	opens the handle; for r also prints the file's first line
 *   fhandle forge TYPE:HEX
 *	the handle a smackfuse mount gives the object whose backing handle
 *	is TYPE:HEX (src/fuse/nodes/handle.c): FILEID_INO64_GEN, the node id the
 *	backing handle's first 8 bytes, the generation a hash of it
 *
 * -u USER runs the call as USER (uid, gid, groups) keeping one
 * capability, CAP_DAC_READ_SEARCH, which open_by_handle_at() asks of
 * every caller: so that only Smack can refuse ("root-dac": root with
 * that capability alone).  Output as tests/fuse/as.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

union fh {
	struct file_handle fh;
	char buf[sizeof(struct file_handle) + MAX_HANDLE_SZ];
};

static void usage(void)
{
	fputs("usage: fhandle [-u USER] encode PATH |\n"
	      "       fhandle [-u USER] open MOUNTDIR TYPE:HEX r|w|path|dir |\n"
	      "       fhandle forge TYPE:HEX\n",
	      stderr);
	exit(2);
}

static int fail(void)
{
	const char *name = strerrorname_np(errno);

	if (name)
		puts(name);
	else
		printf("E%d\n", errno);
	return 0;
}

/* USER's ids, keeping CAP_DAC_READ_SEARCH alone. */
static void become(const char *user)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[2];
	/* "root-dac": root, with that capability alone. */
	const char *name = strcmp(user, "root-dac") ? user : "root";
	struct passwd *pw = getpwnam(name);

	if (!pw) {
		fprintf(stderr, "fhandle: unknown user %s\n", user);
		exit(2);
	}
	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = 1u << CAP_DAC_READ_SEARCH;
	if (prctl(PR_SET_KEEPCAPS, 1) || initgroups(name, pw->pw_gid) ||
	    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) ||
	    syscall(SYS_capset, &h, d)) {
		perror("fhandle: become");
		exit(2);
	}
}

static int encode(const char *path)
{
	union fh h;
	int mnt, i;

	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt, 0))
		return fail();
	printf("OK\n%d:", h.fh.handle_type);
	for (i = 0; i < (int)h.fh.handle_bytes; i++)
		printf("%02x", h.fh.f_handle[i]);
	putchar('\n');
	return 0;
}

static void parse(const char *s, union fh *h)
{
	char *p;
	unsigned int i, b;

	memset(h, 0, sizeof(*h));
	h->fh.handle_type = (int)strtol(s, &p, 10);
	if (*p != ':')
		usage();
	for (i = 0, p++; p[0] && p[1] && i < MAX_HANDLE_SZ; i++, p += 2) {
		if (sscanf(p, "%2x", &b) != 1)
			usage();
		h->fh.f_handle[i] = (unsigned char)b;
	}
	h->fh.handle_bytes = i;
}

static int open_handle(const char *mnt, const char *handle, const char *how)
{
	int flags, mfd, fd;
	char buf[256];
	ssize_t n;
	union fh h;

	if (!strcmp(how, "r"))
		flags = O_RDONLY;
	else if (!strcmp(how, "w"))
		flags = O_WRONLY;
	else if (!strcmp(how, "path"))
		flags = O_PATH;
	else if (!strcmp(how, "dir"))
		flags = O_RDONLY | O_DIRECTORY;
	else
		usage();
	parse(handle, &h);
	mfd = open(mnt, O_RDONLY | O_DIRECTORY);
	if (mfd < 0)
		return fail();
	fd = open_by_handle_at(mfd, &h.fh, flags);
	if (fd < 0)
		return fail();
	if (flags != O_RDONLY) {
		puts("OK");
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return fail();
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	printf("OK\n%s\n", buf);
	return 0;
}

static int forge(const char *backing)
{
	union fh h;
	uint64_t id = 0;
	uint32_t raw[3];
	unsigned int i;

	parse(backing, &h);
	memcpy(&id, h.fh.f_handle, h.fh.handle_bytes < 8 ?
	       h.fh.handle_bytes : 8);
	raw[0] = (uint32_t)(id >> 32);
	raw[1] = (uint32_t)id;
	raw[2] = (uint32_t)((id * 0x9e3779b97f4a7c15ull) >> 32) | 1;
	printf("OK\n%d:", 0x81);	/* FILEID_INO64_GEN */
	for (i = 0; i < sizeof(raw); i++)
		printf("%02x", ((unsigned char *)raw)[i]);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	int a = 1;

	if (argc > 2 && !strcmp(argv[1], "-u")) {
		become(argv[2]);
		a = 3;
	}
	if (argc - a == 2 && !strcmp(argv[a], "encode"))
		return encode(argv[a + 1]);
	if (argc - a == 2 && !strcmp(argv[a], "forge"))
		return forge(argv[a + 1]);
	if (argc - a == 4 && !strcmp(argv[a], "open"))
		return open_handle(argv[a + 1], argv[a + 2], argv[a + 3]);
	usage();
	return 2;
}
