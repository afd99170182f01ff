// SPDX-License-Identifier: GPL-2.0-only
/*
 * cipso_roundtrip - label -> CIPSO -> label in user space (TAP).
 *
 * Proves the direct and mapped forms, the cipso2/cipso text formats as
 * mainline smackfs reads and writes them, the boundaries (255-byte labels
 * that do not fit, category 184, level 255), "*" for what is unknown (as
 * mainline smack_from_secattr decodes it), and
 * the bytes of the IPv4 option the kernel validates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cipso.h"

static int n, failed;

static void ok(int cond, const char *what)
{
	printf("%s %d - %s\n", cond ? "ok" : "not ok", ++n, what);
	if (!cond)
		failed = 1;
}

static struct sf_labels *labels;
static struct sf_cipso_map map;

static sf_lid intern(const char *s)
{
	sf_lid lid = 0;

	if (sf_label_intern(labels, s, strlen(s), &lid, NULL))
		abort();
	return lid;
}

/* encode @s, decode the result; true if it comes back as @s */
static int roundtrip(const char *s, struct sf_cipso_attr *attr)
{
	char back[SF_LABEL_MAX + 1];
	sf_lid lid = intern(s);

	sf_cipso_encode(&map, lid, s, strlen(s), attr);
	return sf_cipso_decode(&map, labels, attr, back) == 0 &&
	       strcmp(back, s) == 0;
}

static int parse2(const char *s, struct sf_cipso_rule *r, char *msg)
{
	struct sf_error err = { .file = "cipso2" };
	int rc = sf_parse_cipso2(labels, s, strlen(s), r, &err);

	if (rc && msg)
		sf_error_format(&err, msg, 256);
	return rc;
}

static int has_line(const char *text, const char *line)
{
	size_t l = strlen(line);
	const char *p;

	for (p = text; (p = strstr(p, line)); p++)
		if ((p == text || p[-1] == '\n') && p[l] == '\n')
			return 1;
	return 0;
}

int main(void)
{
	struct sf_cipso_attr a, b;
	struct sf_cipso_rule r;
	char buf[8192], msg[256], big[300], back[SF_LABEL_MAX + 1];
	u8 opt[SF_CIPSO_OPT_MAX];
	u32 doi;
	int len;

	labels = sf_labels_new();
	sf_cipso_map_init(&map);

	ok(roundtrip("Secret", &a) && a.level == 250 &&
	   memcmp(a.cats, "Secret", 6) == 0 && a.cats[6] == 0,
	   "direct: Secret travels as level 250 with its bytes as bitmap");
	sf_print_cipso2(labels, &map, buf, sizeof(buf));
	intern("a");
	sf_print_cipso2(labels, &map, buf, sizeof(buf));
	ok(has_line(buf, "a 250/2,3,8"),
	   "cipso2 read: \"a\" (0x61) prints as mainline: \"a 250/2,3,8\"");

	memset(big, 'a', 23);
	big[23] = 0;
	ok(roundtrip(big, &a) && a.level == 250 &&
	   sf_cipso_cat_test(&a, 184) && !sf_cipso_cat_next(&a, 185),
	   "direct: a 23-byte label round-trips and reaches category 184");
	big[23] = 'a';
	big[24] = 0;
	ok(roundtrip(big, &a) && a.level == 251 && a.cats[4] == 0,
	   "mapped: a 24-byte label does not fit direct, goes mapped, round-trips");
	memset(big, 'x', 255);
	big[255] = 0;
	ok(roundtrip(big, &a) && a.level == 251,
	   "mapped: a 255-byte label round-trips through its id");
	a.cats[0] ^= 0x80;	/* an id nobody interned */
	ok(sf_cipso_decode(&map, labels, &a, back) == -ENOENT &&
	   strcmp(back, "*") == 0, "mapped: an unknown id decodes to \"*\"");

	memset(&a, 0, sizeof(a));
	a.level = 7;
	sf_cipso_cat_set(&a, 3);
	ok(sf_cipso_decode(&map, labels, &a, back) == -ENOENT &&
	   strcmp(back, "*") == 0, "an unknown level decodes to \"*\"");
	memset(&a, 0, sizeof(a));
	a.level = 250;
	memcpy(a.cats, "a/b", 3);
	ok(sf_cipso_decode(&map, labels, &a, back) == -ENOENT &&
	   strcmp(back, "*") == 0,
	   "direct: a bitmap that is not a valid label decodes to \"*\"");
	memset(&a, 0, sizeof(a));
	a.level = 250;
	memcpy(a.cats, "Remote", 6);
	ok(sf_cipso_decode(&map, labels, &a, back) == -ENOENT &&
	   strcmp(back, "*") == 0 &&
	   sf_label_find(labels, "Remote", 6) == SF_LID_INVALID,
	   "direct: a label this host never saw decodes to \"*\" and is not "
	   "created (smack_from_secattr looks known labels up only)");
	intern("Remote");
	ok(sf_cipso_decode(&map, labels, &a, back) == 0 &&
	   strcmp(back, "Remote") == 0,
	   "direct: ... once known here, it decodes from its bytes");

	ok(parse2("Secret 3   2   5   184 \n", &r, NULL) == 0 &&
	   r.attr.level == 3 && sf_cipso_cat_test(&r.attr, 5) &&
	   sf_cipso_cat_test(&r.attr, 184) && sf_cipso_cat_next(&r.attr, 6) == 184,
	   "cipso2 write: \"Secret 3   2   5   184 \" (libsmack %-4d fields)");
	sf_cipso_map_set(&map, &r);
	sf_print_cipso2(labels, &map, buf, sizeof(buf));
	ok(has_line(buf, "Secret   3/5,184"),
	   "cipso2 read shows the rule: \"Secret   3/5,184\"");
	ok(roundtrip("Secret", &a) && a.level == 3,
	   "cipso2 rule wins over direct and round-trips");
	memset(&b, 0, sizeof(b));
	b.level = 250;
	memcpy(b.cats, "Secret", 6);
	ok(sf_cipso_decode(&map, labels, &b, back) == -ENOENT,
	   "after a cipso2 rule the label's direct form no longer decodes to it");
	ok(parse2("Top 255 1   1", &r, NULL) == 0 && r.attr.level == 255 &&
	   sf_cipso_cat_test(&r.attr, 1), "cipso2: level 255 is accepted");
	ok(parse2("Top    3   1   7", &r, NULL) == 0 && r.attr.level == 3 &&
	   sf_cipso_cat_next(&r.attr, 1) == 7,
	   "cipso2: right-aligned fields (%4d) parse as mainline reads them");
	ok(parse2("Top 256 0", &r, msg) == -EINVAL && strstr(msg, "level above 255"),
	   "cipso2: level 256 rejected with a reason");
	ok(parse2("Top 1   1   185", &r, msg) == -EINVAL &&
	   strstr(msg, "category above 184"), "cipso2: category 185 rejected");
	ok(parse2("Top 1   185 ", &r, msg) == -EINVAL &&
	   strstr(msg, "category count above 184"),
	   "cipso2: a count of 185 rejected");
	ok(parse2("Secret 3 2 5 7", &r, msg) == -EINVAL &&
	   strstr(msg, "cipso2:1:8: level is not one number"),
	   "cipso2: single-blank fields rejected at line:column");
	ok(parse2("Top 1   2   5", &r, msg) == -EOVERFLOW &&
	   strstr(msg, "category missing"),
	   "cipso2: fewer categories than counted, the record ends: EOVERFLOW "
	   "(smackfs)");
	ok(parse2("Top 1   2   5   ", &r, msg) == -EINVAL &&
	   strstr(msg, "category missing"),
	   "cipso2: ... ending in blanks where a category should be: EINVAL "
	   "(smackfs)");
	ok(parse2("Top 1   1   5   9", &r, msg) == -EINVAL &&
	   strstr(msg, "trailing data"), "cipso2: more categories than counted");
	ok(parse2("-Top 1   0", &r, NULL) == -EINVAL && parse2("Top", &r, NULL) ==
	   -EINVAL && parse2("", &r, NULL) == -EINVAL,
	   "cipso2: leading '-', no level, empty input rejected");
	memset(big, 'L', 256);
	strcpy(big + 256, " 1   0");
	ok(parse2(big, &r, msg) == -EINVAL && strstr(msg, "longer than 255"),
	   "cipso2: a 256-byte label rejected");

	snprintf(buf, sizeof(buf), "%-24s%-4d%-4d%-4d%-4d", "Fixed", 9, 2, 1, 184);
	ok(sf_parse_cipso(labels, buf, strlen(buf), &r, NULL) == 0 &&
	   r.attr.level == 9 && sf_cipso_cat_test(&r.attr, 1) &&
	   sf_cipso_cat_test(&r.attr, 184) &&
	   !strcmp(sf_label_name(labels, r.lid), "Fixed"),
	   "cipso: the fixed 24-byte label format parses");
	ok(sf_parse_cipso(labels, buf, strlen(buf) - 1, &r, NULL) == -EINVAL,
	   "cipso: a record of the wrong length is rejected");
	sf_print_cipso(labels, &map, buf, sizeof(buf));
	ok(has_line(buf, "a 250/2,3,8") && !strstr(buf, "xxxxxxxxxxxxxxxxxxxxxxxx"),
	   "cipso read skips labels of 24 bytes or more");
	ok(sf_print_cipso2(labels, &map, buf, 8) > 8 && strlen(buf) == 7,
	   "printers truncate and return the length needed");

	memset(&a, 0, sizeof(a));
	a.level = 3;
	sf_cipso_cat_set(&a, 5);
	len = sf_cipso_option_build(3, &a, opt, sizeof(opt));
	ok(len == 11 && !memcmp(opt, "\x86\x0b\x00\x00\x00\x03\x01\x05\x00\x03\x04",
				11), "option: level 3 cat 5 is 86 0b 00000003 01 05 00 03 04");
	ok(sf_cipso_option_parse(opt, len, &doi, &b) == 0 && doi == 3 &&
	   !memcmp(&a, &b, sizeof(a)), "option: parses back to DOI and attr");
	memset(&a, 0, sizeof(a));
	a.level = 255;
	sf_cipso_cat_set(&a, 184);
	sf_cipso_cat_set(&a, 192);
	len = sf_cipso_option_build(0xfffffffe, &a, opt, sizeof(opt));
	ok(len == 35 && sf_cipso_option_parse(opt, len, &doi, &b) == 0 &&
	   doi == 0xfffffffe && !memcmp(&a, &b, sizeof(a)),
	   "option: level 255, categories 184 and 192 round-trip (35 bytes)");
	ok(sf_cipso_option_build(3, &a, opt, 34) == -ENOSPC,
	   "option: too small a buffer is -ENOSPC");
	memcpy(buf, "\x01\x01", 2);
	len = sf_cipso_option_build(3, &a, (u8 *)buf + 2, 40);
	ok(sf_cipso_option_parse((u8 *)buf, len + 2, &doi, &b) == 0,
	   "option: found after NOOP padding");
	buf[3] = 60;
	ok(sf_cipso_option_parse((u8 *)buf, len + 2, &doi, &b) == -EINVAL,
	   "option: a length past the end is -EINVAL");

	sf_cipso_map_release(&map);
	sf_labels_free(labels);
	printf("1..%d\n", n);
	return failed;
}
