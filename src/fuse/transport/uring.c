// SPDX-License-Identifier: GPL-2.0-only
/*
 * uring.c - whether requests come over io_uring (Linux 6.14 and later,
 * with CONFIG_FUSE_IO_URING and the fuse module's enable_uring set)
 * instead of read(2) and write(2) on /dev/fuse, and the report of it.
 *
 * The kernel offers the ring in INIT's request; the daemon asks for it in
 * INIT's reply, with -o uring=auto (the default).  Which code carries the
 * requests then is the ring's business: libfuse's own where it has one
 * (uring_libfuse.c), else the daemon's (uring_own.c).  Either way the
 * start message and the status file say which transport the mount uses,
 * and why not io_uring.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "smackfuse.h"
#include "transport.h"
#include "uring_abi.h"
#include "wire.h"

#define SF_UR_PARAM	"/sys/module/fuse/parameters/enable_uring"

static struct {
	bool on;			/* requests come through the ring */
	unsigned int nq;		/* the kernel's queues: CPUs */
	const char *by;			/* whose ring: "" or ", libfuse's" */
	char why[160];			/* why not, while !on */
	pthread_mutex_t lock;		/* on, nq, why */
} sf_ur = {
	.why = "not negotiated yet",
	.by = "",
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

/**
 * sf_uring_queues - one per possible CPU: the kernel has one for each
 * (num_possible_cpus()), numbered by CPU.  0 if that cannot be read.
 */
unsigned int sf_uring_queues(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	unsigned int a, b, n = 0;
	int c;

	if (!f)
		return 0;
	while (fscanf(f, "%u", &a) == 1) {
		b = a;
		c = fgetc(f);
		if (c == '-' && fscanf(f, "%u", &b) == 1)
			c = fgetc(f);
		n += b >= a ? b - a + 1 : 0;
		if (c != ',')
			break;
	}
	fclose(f);
	return n;
}

void sf_uring_describe(char *buf, size_t size)
{
	pthread_mutex_lock(&sf_ur.lock);
	if (sf_ur.on)
		snprintf(buf, size, "io_uring (%u queues%s)", sf_ur.nq,
			 sf_ur.by);
	else
		snprintf(buf, size, "/dev/fuse (io_uring: %s)", sf_ur.why);
	pthread_mutex_unlock(&sf_ur.lock);
}

/* Say which transport the mount uses: to stderr with -f, else syslog. */
void sf_uring_say(const struct sf_fs *fs)
{
	char what[200];

	sf_uring_describe(what, sizeof(what));
	if (fs->opt.foreground)
		fprintf(stderr, "smackfuse: transport: %s\n", what);
	else
		syslog(LOG_NOTICE, "transport: %s", what);
}

/* Off, and @why (NULL: the reason stays). */
void sf_uring_set(bool on, const char *why)
{
	pthread_mutex_lock(&sf_ur.lock);
	sf_ur.on = on;
	if (why)
		snprintf(sf_ur.why, sizeof(sf_ur.why), "%s", why);
	pthread_mutex_unlock(&sf_ur.lock);
}

/* On, with the kernel's queues, served by @by ("" the daemon's, or
 * ", libfuse's"). */
void sf_uring_on(const char *by)
{
	unsigned int nq = sf_uring_queues();

	pthread_mutex_lock(&sf_ur.lock);
	sf_ur.on = true;
	sf_ur.nq = nq;
	sf_ur.by = by;
	pthread_mutex_unlock(&sf_ur.lock);
}

/* Why the kernel did not offer it: built without, or switched off. */
static void sf_ur_why_not_offered(void)
{
	FILE *f = fopen(SF_UR_PARAM, "r");
	int c = f ? fgetc(f) : EOF;

	if (f)
		fclose(f);
	if (!f)
		sf_uring_set(false, "the kernel has none "
			     "(CONFIG_FUSE_IO_URING, Linux 6.14+)");
	else if (c == 'N')
		sf_uring_set(false, "off in the kernel (" SF_UR_PARAM " is N)");
	else
		sf_uring_set(false, "not offered by the kernel at INIT");
}

/**
 * sf_uring_sniff_init - INIT's request offers @offered: may the reply ask
 * for the ring?  @missing says why there is no ring code, if there is
 * none.  Returns true if so; otherwise the mount stays on /dev/fuse, and
 * says why.
 */
bool sf_uring_sniff_init(struct sf_fs *fs, uint64_t offered,
			 const char *missing)
{
	if (fs->opt.uring_off)
		sf_uring_set(false, "off (-o uring=off)");
	else if (!(offered & FUSE_OVER_IO_URING))
		sf_ur_why_not_offered();
	else if (missing)
		sf_uring_set(false, missing);
	else
		return true;	/* said once the reply has gone */
	sf_uring_say(fs);
	return false;
}
