// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_kmod.c - smackfusectl's kernel-module target: the rules and onlycap
 * of smackfuse.ko, through its securityfs files (load2, onlycap).
 *
 * The module's load2 takes one write as one batch, parsed by the same
 * core and applied whole or not at all (src/kmod/fs.c), but it has no
 * "clear" and no "change" line.  So the final rule set is computed here,
 * with the core, from what the module holds now and the rule files; and
 * one write sends "S O -" for every rule the module holds, then every rule
 * of the result: the module goes from its old rules to the new ones in
 * one step, or stays as it was.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smack.h"
#include "ctl.h"

/* Parse @text with @parse into @b; say file:line:reason if it fails. */
static int ctl_kmod_parse(struct sf_labels *labels, const char *name,
			  int (*parse)(struct sf_labels *, const char *,
				       size_t, struct sf_batch *,
				       struct sf_error *),
			  const struct ctl_text *text, struct sf_batch *b)
{
	struct sf_error err = { .file = name };
	char msg[256];
	int rc;

	rc = parse(labels, text->data ? text->data : "", text->len, b, &err);
	if (rc == -EINVAL) {
		sf_error_format(&err, msg, sizeof(msg));
		ctl_err("%s", msg);
	}
	return rc;
}

/* Append "S O -\n" for each "S O access" line of @now to @out. */
static int ctl_kmod_clear_lines(const struct ctl_text *now,
				struct ctl_text *out)
{
	const char *p = now->data, *end = p + now->len, *nl, *sp;
	int rc = 0;

	while (p && p < end && rc == 0) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		/* the object ends at the second blank */
		sp = memchr(p, ' ', (size_t)(nl - p));
		sp = sp ? memchr(sp + 1, ' ', (size_t)(nl - sp - 1)) : NULL;
		if (sp) {
			rc = ctl_text_add(out, p, (size_t)(sp - p));
			if (rc == 0)
				rc = ctl_text_add(out, " -\n", 3);
		}
		p = nl + 1;
	}
	return rc;
}

/*
 * The module's rules after the change, computed by the core exactly as
 * the module would: its current rules @now, cleared with @clear, then the
 * rule-file text @rules, applied to @pol through @b.
 */
static int ctl_kmod_result(struct sf_policy *pol, struct sf_batch *b,
			   const struct ctl_text *now,
			   const struct ctl_text *rules, bool clear)
{
	struct sf_op op = { .kind = SF_OP_CLEAR };
	int rc;

	rc = ctl_kmod_parse(sf_policy_labels(pol), "module load2",
			    sf_parse_load2, now, b);
	if (rc == 0 && clear)
		rc = sf_batch_add(b, &op);
	if (rc == 0)
		rc = ctl_kmod_parse(sf_policy_labels(pol), "rules",
				    sf_parse_rule_file, rules, b);
	if (rc == 0)
		rc = sf_policy_apply(pol, b);
	return rc;
}

/* @pol's rules as load2 lines, appended to @out. */
static int ctl_kmod_print(struct sf_policy *pol, struct ctl_text *out)
{
	size_t need;
	int rc;

	sf_rcu_read_lock();
	need = sf_print_load2(sf_policy_labels(pol), sf_policy_snapshot(pol),
			      NULL, 0);
	rc = ctl_text_add(out, "", 0);
	if (rc == 0 && need) {
		char *buf = malloc(need + 1);

		if (buf) {
			sf_print_load2(sf_policy_labels(pol),
				       sf_policy_snapshot(pol), buf, need + 1);
			rc = ctl_text_add(out, buf, need);
			free(buf);
		} else {
			rc = -ENOMEM;
		}
	}
	sf_rcu_read_unlock();
	return rc;
}

/*
 * Write @batch to the module's load2 in one write (the module applies a
 * write all or nothing), then @onlycap when it is not NULL.
 */
static int ctl_kmod_send(const struct ctl_opts *o,
			 const struct ctl_text *batch, const char *onlycap)
{
	int rc;

	if (batch->len > SF_KMOD_WRITE_MAX) {
		ctl_err("kmod %s: %zu bytes of rules exceed the module's "
			"one-write limit of %u bytes; nothing sent",
			o->kmod_dir, batch->len, SF_KMOD_WRITE_MAX);
		return -E2BIG;
	}
	if (batch->len) {
		rc = ctl_write_file(o->kmod_dir, SF_KMOD_LOAD2, batch->data,
				    batch->len);
		if (rc < 0) {
			ctl_say_write_error("kmod", o->kmod_dir,
					    SF_KMOD_LOAD2, rc);
			return rc;
		}
	}
	if (!onlycap)
		return 0;
	rc = ctl_write_file(o->kmod_dir, SF_KMOD_ONLYCAP,
			    *onlycap ? onlycap : "-",
			    *onlycap ? strlen(onlycap) : 1);
	if (rc < 0) {
		ctl_say_write_error("kmod", o->kmod_dir, SF_KMOD_ONLYCAP, rc);
		ctl_err("kmod %s: the rules above were applied; onlycap was not",
			o->kmod_dir);
		return rc;
	}
	return 0;
}

/*
 * The module's rules become those of the rule-file text @rules (applied
 * over its current rules, or over none with @clear); then its onlycap
 * becomes @onlycap when it is not NULL ("" clears it).  Prints one line
 * for the target.  Returns 0, or 1 after saying what failed.
 */
int ctl_kmod_apply(const struct ctl_opts *o, const struct ctl_text *rules,
		   bool clear, const char *onlycap)
{
	struct ctl_text now = { 0 }, batch = { 0 }, fin = { 0 };
	struct sf_policy *pol = sf_policy_new();
	struct sf_batch b;
	size_t nrules = 0, i;
	int rc;

	sf_batch_init(&b);
	if (!pol) {
		rc = -ENOMEM;
		goto out;
	}
	rc = ctl_read_file(o->kmod_dir, SF_KMOD_LOAD2, &now);
	if (rc < 0) {
		ctl_err("kmod %s/load2: %s", o->kmod_dir, strerror(-rc));
		goto out;
	}
	rc = ctl_kmod_result(pol, &b, &now, rules, clear);
	if (rc == 0)
		rc = ctl_kmod_print(pol, &fin);
	for (i = 0; i < fin.len; i++)
		nrules += fin.data[i] == '\n';
	/* clear what the module has, then load the result: one write */
	if (rc == 0)
		rc = ctl_kmod_clear_lines(&now, &batch);
	if (rc == 0)
		rc = ctl_text_add(&batch, fin.data, fin.len);
	if (rc == 0)
		rc = ctl_kmod_send(o, &batch, onlycap);
	if (rc)
		goto out;
	printf("kmod %s: rules %s (%zu rules)", o->kmod_dir,
	       clear ? "replaced" : "loaded", nrules);
	if (onlycap && *onlycap)
		printf(", onlycap \"%s\"", onlycap);
	else if (onlycap)
		printf(", onlycap cleared");
	putchar('\n');
out:
	sf_batch_release(&b);
	sf_policy_free(pol);
	ctl_text_free(&now);
	ctl_text_free(&batch);
	ctl_text_free(&fin);
	return rc ? 1 : 0;
}
