// SPDX-License-Identifier: GPL-2.0-only
/*
 * smackrun - run a command under a Smack label of smackfuse.ko.
 *
 *   smackrun [-u UID[:GID]] LABEL COMMAND [ARG...]
 *
 * Writes LABEL to the module's current file (kmod_abi.h; the module
 * refuses unless the caller has CAP_MAC_ADMIN, and onlycap allows it), or,
 * without the module on a kernel whose own LSM is Smack, to
 * /proc/self/attr/current as mainline's tools do,
 * then, with -u, drops to UID and GID (default GID = UID) with no
 * supplementary groups and so no capabilities, and executes COMMAND.
 * The label is inherited by COMMAND and everything it forks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmod_abi.h"

#define SF_CURRENT SF_KMOD_PATH(SF_KMOD_CURRENT)
#define SF_LSM "/sys/kernel/security/lsm"
#define SMACK_CURRENT "/proc/self/attr/current"
/* The exit status of a command that could not be run, as the shell's. */
#define SMACKRUN_EXIT_NOEXEC	127

static void usage(void)
{
	fprintf(stderr, "usage: smackrun [-u UID[:GID]] LABEL COMMAND [ARG...]\n");
	exit(2);
}

/* Strict decimal id: digits only, no sign, fits in 32 bits. */
static int parse_id(const char *s, const char *end, unsigned int *out)
{
	unsigned long v = 0;

	if (s == end)
		return -1;
	for (; s < end; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > 0xfffffffeUL)
			return -1;
	}
	*out = (unsigned int)v;
	return 0;
}

/*
 * The kernel runs Smack itself: "smack" is a word of the LSM list.  Only
 * then is /proc/self/attr/current Smack's; another LSM's would take the
 * label as its own context.
 */
static int kernel_runs_smack(void)
{
	char list[256], *w, *save;
	ssize_t n;
	int fd;

	fd = open(SF_LSM, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, list, sizeof(list) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	list[n] = '\0';
	for (w = strtok_r(list, ",\n", &save); w; w = strtok_r(NULL, ",\n", &save))
		if (!strcmp(w, "smack"))
			return 1;
	return 0;
}

static int set_label(const char *label)
{
	size_t len = strlen(label);
	ssize_t n;
	int fd;

	fd = open(SF_CURRENT, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && kernel_runs_smack())
		fd = open(SMACK_CURRENT, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "smackrun: %s: %s (is smackfuse.ko loaded?)\n",
			SF_CURRENT, strerror(errno));
		return -1;
	}
	n = write(fd, label, len);
	if (n != (ssize_t)len) {
		fprintf(stderr, "smackrun: cannot set label \"%s\": %s\n",
			label, n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	return close(fd);
}

int main(int argc, char **argv)
{
	unsigned int uid = 0, gid = 0;
	const char *user = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "+u:h")) != -1) {
		switch (opt) {
		case 'u':
			user = optarg;
			break;
		default:
			usage();
		}
	}
	if (argc - optind < 2)
		usage();
	if (user) {
		const char *colon = strchr(user, ':');
		const char *end = colon ? colon : user + strlen(user);

		if (parse_id(user, end, &uid) ||
		    (colon && parse_id(colon + 1, colon + strlen(colon),
				       &gid))) {
			fprintf(stderr, "smackrun: -u %s: not UID[:GID]\n",
				user);
			return 2;
		}
		if (!colon)
			gid = uid;
	}
	if (set_label(argv[optind]))
		return 1;
	if (user && (setgroups(0, NULL) || setgid(gid) || setuid(uid))) {
		fprintf(stderr, "smackrun: cannot become %u:%u: %s\n", uid,
			gid, strerror(errno));
		return 1;
	}
	execvp(argv[optind + 1], argv + optind + 1);
	fprintf(stderr, "smackrun: %s: %s\n", argv[optind + 1],
		strerror(errno));
	return SMACKRUN_EXIT_NOEXEC;
}
