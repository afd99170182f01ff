// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - the numbers and the empty writes of the control files
 * (parse.h), read as smackfs reads them.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <syslog.h>

#include "control_int.h"

bool ctl_has_text(const char *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!strchr(" \t\n\v\f\r", buf[i]) || !buf[i])
			return true;
	return false;
}

/*
 * A decimal number as smackfs's kstrto*_from_user() reads one: at most 31
 * bytes are looked at; an optional sign, digits, one optional newline,
 * nothing else (no leading or other trailing white space).
 */
int ctl_parse_num(const char *buf, size_t len, long long min,
		  long long max, long long *val)
{
	unsigned long long v = 0, lim;
	char tmp[40];	/* kstrto*_from_user() reads at most 66 for u64 */
	size_t i = 0, digits;
	bool neg = false;

	if (len > sizeof(tmp) - 1)
		len = sizeof(tmp) - 1;
	memcpy(tmp, buf, len);
	tmp[len] = '\0';
	if (tmp[0] == '+' || tmp[0] == '-') {
		if (tmp[0] == '-' && min >= 0)
			return -EINVAL;	/* kstrtou*: no minus at all */
		neg = tmp[0] == '-';
		i++;
	}
	lim = neg ? (unsigned long long)-(min + 1) + 1 :
		    (unsigned long long)max;
	for (digits = i; tmp[i] >= '0' && tmp[i] <= '9'; i++) {
		if (v > (~0ULL - (unsigned int)(tmp[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (unsigned int)(tmp[i] - '0');
	}
	if (i == digits)
		return -EINVAL;
	if (tmp[i] == '\n')
		i++;
	if (tmp[i])
		return -EINVAL;
	if (v > lim)
		return -ERANGE;
	*val = neg ? -(long long)(v - 1) - 1 : (long long)v;
	return 0;
}

/**
 * ctl_parse_bounded - the number written to control file @file
 * Returns 0 with *@val set; else logs the rejected write and returns
 * ctl_parse_num()'s -EINVAL or -ERANGE (outside @b's type), or -EINVAL
 * (outside what the file accepts).
 */
int ctl_parse_bounded(struct sf_control *c, const char *file,
		      const struct ctl_bounds *b, const char *buf, size_t len,
		      long long *val)
{
	int rc;

	if (b->window && len > b->window)
		len = b->window;
	rc = ctl_parse_num(buf, len, b->min, b->max, val);
	if (rc == 0 && (*val < b->lo || *val > b->hi))
		rc = -EINVAL;
	if (rc == 0)
		return 0;
	if (b->want)
		ctl_log(c, LOG_WARNING, "rejected write: %s: want %s",
			file, b->want);
	else
		ctl_log(c, LOG_WARNING, "rejected write: %s: want a number "
			"from %lld to %lld", file, b->lo, b->hi);
	return rc;
}
