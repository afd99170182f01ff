// SPDX-License-Identifier: GPL-2.0-only
/*
 * access.c - access strings and the decision (mainline smk_access()).
 */
#include "core.h"

static const char sf_letters[SF_NUM_ACCESS] = { 'r', 'w', 'x', 'a', 't',
						'l', 'b' };

static u32 sf_letter_bit(unsigned char c)
{
	switch (c | 0x20) {	/* fold case; '-' (0x2d) is unchanged */
	case 'r':
		return SF_MAY_READ;
	case 'w':
		return SF_MAY_WRITE;
	case 'x':
		return SF_MAY_EXEC;
	case 'a':
		return SF_MAY_APPEND;
	case 't':
		return SF_MAY_TRANSMUTE;
	case 'l':
		return SF_MAY_LOCK;
	case 'b':
		return SF_MAY_BRINGUP;
	default:
		return 0;
	}
}

/**
 * sf_access_parse - an access string ("rwxatlb", any case, any order,
 * '-' as a placeholder) to SF_MAY_* bits.
 *
 * Mainline smk_perm_from_str() stops quietly at the first unknown byte,
 * so "rx?w" means "rx" there; here it is an error naming the byte.  An
 * empty string is an error too (write "-" for no access).
 */
int sf_access_parse(const char *s, size_t len, u32 *bits,
		    struct sf_error *err)
{
	u32 acc = 0, b;
	size_t i;

	if (len == 0) {
		sf_err(err, 0, 0, "empty access string (use \"-\" for none)");
		return -EINVAL;
	}
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '-')
			continue;
		b = sf_letter_bit(c);
		if (!b) {
			sf_err(err, 0, (unsigned int)i + 1,
			       "unknown access letter %c (allowed: rwxatlb and -)",
			       c);
			return -EINVAL;
		}
		acc |= b;
	}
	*bits = acc;
	return 0;
}

/* Mainline smack_str_from_perm() order; "-" for no access at all. */
void sf_access_format(u32 bits, char *buf)
{
	int i, n = 0;

	for (i = 0; i < SF_NUM_ACCESS; i++)
		if (bits & (1u << i))
			buf[n++] = sf_letters[i];
	if (!n)
		buf[n++] = '-';
	buf[n] = '\0';
}

static inline int sf_decided(struct sf_decision *d, int rc,
			     enum sf_reason reason, u32 rule_access)
{
	if (d) {
		d->rc = rc;
		d->reason = reason;
		d->rule_access = rule_access;
	}
	return rc;
}

/**
 * sf_access - determine if @subject has @request access to @object.
 * @snap: the policy snapshot (caller holds sf_rcu_read_lock())
 * @subject: the subject label id
 * @object: the object label id
 * @request: SF_MAY_* bits wanted
 * @d: receives the deciding step (may be NULL)
 *
 * The steps are those of mainline smk_access(), in its order.  An
 * unknown id (SF_LID_INVALID or never interned) is denied, as smackfs
 * "access2" answers 0 for a label it has never seen.
 *
 * Returns 0 if access is permitted, -EACCES otherwise.
 */
int sf_access(const struct sf_snapshot *snap, sf_lid subject, sf_lid object,
	      u32 request, struct sf_decision *d)
{
	const u64 *slot;
	u32 may;

	if (subject == SF_LID_INVALID || object == SF_LID_INVALID ||
	    subject >= SF_LID_LIMIT || object >= SF_LID_LIMIT)
		return sf_decided(d, -EACCES, SF_R_UNKNOWN_LABEL, 0);
	/* A star subject can't access any object. */
	if (subject == SF_LID_STAR)
		return sf_decided(d, -EACCES, SF_R_STAR_SUBJECT, 0);
	/* An internet object or subject: anything goes. */
	if (subject == SF_LID_WEB || object == SF_LID_WEB)
		return sf_decided(d, 0, SF_R_WEB, 0);
	/* A star object can be accessed by any subject. */
	if (object == SF_LID_STAR)
		return sf_decided(d, 0, SF_R_STAR_OBJECT, 0);
	/* Same label: any access (ids are unique per label). */
	if (subject == object)
		return sf_decided(d, 0, SF_R_SAME, 0);
	/*
	 * A floor object can be read or locked by anyone, a hat subject can
	 * read or lock anything; "read" is r and/or x, and a request mixing
	 * read and lock qualifies for neither (as in mainline).
	 */
	if ((request & SF_MAY_ANYREAD) == request ||
	    (request & SF_MAY_LOCK) == request) {
		if (object == SF_LID_FLOOR)
			return sf_decided(d, 0, SF_R_FLOOR_OBJECT, 0);
		if (subject == SF_LID_HAT)
			return sf_decided(d, 0, SF_R_HAT_SUBJECT, 0);
	}
	/* Beyond here an explicit rule is required. */
	if (!sf_snap_has_subject(snap, subject))
		return sf_decided(d, -EACCES, SF_R_NO_RULE, 0);
	slot = sf_snap_find(snap, sf_rule_key(subject, object));
	if (!slot)
		return sf_decided(d, -EACCES, SF_R_NO_RULE, 0);
	may = (u32)(*slot & SF_SLOT_ACCESS);
	if (may & SF_MAY_WRITE)		/* write implies lock */
		may |= SF_MAY_LOCK;
	/* Mainline: "may <= 0 || (request & may) != request" denies. */
	if (!may || (request & may) != request)
		return sf_decided(d, -EACCES, SF_R_RULE_SHORT, may);
	return sf_decided(d, 0, SF_R_RULE, may);
}
