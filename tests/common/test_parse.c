// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_parse - the text formats: valid input, malformed input (each with
 * a clear file:line:column error and the policy left unchanged), and
 * print/parse round trips byte-compatible with smackfs.
 */
#include "helpers.h"
#include "net4addr.h"

/* Parse must fail, name line and column, mention @needle, change nothing. */
static void bad(parse_fn fn, const char *what, const char *text, size_t len,
		unsigned int line, unsigned int col, const char *needle)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_error err = { .file = "policy.rules" };
	struct sf_batch b;
	char msg[256], *before, *after;
	u32 nlabels;
	int rc;

	load2(p, "Keep Me rw\n");
	before = print_all(p, sf_print_load2);
	nlabels = sf_labels_count(sf_policy_labels(p));
	sf_batch_init(&b);
	rc = fn(sf_policy_labels(p), text, len, &b, &err);
	sf_error_format(&err, msg, sizeof(msg));
	after = print_all(p, sf_print_load2);
	ok(rc == -EINVAL && b.nops == 0 && err.line == line &&
	   err.column == col && strstr(msg, needle) &&
	   !strncmp(msg, "policy.rules:", 13) &&
	   sf_labels_count(sf_policy_labels(p)) == nlabels &&
	   !strcmp(before, after),
	   "%s is refused: \"%s\" (want %u:%u, %s)", what, msg, line, col,
	   needle);
	sf_batch_release(&b);
	free(before);
	free(after);
	sf_policy_free(p);
}

#define BAD(fn, what, text, line, col, needle) \
	bad(fn, what, text, sizeof(text) - 1, line, col, needle)

static void malformed(void)
{
	char big[300], fixed[SF_LOADLEN + 1];

	memset(big, 'L', 256);
	memcpy(big + 256, " B r\n", 6);
	bad(sf_parse_load2, "a 256-byte label", big, strlen(big), 1, 256,
	    "limit is 255");
	BAD(sf_parse_load2, "an unknown access letter", "A B rwq\n", 1, 7,
	    "unknown access letter q");
	BAD(sf_parse_load2, "a missing access field", "A B\n", 1, 4,
	    "missing access string");
	BAD(sf_parse_load2, "a missing object", "A\n", 1, 2,
	    "missing object label");
	BAD(sf_parse_load2, "an extra field", "A B r x\n", 1, 7,
	    "unexpected extra field");
	BAD(sf_parse_load2, "a NUL byte in a label", "A B\0C r\n", 1, 4,
	    "\\x00");
	BAD(sf_parse_load2, "a slash in a label", "A/x B r\n", 1, 2,
	    "character /");
	BAD(sf_parse_load2, "a double quote in a label", "A \"B r\n", 1, 3,
	    "character \"");
	BAD(sf_parse_load2, "a backslash in a label", "A\\ B r\n", 1, 2,
	    "character \\");
	BAD(sf_parse_load2, "a single quote in a label", "A B' r\n", 1, 4,
	    "character '");
	BAD(sf_parse_load2, "a label starting with -", "-A B r\n", 1, 1,
	    "start with '-'");
	BAD(sf_parse_load2, "a non-ASCII byte", "A \xc3\xa9 r\n", 1, 3,
	    "\\xc3");
	BAD(sf_parse_load2, "a bad line after good ones",
	    "A B r\nC D w\nE F z\n", 3, 5, "unknown access letter z");
	BAD(sf_parse_load2, "a lone CR inside a line", "A B\r r\n", 1, 4,
	    "byte \\x0d");
	BAD(sf_parse_change_rule, "change-rule with 3 fields", "A B r\n", 1,
	    6, "missing deny string");
	BAD(sf_parse_rule_file, "a rule file line with 5 fields",
	    "# c\nA B r - x\n", 2, 9, "unexpected extra field");
	BAD(sf_parse_rule_file, "a trailing comment", "A B r # no\n", 1, 7,
	    "own line");
	BAD(sf_parse_load, "a 24-byte label in load",
	    "ABCDEFGHIJKLMNOPQRSTUVWX B r\n", 1, 24, "at most 23");
	memset(fixed, ' ', SF_LOADLEN);
	fixed[0] = 'A';
	fixed[9] = 'x';
	fixed[24] = 'B';
	memcpy(fixed + 48, "rwx", 3);
	bad(sf_parse_load, "text after the padding of a fixed record", fixed,
	    SF_LOADLEN, 1, 10, "after the padding");
	BAD(sf_parse_onlycap, "onlycap on two lines", "A\nB\n", 2, 1,
	    "single line");
	BAD(sf_parse_onlycap, "onlycap with a word that is no label", "A -B\n",
	    1, 3, "start with '-'");
	BAD(sf_parse_revoke_subject, "revoke-subject with two labels",
	    "A B\n", 1, 3, "one label");
	BAD(sf_parse_revoke_subject, "empty revoke-subject", "", 1, 1,
	    "needs a label");
}

static void huge_input(void)
{
	size_t n = 100u << 20;
	char *buf = malloc(n);
	struct sf_policy *p = sf_policy_new();
	struct sf_error err = { .file = "big" };
	struct sf_batch b;
	char msg[256];
	int rc;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8)
		memcpy(buf + i, "A B rw\n\n", 8);
	sf_batch_init(&b);
	rc = sf_parse_load2(sf_policy_labels(p), buf, n, &b, &err);
	sf_error_format(&err, msg, sizeof(msg));
	ok(rc == -EINVAL && b.nops == 0 && strstr(msg, "limit"),
	   "a 100 MB input is refused at once: %s", msg);
	sf_batch_release(&b);
	sf_policy_free(p);
	free(buf);
}

static void valid_forms(void)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_error err = { 0 };
	char fixed[SF_LOADLEN + 2];
	const char *text;
	char *out;
	int rc;

	text = "A B rwx\r\n\n  \t\nC\tD  -\r\nE F RwXaTlB";
	rc = apply_text(p, sf_parse_load2, text, strlen(text), &err);
	out = print_all(p, sf_print_load2);
	ok(rc == 0 && !strcmp(out, "A B rwx\nE F rwxatlb\n"),
	   "load2: CRLF, tabs, blank lines, no final newline; access 0 not shown");
	free(out);

	text = "# comment\n   # indented comment\nX Y r\nX Y w -\nX Z rw r\n";
	rc = apply_text(p, sf_parse_rule_file, text, strlen(text), &err);
	ok(rc == 0 && decide(p, "X", "Y", "rw", NULL) == 1 &&
	   decide(p, "X", "Z", "w", NULL) == 1 &&
	   decide(p, "X", "Z", "r", NULL) == 0,
	   "rule file: comments, 3-field SET, 4-field CHANGE");

	/* Fixed width, padded with spaces and with NULs, 52..54 bytes. */
	memset(fixed, ' ', sizeof(fixed));
	memcpy(fixed, "Subj", 4);
	memcpy(fixed + 24, "Obj", 3);
	memcpy(fixed + 48, "rwxatl", 6);
	rc = apply_text(p, sf_parse_load, fixed, SF_LOADLEN, &err);
	ok(rc == 0 && decide(p, "Subj", "Obj", "rwxatl", NULL) == 1,
	   "load: a %d-byte fixed-width record", SF_LOADLEN);
	memset(fixed, 0, sizeof(fixed));
	memcpy(fixed, "S2", 2);
	memcpy(fixed + 24, "O2", 2);
	memcpy(fixed + 48, "r-x-", 4);
	rc = apply_text(p, sf_parse_load, fixed, SF_OLOADLEN, &err);
	ok(rc == 0 && decide(p, "S2", "O2", "rx", NULL) == 1 &&
	   decide(p, "S2", "O2", "w", NULL) == 0,
	   "load: a %d-byte NUL-padded record (old rwxa form)", SF_OLOADLEN);
	text = "Unclass C       rx\nTS      S       rwxa\n";
	rc = apply_text(p, sf_parse_load, text, strlen(text), &err);
	ok(rc == 0 && decide(p, "TS", "S", "a", NULL) == 1,
	   "load: the 2007 \"%%7s %%7s %%7s\" form");
	sf_policy_free(p);
}

static void round_trips(void)
{
	struct sf_policy *p = sf_policy_new(), *q = sf_policy_new();
	const char *text = "A B rwxatlb\nLong_label_of_more_than_24_bytes O r\n"
			   "C D wl\nE F t\nG H -\n";
	char *out1, *out2, *ld;
	struct sf_error err = { 0 };
	int rc;

	load2(p, text);
	out1 = print_all(p, sf_print_load2);
	ok(!strcmp(out1, "A B rwxatlb\nLong_label_of_more_than_24_bytes O r\n"
			 "C D wl\nE F t\n"),
	   "load2 prints \"%%s %%s %%s\\n\" in rwxatlb order, skips access 0");
	load2(q, out1);
	out2 = print_all(q, sf_print_load2);
	ok(!strcmp(out1, out2), "load2 print -> parse -> print is identical");
	ld = print_all(p, sf_print_load);
	ok(!strcmp(ld, "A B rwxatlb\nC D wl\nE F t\n"),
	   "load hides rules with labels of 24 bytes or more");
	free(out2);
	sf_policy_free(q);
	q = sf_policy_new();
	rc = apply_text(q, sf_parse_load, ld, strlen(ld), &err);
	out2 = print_all(q, sf_print_load);
	ok(rc == 0 && !strcmp(ld, out2), "load print -> parse -> print is identical");
	free(out1);
	free(out2);
	free(ld);

	rc = apply_text(p, sf_parse_onlycap, "One Two\tThree \n", 15, &err);
	out1 = print_all(p, sf_print_onlycap);
	ok(rc == 0 && !strcmp(out1, "Three Two One "),
	   "onlycap reads back like mainline (reverse order, each label + space): \"%s\"",
	   out1);
	free(out1);
	rc = apply_text(p, sf_parse_onlycap, "Other _ B/c\n", 12, &err);
	out1 = print_all(p, sf_print_onlycap);
	ok(rc == 0 && strlen(out1) == strlen("B Other _ ") &&
	   strstr(out1, "B ") && strstr(out1, "Other ") && strstr(out1, "_ "),
	   "onlycap takes a word's label as mainline (\"B/c\" is B): \"%s\"",
	   out1);
	free(out1);
	rc = apply_text(p, sf_parse_onlycap, "", 0, &err);
	out1 = print_all(p, sf_print_onlycap);
	ok(rc == 0 && !strcmp(out1, ""), "empty onlycap reads back empty");
	free(out1);
	sf_policy_free(p);
	sf_policy_free(q);
}

static void queries(void)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_labels *l = sf_policy_labels(p);
	struct sf_error err = { 0 };
	struct sf_query q;
	u32 n;
	int rc;

	load2(p, "A B rw\n");
	n = sf_labels_count(l);
	rc = sf_parse_access2(l, "A B r\n", 6, &q, &err);
	ok(rc == 0 && q.subject == lid(p, "A") && q.object == lid(p, "B") &&
	   q.request == SF_MAY_READ, "access2 parses a query");
	rc = sf_parse_access2(l, "New New r", 9, &q, &err);
	ok(rc == 0 && q.subject == SF_LID_INVALID &&
	   sf_labels_count(l) == n &&
	   sf_policy_access(p, q.subject, q.object, q.request, NULL) == -EACCES,
	   "access2 does not intern: an unknown label is denied (mainline: 0)");
	rc = sf_parse_access2(l, "A B r extra", 11, &q, &err);
	ok(rc == -EINVAL && err.column == 7, "access2 refuses an extra field");
	rc = sf_parse_access2(l, "A B r\nA B w\n", 12, &q, &err);
	ok(rc == -EINVAL && err.line == 2, "access2 takes one query");
	rc = sf_parse_access(l, "A                       B                       r     ",
			     SF_LOADLEN, &q, &err);
	ok(rc == 0 && q.subject == lid(p, "A") && q.request == SF_MAY_READ,
	   "access parses a fixed-width query");
	sf_policy_free(p);
}

/* A fixed-width record: @s and @o padded to SF_LABELLEN, then @acc. */
static size_t record(char *buf, const char *s, const char *o,
		     const char *acc)
{
	memset(buf, ' ', 2 * SF_LABELLEN);
	memcpy(buf, s, strlen(s));
	memcpy(buf + SF_LABELLEN, o, strlen(o));
	memcpy(buf + 2 * SF_LABELLEN, acc, strlen(acc));
	return 2 * SF_LABELLEN + strlen(acc);
}

/* load and access writes are sized as smackfs sizes them (issue 16). */
static void records(void)
{
	struct sf_policy *p = sf_policy_new();
	struct sf_labels *l = sf_policy_labels(p);
	struct sf_error err = { 0 };
	char buf[128], label24[SF_LABELLEN + 1];
	struct sf_query q;
	size_t n;
	char *out;
	int rc;

	n = record(buf, "A", "B", "rwxa");
	rc = apply_text(p, sf_parse_load_record, buf, n, &err);
	ok(rc == 0 && n == SF_OLOADLEN, "load: a 52-byte record is a rule");
	n = record(buf, "A", "C", "rwxat\n");
	ok(apply_text(p, sf_parse_load_record, buf, n, &err) == 0,
	   "load: 54 bytes, the last a newline, is a rule");
	n = record(buf, "A", "D", "rwx");
	ok(apply_text(p, sf_parse_load_record, buf, n, &err) == -EINVAL,
	   "load: a 51-byte record is refused (mainline: EINVAL)");
	n = record(buf, "A", "D", "rwxatlb");
	ok(apply_text(p, sf_parse_load_record, buf, n, &err) == -EINVAL,
	   "load: a 55-byte record is refused (mainline: EINVAL)");
	ok(apply_text(p, sf_parse_load_record, "A D r\n", 6, &err) == -EINVAL,
	   "load: the whitespace form is refused (mainline: EINVAL)");
	memset(label24, 'L', SF_LABELLEN);
	label24[SF_LABELLEN] = '\0';
	memcpy(buf, label24, SF_LABELLEN);
	memset(buf + SF_LABELLEN, ' ', SF_LABELLEN);
	buf[SF_LABELLEN] = 'E';
	memcpy(buf + 2 * SF_LABELLEN, "r---", 4);
	rc = apply_text(p, sf_parse_load_record, buf, SF_OLOADLEN, &err);
	out = print_all(p, sf_print_load2);
	ok(rc == 0 && strstr(out, "LLLLLLLLLLLLLLLLLLLLLLLL E r\n"),
	   "load: a label may fill its 24-byte field (as mainline)");
	free(out);
	out = print_all(p, sf_print_load);
	ok(!strstr(out, "LLLL"), "load does not show a 24-byte label");
	free(out);

	n = record(buf, "A", "B", "r     ");
	rc = sf_parse_access_record(l, buf, n, &q, &err);
	ok(rc == 0 && q.subject == lid(p, "A") && q.request == SF_MAY_READ,
	   "access: a 54-byte record is a query");
	n = record(buf, "A", "B", "r           ");
	rc = sf_parse_access_record(l, buf, n, &q, &err);
	ok(rc == 0 && q.request == SF_MAY_READ,
	   "access: a longer record is a query too");
	n = record(buf, "A", "B", "rwxa ");
	ok(sf_parse_access_record(l, buf, n, &q, &err) == -EINVAL,
	   "access: a 53-byte record is refused (mainline: EINVAL)");
	sf_policy_free(p);
}

static void audit(void)
{
	struct sf_audit a = {
		.fn = "smack_inode_permission", .denied = true,
		.subject = "A", .object = "B", .request = SF_MAY_WRITE | SF_MAY_READ,
		.pid = 42, .comm = "cat", .objdesc = "path=\"/x\" dev=\"fuse\" ino=7",
	};
	char buf[256];
	size_t n;

	n = sf_audit_format(&a, buf, sizeof(buf));
	ok(n == strlen(buf) &&
	   !strcmp(buf, "lsm=SMACK fn=smack_inode_permission action=denied "
			"subject=\"A\" object=\"B\" requested=rw pid=42 "
			"comm=\"cat\" path=\"/x\" dev=\"fuse\" ino=7"),
	   "audit line in the kernel's format: %s", buf);
	a.denied = false;
	a.request = 0;
	a.comm = "my prog";
	a.objdesc = NULL;
	sf_audit_format(&a, buf, sizeof(buf));
	ok(!strcmp(buf, "lsm=SMACK fn=smack_inode_permission action=granted "
			"subject=\"A\" object=\"B\" labels_differ pid=42 "
			"comm=6D792070726F67"),
	   "audit: empty request is labels_differ, untrusted comm in hex: %s",
	   buf);
	n = sf_audit_format(&a, buf, 10);
	ok(n > 10 && strlen(buf) == 9, "audit truncates like snprintf");
}

/* An attribute's value read as smk_parse_smack() reads it (smk_fetch):
 * the daemon and the module both take a file's labels this way. */
static void attr_labels(void)
{
	char longest[SF_LABEL_MAX + 2];

	ok(sf_label_prefix("X/y", 3) == 1, "attr: \"X/y\" is X");
	ok(sf_label_prefix("C\n", 2) == 1, "attr: a trailing newline ends it");
	ok(sf_label_prefix("a b", 3) == 1 && sf_label_prefix("a\"b", 3) == 1 &&
	   sf_label_prefix("a\\b", 3) == 1 && sf_label_prefix("a'b", 3) == 1 &&
	   sf_label_prefix("a\x7f", 2) == 1 && sf_label_prefix("a\xc3", 2) == 1,
	   "attr: space, quotes, backslash, DEL and non-ASCII end it");
	ok(sf_label_prefix("a#~!", 4) == 4, "attr: other printable bytes stay");
	ok(sf_label_prefix("", 0) == 0 && sf_label_prefix("/x", 2) == 0,
	   "attr: nothing before the first bad byte is no label");
	ok(sf_label_prefix("-x", 2) == 0, "attr: a leading '-' is no label");
	memset(longest, 'a', sizeof(longest));
	ok(sf_label_prefix(longest, SF_LABEL_MAX) == SF_LABEL_MAX &&
	   sf_label_prefix(longest, SF_LABEL_MAX + 1) == 0,
	   "attr: %d bytes are a label, one more is none", SF_LABEL_MAX);
}

/* ---- the netlabel line (net4addr.c): the control file's and the module's ---- */

/* The first 40 of @len bytes of @line, control bytes as \xNN, for a TAP
 * line. */
static const char *shown(const char *line, size_t len)
{
	static char buf[4 * 40 + 1];
	size_t i, n = 0, end = len < 40 ? len : 40;

	buf[0] = '\0';
	for (i = 0; i < end; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n,
				      (unsigned char)line[i] < ' ' ?
				      "\\x%02x" : "%c",
				      (unsigned char)line[i]);
	return buf;
}

/* @line must be taken as @addr/@prefix (host order) with label @label. */
static void net4_good(const char *line, u32 addr, unsigned int prefix,
		      const char *label)
{
	struct sf_labels *labels = sf_labels_new();
	struct sf_error err = { .file = "netlabel" };
	struct sf_net4addr h;
	const char *name;
	char msg[256] = "";
	int rc;

	rc = sf_parse_net4addr(labels, line, strlen(line), &h, &err);
	if (rc)
		sf_error_format(&err, msg, sizeof(msg));
	name = rc ? NULL : h.label == SF_LID_INVALID ? SF_NET4ADDR_CIPSO :
	       sf_label_name(labels, h.label);
	ok(rc == 0 && h.addr == addr && h.prefix == prefix &&
	   h.mask == (prefix ? 0xffffffffu << (32 - prefix) : 0) && name &&
	   !strcmp(name, label),
	   "netlabel: \"%s\" is %u.%u.%u.%u/%u %s %s",
	   shown(line, strlen(line)), addr >> 24, (addr >> 16) & 0xff,
	   (addr >> 8) & 0xff, addr & 0xff, prefix, label, msg);
	sf_labels_free(labels);
}

/* @line (@len bytes) must be EINVAL at column @col, the reason saying
 * @needle, and no label interned. */
static void net4_bad_len(const char *line, size_t len, unsigned int col,
			 const char *needle)
{
	struct sf_labels *labels = sf_labels_new();
	struct sf_error err = { .file = "netlabel" };
	struct sf_net4addr h = { .addr = 0x01020304 };
	u32 nlabels = sf_labels_count(labels);
	char msg[256];
	int rc;

	rc = sf_parse_net4addr(labels, line, len, &h, &err);
	sf_error_format(&err, msg, sizeof(msg));
	ok(rc == -EINVAL && err.line == 1 && err.column == col &&
	   strstr(msg, needle) && h.addr == 0x01020304 &&
	   sf_labels_count(labels) == nlabels,
	   "netlabel: \"%s\" is refused: \"%s\" (want 1:%u, %s)",
	   shown(line, len), msg, col, needle);
	sf_labels_free(labels);
}

#define net4_bad(line, col, needle) \
	net4_bad_len(line, strlen(line), col, needle)

static void netlabel_lines(void)
{
	char line[SF_NET4ADDR_MAX + 2];
	struct sf_error err = { 0 };
	struct sf_net4addr h;

	net4_good("10.0.0.0/8 @", 0x0a000000, 8, "@");
	net4_good("10.1.2.3 Inside\n", 0x0a010203, 32, "Inside");
	net4_good("192.168.7.9/16 Outside", 0xc0a80000, 16, "Outside");
	net4_good("192.0.2.20 -CIPSO", 0xc0000214, 32, "-CIPSO");
	net4_good("0.0.0.0/0 @", 0, 0, "@");
	net4_good("255.255.255.255/0 _\n", 0, 0, "_");
	net4_good("10.1.2.3/32 X", 0x0a010203, 32, "X");
	net4_good("10.1.2.3/31 X", 0x0a010202, 31, "X");
	/* white space where the kernel's sscanf skips it */
	net4_good(" 10. 1.2.3/ 24\tNet\r\n", 0x0a010200, 24, "Net");
	net4_good("010.001.002.003/08 A", 0x0a000000, 8, "A");
	net4_good("1.2.3.4A\n", 0x01020304, 32, "A");
	net4_good("1.2.3.4/8-CIPSO", 0x01000000, 8, "-CIPSO");

	net4_bad("10.0.0.0/8 -DELETE", 12, "-DELETE is for ipv6host");
	net4_bad("192.0.2.20 -DELETE\n", 12, "with -CIPSO");
	net4_bad("10.0.0.0/8 -FOO", 12, "only option for an IPv4 host");
	net4_bad("10.0.0.0/8 -cipso", 12, "only option");
	net4_bad("10.0.0.0/8 -CIPSOx", 12, "only option");
	net4_bad("10.0.0.0/33 NetC", 10, "prefix length above 32");
	net4_bad("10.0.0.0/4294967304 A", 10, "prefix length above 32");
	net4_bad("10.0.0.0/-1 A", 10, "prefix length expected");
	net4_bad("10.0.0.0/+8 A", 10, "prefix length expected");
	net4_bad("10.0.0.0/ A", 11, "prefix length expected");
	net4_bad("300.1.1.1 X", 1, "address octet above 255");
	net4_bad("1.2.3.256 X", 7, "address octet above 255");
	net4_bad("-1.2.3.4 X", 1, "address octet expected");
	net4_bad("10.0.0 NetC", 7, "'.' expected");
	net4_bad("10 .0.0.0 A", 3, "'.' expected");
	net4_bad("10.0.0.2 ", 10, "a label or -CIPSO expected");
	net4_bad("10.0.0.2/8\n", 12, "a label or -CIPSO expected");
	net4_bad("10.0.0.2", 1, "9 to 4095 bytes, not 8");
	net4_bad("1.2.3.4A", 1, "not 8");
	net4_bad("10.0.0.1 A B", 12, "only white space may follow");
	net4_bad("10.0.0.1 A\n10.0.0.2 B", 12, "only white space may follow");
	net4_bad("10.0.0.1 A/b", 11, "character /");
	net4_bad("10.0.0.1 /A", 10, "character /");
	net4_bad("garbage in, garbage out", 1, "address octet expected");
	net4_bad("a.b.c.d LABEL", 1, "address octet expected");
	net4_bad("::1/128 LABEL", 1, "address octet expected");
	net4_bad_len("10.0.0.1 A\0B", 12, 11, "\\x00");
	memset(line, ' ', sizeof(line));
	memcpy(line, "10.0.0.1 A", 10);
	ok(sf_parse_net4addr(NULL, line, SF_NET4ADDR_MAX, &h, &err) == 0 &&
	   h.label == SF_LID_INVALID && h.addr == 0x0a000001,
	   "netlabel: a %u-byte line is taken; NULL labels check only",
	   SF_NET4ADDR_MAX);
	net4_bad_len(line, SF_NET4ADDR_MAX + 1, 1, "not 4096");
	memset(line + 9, 'L', SF_LABEL_MAX + 1);
	net4_bad_len(line, 9 + SF_LABEL_MAX + 1, 9 + SF_LABEL_MAX + 1,
		     "limit is 255");
	net4_good("10.0.0.1 LLL", 0x0a000001, 32, "LLL");
}

/* ---- a write of one label (ambient): sf_label_import() ---- */

static void import_one(const char *text, size_t len, const char *want,
		       const char *needle)
{
	struct sf_labels *labels = sf_labels_new();
	struct sf_error err = { .file = "ambient" };
	u32 nlabels = sf_labels_count(labels);
	sf_lid lid = SF_LID_INVALID;
	const char *name;
	char msg[256] = "";
	int rc;

	rc = sf_label_import(labels, text, len, &lid, &err);
	if (rc)
		sf_error_format(&err, msg, sizeof(msg));
	name = rc ? NULL : sf_label_name(labels, lid);
	if (want)
		ok(rc == 0 && name && !strcmp(name, want),
		   "ambient: \"%s\" is %.20s %s", shown(text, len), want,
		   msg);
	else
		ok(rc == -EINVAL && strstr(msg, needle) &&
		   sf_labels_count(labels) == nlabels,
		   "ambient: \"%s\" is refused: \"%s\" (want %s)",
		   shown(text, len), msg, needle);
	sf_labels_free(labels);
}

#define IMPORT(text, want, needle) \
	import_one(text, sizeof(text) - 1, want, needle)

static void label_writes(void)
{
	char big[SF_LABEL_MAX + 1], want[SF_LABEL_MAX + 1];

	IMPORT("Amb", "Amb", "");
	IMPORT("Amb\n", "Amb", "");
	IMPORT("Amb2/x", "Amb2", "");
	IMPORT("Foo Bar\r\n", "Foo", "");
	IMPORT("_", "_", "");
	IMPORT("", NULL, "empty label");
	IMPORT("\n", NULL, "byte \\x0a");
	IMPORT(" Foo", NULL, "byte space");
	IMPORT("/x", NULL, "character /");
	IMPORT("-x", NULL, "start with '-'");
	memset(big, 'L', sizeof(big));
	memset(want, 'L', SF_LABEL_MAX);
	want[SF_LABEL_MAX] = '\0';
	import_one(big, SF_LABEL_MAX, want, "");
	import_one(big, SF_LABEL_MAX + 1, NULL, "limit is 255");
}

int main(void)
{
	malformed();
	huge_input();
	valid_forms();
	round_trips();
	queries();
	records();
	audit();
	attr_labels();
	netlabel_lines();
	label_writes();
	return tap_done();
}
