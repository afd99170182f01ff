// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl-harness - run the control filesystem alone, for the tests.
 *
 *   ctl-harness MOUNTPOINT [CONTROLDIR|none] [RULEFILE]
 *
 * MOUNTPOINT only names the (absent) enforcement mount; the control
 * directory defaults to $SMACKFUSE_RUNDIR (else /run/smackfuse)/<escaped
 * MOUNTPOINT>; tests/control/lib.sh sets it to the test's own.  Subject
 * labels for onlycap come from $SF_TEST_SUBJECTS ("uid=label,...", "_"
 * otherwise).  The status hook reports how many times the policy change
 * invalidated the (absent) kernel caches.  doi, ambient and netlabel
 * writes change the kernel's NetLabel only with $SF_TEST_NETLABEL=kernel
 * (else netlabel=off: host tests must not touch the host's configuration,
 * which is global).  Prints "ready DIR" when
 * mounted, runs until SIGTERM or SIGINT, then stops cleanly.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"

static atomic_ulong invalidations;
static struct sf_policy *policy;
static volatile sig_atomic_t stop;

static void h_invalidate(void *arg)
{
	(void)arg;
	atomic_fetch_add(&invalidations, 1);
}

static sf_lid h_subject(void *arg, pid_t pid, uid_t uid, gid_t gid)
{
	const char *map = getenv("SF_TEST_SUBJECTS");
	char want[32];
	const char *p, *end;
	sf_lid lid;

	(void)arg;
	(void)pid;
	(void)gid;
	if (!map)
		return SF_LID_FLOOR;
	snprintf(want, sizeof(want), "%u=", (unsigned int)uid);
	for (p = map; p && *p; p = end ? end + 1 : NULL) {
		end = strchr(p, ',');
		if (strncmp(p, want, strlen(want)) == 0) {
			p += strlen(want);
			if (sf_label_intern(sf_policy_labels(policy), p,
					    end ? (size_t)(end - p) : strlen(p),
					    &lid, NULL) == 0)
				return lid;
		}
	}
	return SF_LID_FLOOR;
}

static size_t h_status(void *arg, char *buf, size_t size)
{
	(void)arg;
	return (size_t)snprintf(buf, size,
				"source: (none)\nmountpoint: (none)\n"
				"subject: test (SF_TEST_SUBJECTS)\n"
				"invalidations: %lu\n",
				atomic_load(&invalidations));
}

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int load_file(const char *path)
{
	struct sf_error err = { .file = path };
	static char buf[1 << 20];
	struct sf_batch b;
	char msg[256];
	ssize_t n;
	int fd, rc;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	sf_batch_init(&b);
	rc = sf_parse_rule_file(sf_policy_labels(policy), buf, (size_t)n, &b,
				&err);
	if (rc == 0)
		rc = sf_policy_apply(policy, &b);
	else {
		sf_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "ctl-harness: %s\n", msg);
	}
	sf_batch_release(&b);
	return rc;
}

int main(int argc, char **argv)
{
	struct sf_control_config cfg = { 0 };
	struct sf_control_hooks hooks = {
		.invalidate = h_invalidate,
		.subject = h_subject,
		.status = h_status,
	};
	struct sf_control *ctl;
	struct sigaction sa;
	int rc;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: ctl-harness MOUNTPOINT "
			"[CONTROLDIR|none] [RULEFILE]\n");
		return 2;
	}
	policy = sf_policy_new();
	if (!policy)
		return 1;
	if (argc > 3 && load_file(argv[3]) != 0)
		return 1;
	cfg.mountpoint = argv[1];
	cfg.source = argv[1];
	cfg.dir = argc > 2 && *argv[2] ? argv[2] : NULL;
	cfg.log_stderr = true;
	cfg.logging = 1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	cfg.netlabel_off = !getenv("SF_TEST_NETLABEL") ||
			   strcmp(getenv("SF_TEST_NETLABEL"), "kernel") != 0;
	rc = sf_control_start(&ctl, policy, &cfg, &hooks);
	if (rc < 0) {
		fprintf(stderr, "ctl-harness: start: %s\n", strerror(-rc));
		return 1;
	}
	printf("ready %s\n", ctl ? sf_control_dir(ctl) : "none");
	fflush(stdout);
	while (!stop)
		pause();
	sf_control_stop(ctl);
	sf_policy_free(policy);
	return 0;
}
