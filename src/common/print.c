// SPDX-License-Identifier: GPL-2.0-only
/*
 * print.c - what reading the smackfs files shows, byte for byte.
 */
#include "core.h"

/*
 * Mainline smk_rule_show(): "%s %s %s\n" with the access letters in
 * rwxatlb order; rules with access 0 are not shown, nor rules with a
 * label of @max bytes or more (SMK_LABELLEN for load, SMK_LONGLABEL for
 * load2), "because you should expect to be able to write anything you
 * read back".  Rules come in load order (mainline: per subject, newest
 * subject first; the set of lines is the same).
 */
static size_t sf_print_rules(const struct sf_labels *labels,
			     const struct sf_snapshot *snap, size_t max,
			     char *buf, size_t size)
{
	char acc[SF_NUM_ACCESS + 1];
	struct sf_out o;
	sf_lid s, obj;
	u32 i, a;

	sf_out_init(&o, buf, size);
	for (i = 0; sf_rule_at(snap, i, &s, &obj, &a); i++) {
		const char *sn = sf_label_name(labels, s);
		const char *on = sf_label_name(labels, obj);

		if (!a || !sn || !on || strlen(sn) >= max || strlen(on) >= max)
			continue;
		sf_access_format(a, acc);
		sf_out_str(&o, sn);
		sf_out_char(&o, ' ');
		sf_out_str(&o, on);
		sf_out_char(&o, ' ');
		sf_out_str(&o, acc);
		sf_out_char(&o, '\n');
	}
	return o.len;
}

size_t sf_print_load2(const struct sf_labels *labels,
		      const struct sf_snapshot *snap, char *buf, size_t size)
{
	return sf_print_rules(labels, snap, SF_LABEL_MAX + 1, buf, size);
}

size_t sf_print_load(const struct sf_labels *labels,
		     const struct sf_snapshot *snap, char *buf, size_t size)
{
	return sf_print_rules(labels, snap, SF_LABELLEN, buf, size);
}

/*
 * Mainline onlycap_seq_show(): each label followed by one space, no
 * newline, nothing at all when onlycap is empty.  smk_parse_label_list()
 * list_add()s each label at the head, so the labels read back in the
 * reverse of the order they were written; so do ours.
 */
size_t sf_print_onlycap(const struct sf_labels *labels,
			const struct sf_snapshot *snap, char *buf, size_t size)
{
	struct sf_out o;
	u32 n = sf_onlycap_count(snap);

	sf_out_init(&o, buf, size);
	while (n--) {
		const char *name = sf_label_name(labels, sf_onlycap_at(snap, n));

		if (!name)
			continue;
		sf_out_str(&o, name);
		sf_out_char(&o, ' ');
	}
	return o.len;
}
