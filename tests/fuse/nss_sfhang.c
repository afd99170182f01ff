// SPDX-License-Identifier: GPL-2.0-only
/*
 * nss_sfhang.c - libnss_sfhang.so.2, a name service that hangs or fails
 * on purpose, for users-nss.test.
 *
 * In /etc/nsswitch.conf (the test's private one) before "files":
 *
 *   passwd: sfhang [UNAVAIL=return] files
 *
 * It answers nothing itself: every lookup goes on to "files", except, in
 * a process whose environment says so,
 *   SF_NSS_HANG_UID=N  getpwuid_r(N) sleeps while the file named by
 *                      SF_NSS_HANG_FILE exists (a slow directory server),
 *                      then lets "files" answer;
 *   SF_NSS_FAIL_UID=N  getpwuid_r(N) fails (UNAVAIL, EIO): the server is
 *                      down.
 * Every hang is counted in SF_NSS_HANG_FILE.count (one byte per call), so
 * that the test sees how many lookups reached the name service.
 * glibc finds the module through LD_LIBRARY_PATH.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <nss.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

enum nss_status _nss_sfhang_getpwuid_r(uid_t uid, struct passwd *pw,
				       char *buf, size_t size, int *errnop);
enum nss_status _nss_sfhang_getpwnam_r(const char *name, struct passwd *pw,
				       char *buf, size_t size, int *errnop);

/* Is @uid the one the variable @var names? */
static int sf_env_uid(const char *var, uid_t uid)
{
	const char *v = getenv(var);
	char *end;
	unsigned long n;

	if (!v || !*v)
		return 0;
	n = strtoul(v, &end, 10);
	return !*end && n == uid;
}

static void sf_hang(void)
{
	const char *file = getenv("SF_NSS_HANG_FILE");
	struct timespec ts = { 0, 50000000 };	/* 50 ms */
	char count[4096];
	int fd;

	if (!file)
		return;
	snprintf(count, sizeof(count), "%s.count", file);
	fd = open(count, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, "x", 1) < 0)
			perror("nss_sfhang");
		close(fd);
	}
	while (access(file, F_OK) == 0)
		nanosleep(&ts, NULL);
}

enum nss_status _nss_sfhang_getpwuid_r(uid_t uid, struct passwd *pw,
				       char *buf, size_t size, int *errnop)
{
	(void)pw;
	(void)buf;
	(void)size;
	if (sf_env_uid("SF_NSS_FAIL_UID", uid)) {
		*errnop = EIO;
		return NSS_STATUS_UNAVAIL;
	}
	if (sf_env_uid("SF_NSS_HANG_UID", uid))
		sf_hang();
	*errnop = ENOENT;
	return NSS_STATUS_NOTFOUND;
}

enum nss_status _nss_sfhang_getpwnam_r(const char *name, struct passwd *pw,
				       char *buf, size_t size, int *errnop)
{
	(void)name;
	(void)pw;
	(void)buf;
	(void)size;
	*errnop = ENOENT;
	return NSS_STATUS_NOTFOUND;
}
