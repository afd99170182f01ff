// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_label.c - smackfusectl label: show, set or remove the Smack labels
 * of paths, like chsmack(8).
 *
 * smackfuse keeps labels in extended attributes of the backing tree:
 * PREFIX "SMACK64", "SMACK64EXEC", "SMACK64MMAP", "SMACK64TRANSMUTE", with
 * PREFIX "security." unless the daemon runs with -o xattr=PREFIX (then
 * pass --xattr-prefix PREFIX here).  Through a smackfuse mount, setting
 * them needs CAP_MAC_ADMIN, as in the kernel.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>

#include "smack.h"
#include "ctl.h"

enum { A_ACCESS, A_EXEC, A_MMAP, A_TRANSMUTE, A_COUNT };

static const char *const attr_suffix[A_COUNT] = {
	"SMACK64", "SMACK64EXEC", "SMACK64MMAP", "SMACK64TRANSMUTE"
};
static const char *const attr_word[A_COUNT] = {
	"access", "execute", "mmap", "transmute"
};

/* One run of the command: what to do to every path. */
static struct {
	char names[A_COUNT][256];
	const char *set[A_COUNT];	/* value to set, or NULL */
	bool remove[A_COUNT];
	bool show, follow;
	int errors;
} lab;

static ssize_t lab_get(const char *path, const char *name, char *buf,
		       size_t size)
{
	return lab.follow ? getxattr(path, name, buf, size) :
			    lgetxattr(path, name, buf, size);
}

static int lab_set(const char *path, const char *name, const char *value)
{
	return lab.follow ? setxattr(path, name, value, strlen(value), 0) :
			    lsetxattr(path, name, value, strlen(value), 0);
}

static int lab_remove(const char *path, const char *name)
{
	int rc = lab.follow ? removexattr(path, name) :
			      lremovexattr(path, name);

	return rc != 0 && errno == ENODATA ? 0 : rc;
}

static void lab_show(const char *path)
{
	char value[SF_LABEL_MAX + 1];
	ssize_t n;
	int a;

	fputs(path, stdout);
	for (a = 0; a < A_COUNT; a++) {
		n = lab_get(path, lab.names[a], value, sizeof(value) - 1);
		if (n < 0) {
			if (errno != ENODATA && errno != ENOTSUP) {
				ctl_err("%s: %s: %s", path, lab.names[a],
					strerror(errno));
				lab.errors++;
			}
			continue;
		}
		value[n] = '\0';
		printf(" %s=\"%s\"", attr_word[a], value);
	}
	putchar('\n');
}

static void lab_change(const char *path, bool is_dir)
{
	int a;

	for (a = 0; a < A_COUNT; a++) {
		if (lab.remove[a] && lab_remove(path, lab.names[a]) != 0) {
			ctl_err("%s: cannot remove %s: %s", path,
				lab.names[a], strerror(errno));
			lab.errors++;
		}
		if (!lab.set[a])
			continue;
		if (a == A_TRANSMUTE && !is_dir)
			continue;	/* chsmack: transmute is for dirs */
		if (lab_set(path, lab.names[a], lab.set[a]) != 0) {
			ctl_err("%s: cannot set %s: %s%s", path, lab.names[a],
				strerror(errno), errno == EPERM ?
				" (needs CAP_MAC_ADMIN)" : "");
			lab.errors++;
		}
	}
}

static void lab_one(const char *path, const struct stat *st)
{
	if (lab.show)
		lab_show(path);
	else
		lab_change(path, S_ISDIR(st->st_mode));
}

static int lab_walk(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	(void)ftw;
	if (type == FTW_NS || type == FTW_DNR) {
		ctl_err("%s: cannot %s", path,
			type == FTW_NS ? "stat" : "read directory");
		lab.errors++;
		return 0;
	}
	lab_one(path, st);
	return 0;
}

static const char label_usage[] =
"usage: smackfusectl label [OPTIONS] PATH...\n"
"  (no option)         show the labels of each PATH\n"
"  -a, --access L      set SMACK64 (the object label)\n"
"  -e, --exec L        set SMACK64EXEC\n"
"  -m, --mmap L        set SMACK64MMAP\n"
"  -t, --transmute     set SMACK64TRANSMUTE=TRUE (directories only)\n"
"  -A, -E, -M, -T      remove that one attribute (--remove-access,\n"
"                      --remove-exec, --remove-mmap, --remove-transmute)\n"
"  -d, --remove        remove every Smack attribute\n"
"  -r, --recursive     descend into directories\n"
"  -L, --dereference   follow symbolic links\n"
"      --xattr-prefix P  attribute prefix (default \"security.\", as\n"
"                      the daemon's -o xattr=P)\n";

static int lab_check(const char *label)
{
	struct sf_error err = { .file = "label" };

	if (sf_label_valid(label, strlen(label), &err) == 0)
		return 0;
	ctl_err("\"%s\" is not a valid Smack label: %s", label, err.reason);
	return -EINVAL;
}

/*
 * Read the options into lab (and @prefix, @recursive).  Returns -1 to go
 * on, or the command's exit code (0 after --help, 2 on a bad option).
 */
static int lab_options(int argc, char **argv, const char **prefix,
		       bool *recursive)
{
	static const struct option lopts[] = {
		{ "access", required_argument, NULL, 'a' },
		{ "exec", required_argument, NULL, 'e' },
		{ "mmap", required_argument, NULL, 'm' },
		{ "transmute", no_argument, NULL, 't' },
		{ "remove", no_argument, NULL, 'd' },
		{ "recursive", no_argument, NULL, 'r' },
		{ "dereference", no_argument, NULL, 'L' },
		{ "remove-access", no_argument, NULL, 'A' },
		{ "remove-exec", no_argument, NULL, 'E' },
		{ "remove-mmap", no_argument, NULL, 'M' },
		{ "remove-transmute", no_argument, NULL, 'T' },
		{ "xattr-prefix", required_argument, NULL, CTL_LONG_ONLY },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c, a;

	while ((c = ctl_getopt(argc, argv, lopts)) != -1) {
		switch (c) {
		case 'a': lab.set[A_ACCESS] = optarg; break;
		case 'e': lab.set[A_EXEC] = optarg; break;
		case 'm': lab.set[A_MMAP] = optarg; break;
		case 't': lab.set[A_TRANSMUTE] = "TRUE"; break;
		case 'A': lab.remove[A_ACCESS] = true; break;
		case 'E': lab.remove[A_EXEC] = true; break;
		case 'M': lab.remove[A_MMAP] = true; break;
		case 'T': lab.remove[A_TRANSMUTE] = true; break;
		case 'd':
			for (a = 0; a < A_COUNT; a++)
				lab.remove[a] = true;
			break;
		case 'r': *recursive = true; break;
		case 'L': lab.follow = true; break;
		case CTL_LONG_ONLY: *prefix = optarg; break;
		case 'h': fputs(label_usage, stdout); return 0;
		default: fputs(label_usage, stderr); return 2;
		}
	}
	return -1;
}

/*
 * The attribute names under @prefix, and what the options ask of each:
 * a label to set must be one, and no attribute is both set and removed.
 * Returns 0, or 2 after saying what is wrong.
 */
static int lab_plan(const char *prefix)
{
	bool any = false;
	int a;

	for (a = 0; a < A_COUNT; a++) {
		if (snprintf(lab.names[a], sizeof(lab.names[a]), "%s%s",
			     prefix, attr_suffix[a]) >= (int)sizeof(lab.names[a]))
			return 2;
		if (lab.set[a] && lab.remove[a]) {
			ctl_err("cannot both set and remove %s",
				attr_suffix[a]);
			return 2;
		}
		if (lab.set[a] && a != A_TRANSMUTE && lab_check(lab.set[a]))
			return 2;
		any |= lab.set[a] || lab.remove[a];
	}
	lab.show = !any;
	return 0;
}

int ctl_cmd_label(const struct ctl_opts *o, int argc, char **argv)
{
	const char *prefix = "security.";
	bool recursive = false;
	struct stat st;
	int rc, i;

	(void)o;
	memset(&lab, 0, sizeof(lab));
	rc = lab_options(argc, argv, &prefix, &recursive);
	if (rc >= 0)
		return rc;
	if (optind == argc) {
		fputs(label_usage, stderr);
		return 2;
	}
	if (lab_plan(prefix))
		return 2;
	for (i = optind; i < argc; i++) {
		if ((lab.follow ? stat(argv[i], &st) :
				  lstat(argv[i], &st)) != 0) {
			ctl_err("%s: %s", argv[i], strerror(errno));
			lab.errors++;
			continue;
		}
		if (recursive && S_ISDIR(st.st_mode))
			nftw(argv[i], lab_walk, 16,
			     lab.follow ? 0 : FTW_PHYS);
		else
			lab_one(argv[i], &st);
	}
	return lab.errors ? 1 : 0;
}
