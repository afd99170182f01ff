// SPDX-License-Identifier: GPL-2.0-only
/*
 * parse.c - the smackfs text formats and smack-utils rule files.
 *
 * Every parser reads the whole input twice: a first pass validates it
 * without side effects, the second interns labels and appends ops to the
 * batch.  So a bad line anywhere leaves the batch and the label table as
 * they were (all or nothing), and the error names line, column and reason.
 *
 * Where mainline is lax we are strict, and the comments say where:
 * mainline cuts a label at its first bad byte, stops an access string at
 * its first unknown letter, ignores tokens past the last one it wants and
 * treats newlines as just more white space.  Here each of those is an
 * error.  Fields are separated by spaces and tabs; lines end in "\n" or
 * "\r\n"; the last line needs no newline; blank lines are skipped.
 */
#include "core.h"

#define SF_MAXF		6	/* fields split per line; more is an error */

struct sf_line {
	const char *s;
	size_t len;
	unsigned int lineno;
	int nf;
	const char *f[SF_MAXF];
	size_t flen[SF_MAXF];
	unsigned int fcol[SF_MAXF];
};

struct sf_ctx {
	struct sf_labels *labels;
	struct sf_batch *b;
	struct sf_error *err;
	bool commit;		/* second pass: intern and append */
	unsigned int nlines;	/* non-blank lines seen */
};

typedef int (*sf_line_fn)(struct sf_ctx *c, struct sf_line *ln);

static bool sf_is_sep(char c)
{
	return c == ' ' || c == '\t';
}

/* Next line of @buf from *@pos, without its "\n" or "\r\n". */
static bool sf_next_line(const char *buf, size_t len, size_t *pos,
			 struct sf_line *ln)
{
	size_t start = *pos, e = start;

	if (start >= len)
		return false;
	while (e < len && buf[e] != '\n')
		e++;
	ln->s = buf + start;
	ln->len = e - start;
	ln->lineno++;
	*pos = e < len ? e + 1 : len;
	if (ln->len && ln->s[ln->len - 1] == '\r')
		ln->len--;
	return true;
}

/* Split on spaces and tabs; up to SF_MAXF fields are recorded. */
static void sf_split(struct sf_line *ln)
{
	size_t i = 0;

	ln->nf = 0;
	while (ln->nf < SF_MAXF) {
		while (i < ln->len && sf_is_sep(ln->s[i]))
			i++;
		if (i == ln->len)
			break;
		ln->f[ln->nf] = ln->s + i;
		ln->fcol[ln->nf] = (unsigned int)i + 1;
		while (i < ln->len && !sf_is_sep(ln->s[i]))
			i++;
		ln->flen[ln->nf] = ln->s + i - ln->f[ln->nf];
		ln->nf++;
	}
}

static unsigned int sf_eol_col(const struct sf_line *ln)
{
	return (unsigned int)ln->len + 1;
}

/* Shift a position from sf_label_valid/sf_access_parse into the line. */
static void sf_err_at(struct sf_error *err, const struct sf_line *ln,
		      unsigned int fcol)
{
	if (!err)
		return;
	err->column = err->column ? fcol + err->column - 1 : fcol;
	err->line = ln->lineno;
}

/*
 * Field @k is a label: validate it; in the commit pass also intern it.
 * @maxlen is SF_LABEL_MAX, or SF_LABELLEN - 1 for the fixed "load" format.
 */
static int sf_field_label(struct sf_ctx *c, const struct sf_line *ln,
			  const char *s, size_t len, unsigned int col,
			  size_t maxlen, const char *what, sf_lid *lid)
{
	int rc;

	if (len > maxlen && maxlen < SF_LABEL_MAX) {
		sf_err(c->err, ln->lineno, col + (unsigned int)maxlen,
		       "%s label is %z bytes long; this format takes at most %z (use load2)",
		       what, len, maxlen);
		return -EINVAL;
	}
	rc = sf_label_valid(s, len, c->err);
	if (rc) {
		sf_err_at(c->err, ln, col);
		return rc;
	}
	*lid = SF_LID_INVALID;
	if (!c->commit)
		return 0;
	rc = sf_label_intern(c->labels, s, len, lid, c->err);
	if (rc)
		sf_err(c->err, ln->lineno, col, "out of memory");
	return rc;
}

/* Label for a query: validated, looked up, never interned. */
static int sf_field_known(struct sf_ctx *c, const struct sf_line *ln,
			  const char *s, size_t len, unsigned int col,
			  size_t maxlen, const char *what, sf_lid *lid)
{
	int rc;
	bool commit = c->commit;

	c->commit = false;
	rc = sf_field_label(c, ln, s, len, col, maxlen, what, lid);
	c->commit = commit;
	if (!rc)
		*lid = sf_label_find(c->labels, s, len);
	return rc;
}

static int sf_field_access(struct sf_ctx *c, const struct sf_line *ln,
			   const char *s, size_t len, unsigned int col,
			   u32 *bits)
{
	int rc = sf_access_parse(s, len, bits, c->err);

	if (rc)
		sf_err_at(c->err, ln, col);
	return rc;
}

/*
 * A query's three fields, split in @ln: subject and object (labels up to
 * @maxlen bytes, looked up, never interned) and the access asked.
 */
static int sf_query_fields(struct sf_ctx *c, const struct sf_line *ln,
			   size_t maxlen, struct sf_query *q)
{
	int rc;

	rc = sf_field_known(c, ln, ln->f[0], ln->flen[0], ln->fcol[0],
			    maxlen, "subject", &q->subject);
	if (!rc)
		rc = sf_field_known(c, ln, ln->f[1], ln->flen[1], ln->fcol[1],
				    maxlen, "object", &q->object);
	if (!rc)
		rc = sf_field_access(c, ln, ln->f[2], ln->flen[2], ln->fcol[2],
				     &q->request);
	return rc;
}

static int sf_add(struct sf_ctx *c, const struct sf_line *ln,
		  const struct sf_op *op)
{
	int rc;

	if (!c->commit)
		return 0;
	rc = sf_batch_add(c->b, op);
	if (rc)
		sf_err(c->err, ln->lineno, 0, "out of memory");
	return rc;
}

static const char *const sf_rule_fields[] = {
	"subject label", "object label", "access string", "deny string"
};

/* Exactly @want fields, or a reason naming the missing/extra one. */
static int sf_want_fields(struct sf_ctx *c, const struct sf_line *ln,
			  int want, const char *format)
{
	if (ln->nf < want) {
		sf_err(c->err, ln->lineno, sf_eol_col(ln),
		       "missing %s (expected \"%s\")",
		       sf_rule_fields[ln->nf], format);
		return -EINVAL;
	}
	if (ln->nf > want) {
		sf_err(c->err, ln->lineno, ln->fcol[want],
		       "unexpected extra field (expected \"%s\")", format);
		return -EINVAL;
	}
	return 0;
}

/* "subject object access" or, with @deny, "... allow deny" as @kind. */
static int sf_rule_fields_op(struct sf_ctx *c, const struct sf_line *ln,
			     size_t maxlen, bool deny, enum sf_op_kind kind)
{
	struct sf_op op = { .kind = kind };
	int rc;

	rc = sf_field_label(c, ln, ln->f[0], ln->flen[0], ln->fcol[0], maxlen,
			    "subject", &op.subject);
	if (!rc)
		rc = sf_field_label(c, ln, ln->f[1], ln->flen[1], ln->fcol[1],
				    maxlen, "object", &op.object);
	if (!rc)
		rc = sf_field_access(c, ln, ln->f[2], ln->flen[2], ln->fcol[2],
				     &op.allow);
	if (!rc && deny)
		rc = sf_field_access(c, ln, ln->f[3], ln->flen[3], ln->fcol[3],
				     &op.deny);
	if (!rc)
		rc = sf_add(c, ln, &op);
	return rc;
}

/*
 * Run @fn over every non-blank line, twice (validate, then commit).
 * @comments: skip lines whose first non-blank byte is '#'.
 */
static int sf_parse_lines(struct sf_labels *labels, const char *buf,
			  size_t len, struct sf_batch *b, struct sf_error *err,
			  sf_line_fn fn, bool comments)
{
	struct sf_ctx c = { .labels = labels, .b = b, .err = err };
	u32 nops = b ? b->nops : 0;
	struct sf_line ln;
	size_t pos;
	int pass, rc;

	if (len > SF_INPUT_MAX) {
		sf_err(err, 0, 0, "input is %z bytes, the limit is %z", len,
		       (size_t)SF_INPUT_MAX);
		return -EINVAL;
	}
	for (pass = 0; pass < 2; pass++) {
		c.commit = pass == 1;
		c.nlines = 0;
		pos = 0;
		ln.lineno = 0;
		while (sf_next_line(buf, len, &pos, &ln)) {
			sf_split(&ln);
			if (!ln.nf)
				continue;
			if (comments && ln.f[0][0] == '#')
				continue;
			c.nlines++;
			rc = fn(&c, &ln);
			if (rc)
				goto out_undo;
		}
	}
	return 0;

out_undo:
	if (b)
		sf_batch_truncate(b, nops);
	return rc;
}

/* ---- load2 and change-rule ---- */

static int sf_load2_line(struct sf_ctx *c, struct sf_line *ln)
{
	int rc = sf_want_fields(c, ln, 3, "subject object access");

	return rc ? rc : sf_rule_fields_op(c, ln, SF_LABEL_MAX, false,
					   SF_OP_SET);
}

/**
 * sf_parse_load2 - smackfs "load2": "subject object access" per line.
 * A rule replaces any earlier rule of the same pair (SF_OP_SET).
 */
int sf_parse_load2(struct sf_labels *labels, const char *buf, size_t len,
		   struct sf_batch *b, struct sf_error *err)
{
	return sf_parse_lines(labels, buf, len, b, err, sf_load2_line, false);
}

static int sf_change_line(struct sf_ctx *c, struct sf_line *ln)
{
	int rc = sf_want_fields(c, ln, 4, "subject object allow deny");

	return rc ? rc : sf_rule_fields_op(c, ln, SF_LABEL_MAX, true,
					   SF_OP_CHANGE);
}

/**
 * sf_parse_change_rule - smackfs "change-rule":
 * "subject object allow deny" per line (SF_OP_CHANGE: the rule's access
 * gains @allow then loses @deny; a missing rule is created).
 */
int sf_parse_change_rule(struct sf_labels *labels, const char *buf,
			 size_t len, struct sf_batch *b, struct sf_error *err)
{
	return sf_parse_lines(labels, buf, len, b, err, sf_change_line, false);
}

/* ---- rule files ---- */

static int sf_rule_file_line(struct sf_ctx *c, struct sf_line *ln)
{
	int k;

	for (k = 2; k < ln->nf; k++)
		if (ln->f[k][0] == '#') {
			sf_err(c->err, ln->lineno, ln->fcol[k],
			       "a comment must be on its own line");
			return -EINVAL;
		}
	if (ln->nf == 4)
		return sf_rule_fields_op(c, ln, SF_LABEL_MAX, true,
					 SF_OP_CHANGE);
	if (ln->nf > 4) {
		sf_err(c->err, ln->lineno, ln->fcol[4],
		       "unexpected extra field (expected \"subject object access [deny]\")");
		return -EINVAL;
	}
	return sf_load2_line(c, ln);
}

/**
 * sf_parse_rule_file - a smack-utils style rule file.
 *
 * "subject object access" (a SET) or "subject object allow deny" (a
 * CHANGE) per line; a line whose first non-blank byte is '#' is a comment
 * (only whole lines: '#' is a legal label byte, so "a b r # x" is an
 * error, not a rule with a comment).
 */
int sf_parse_rule_file(struct sf_labels *labels, const char *buf, size_t len,
		       struct sf_batch *b, struct sf_error *err)
{
	return sf_parse_lines(labels, buf, len, b, err, sf_rule_file_line,
			      true);
}

/* ---- load (fixed width, and the 2007 / read-back form) ---- */

static bool sf_is_pad(char c)
{
	return c == ' ' || c == '\0';
}

/*
 * A fixed-width record: a label field of SF_LABELLEN bytes (label, then
 * spaces or NULs), another for the object, then the access field (4 to 6
 * bytes, mainline SMK_OLOADLEN..SMK_LOADLEN), optionally space padded.
 */
static bool sf_is_fixed(const struct sf_line *ln)
{
	return ln->len >= SF_OLOADLEN && ln->len <= SF_LOADLEN &&
	       !sf_is_pad(ln->s[0]) && sf_is_pad(ln->s[SF_LABELLEN - 1]) &&
	       !sf_is_pad(ln->s[SF_LABELLEN]) &&
	       sf_is_pad(ln->s[2 * SF_LABELLEN - 1]) &&
	       !sf_is_pad(ln->s[2 * SF_LABELLEN]);
}

/* Length of the text in a padded field; -1 if text follows padding. */
static long sf_padded_len(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n && !sf_is_pad(s[i]))
		i++;
	for (k = i; k < n; k++)
		if (!sf_is_pad(s[k]))
			return -1 - (long)k;
	return (long)i;
}

/* Turn a fixed-width record into three fields. */
static int sf_fixed_fields(struct sf_ctx *c, struct sf_line *ln)
{
	static const size_t off[3] = { 0, SF_LABELLEN, 2 * SF_LABELLEN };
	int k;

	for (k = 0; k < 3; k++) {
		size_t n = k < 2 ? SF_LABELLEN : ln->len - off[k];
		long l = sf_padded_len(ln->s + off[k], n);

		if (l < 0) {
			sf_err(c->err, ln->lineno,
			       (unsigned int)(-1 - l) + 1,
			       "text after the padding of the %s field of a fixed-width load record",
			       sf_rule_fields[k]);
			return -EINVAL;
		}
		ln->f[k] = ln->s + off[k];
		ln->flen[k] = (size_t)l;
		ln->fcol[k] = (unsigned int)off[k] + 1;
	}
	ln->nf = 3;
	return 0;
}

static int sf_load_fields(struct sf_ctx *c, struct sf_line *ln)
{
	if (sf_is_fixed(ln))
		return sf_fixed_fields(c, ln);
	return sf_want_fields(c, ln, 3, "subject object access");
}

static int sf_load_line(struct sf_ctx *c, struct sf_line *ln)
{
	int rc = sf_load_fields(c, ln);

	return rc ? rc : sf_rule_fields_op(c, ln, SF_LABELLEN - 1, false,
					   SF_OP_SET);
}

/**
 * sf_parse_load - smackfs "load".
 *
 * Each line is a fixed-width record (what mainline's "load" takes, one per
 * write: SF_OLOADLEN to SF_LOADLEN bytes, labels padded to SF_LABELLEN with
 * spaces or NULs) or the whitespace-separated form that reading "load"
 * prints and the 2007 posting parsed with "%7s %7s %7s".  Labels are at
 * most SF_LABELLEN - 1 bytes in both (mainline would take a 24-byte label
 * that fills its field, but never shows it again; we refuse it).
 */
int sf_parse_load(struct sf_labels *labels, const char *buf, size_t len,
		  struct sf_batch *b, struct sf_error *err)
{
	return sf_parse_lines(labels, buf, len, b, err, sf_load_line, false);
}

/* ---- load, load-self, access: one fixed-width record per write ---- */

static bool sf_is_record_pad(char c)
{
	return sf_is_pad(c) || c == '\n';
}

/*
 * Split one record of @len bytes: subject and object in SF_LABELLEN-byte
 * fields, the access letters in the rest.  A label may fill its field
 * (mainline takes it, and shows it in load2 only).  Within the fields we
 * stay strict: padding is spaces or NULs, and the access letters may be
 * followed by spaces, NULs or newlines only.
 */
static int sf_record_fields(struct sf_ctx *c, const char *buf, size_t len,
			    struct sf_line *ln)
{
	ln->s = buf;
	ln->len = len;
	ln->lineno = 1;
	while (ln->len > 2 * SF_LABELLEN &&
	       sf_is_record_pad(ln->s[ln->len - 1]))
		ln->len--;
	return sf_fixed_fields(c, ln);
}

/*
 * One record as a rule (@q NULL) or as a query.  @min and @max bound the
 * write's length, as smackfs bounds the count of a write, not its lines.
 */
static int sf_record_parse(struct sf_labels *labels, const char *buf,
			   size_t len, size_t min, size_t max,
			   struct sf_batch *b, struct sf_query *q,
			   struct sf_error *err)
{
	struct sf_ctx c = { .labels = labels, .b = b, .err = err };
	struct sf_line ln;
	int pass, rc = 0;

	if (len < min || len > max) {
		sf_err(err, 1, 1,
		       "a fixed-width record is %z to %z bytes, not %z",
		       min, max, len);
		return -EINVAL;
	}
	for (pass = 0; pass < 2 && !rc; pass++) {
		c.commit = pass == 1 && !q;
		rc = sf_record_fields(&c, buf, len, &ln);
		if (!rc && !q)
			rc = sf_rule_fields_op(&c, &ln, SF_LABELLEN, false,
					       SF_OP_SET);
	}
	if (rc || !q)
		return rc;
	return sf_query_fields(&c, &ln, SF_LABELLEN, q);
}

/**
 * sf_parse_load_record - one smackfs "load" (or "load-self") write: a
 * single fixed-width record of SF_OLOADLEN to SF_LOADLEN bytes, nothing
 * shorter or longer (mainline smk_write_rules_list's SMK_FIXED24_FMT).
 */
int sf_parse_load_record(struct sf_labels *labels, const char *buf,
			 size_t len, struct sf_batch *b, struct sf_error *err)
{
	return sf_record_parse(labels, buf, len, SF_OLOADLEN, SF_LOADLEN, b,
			       NULL, err);
}

/**
 * sf_parse_access_record - one smackfs "access" query: a fixed-width
 * record of at least SF_LOADLEN bytes (mainline smk_user_access; the
 * access field runs to the end of the write).  The write counts as
 * SF_LOADLEN bytes.
 */
int sf_parse_access_record(struct sf_labels *labels, const char *buf,
			   size_t len, struct sf_query *q,
			   struct sf_error *err)
{
	return sf_record_parse(labels, buf, len, SF_LOADLEN, SF_INPUT_MAX,
			       NULL, q, err);
}

/* ---- revoke-subject ---- */

static int sf_revoke_line(struct sf_ctx *c, struct sf_line *ln)
{
	struct sf_op op = { .kind = SF_OP_REVOKE_SUBJECT };
	int rc;

	if (c->nlines > 1) {
		sf_err(c->err, ln->lineno, 1,
		       "revoke-subject takes one label");
		return -EINVAL;
	}
	if (ln->nf > 1) {
		sf_err(c->err, ln->lineno, ln->fcol[1],
		       "revoke-subject takes one label");
		return -EINVAL;
	}
	rc = sf_field_known(c, ln, ln->f[0], ln->flen[0], ln->fcol[0],
			    SF_LABEL_MAX, "subject", &op.subject);
	if (rc || op.subject == SF_LID_INVALID)
		return rc;	/* an unknown label has no rules to revoke */
	return sf_add(c, ln, &op);
}

/**
 * sf_parse_revoke_subject - smackfs "revoke-subject": one label (and an
 * optional newline).  Every rule of that subject gets access 0.  A label
 * never seen before is valid input that changes nothing, as in mainline.
 */
int sf_parse_revoke_subject(struct sf_labels *labels, const char *buf,
			    size_t len, struct sf_batch *b,
			    struct sf_error *err)
{
	int rc;

	/* Empty input: mainline answers -EINVAL (count == 0). */
	rc = sf_parse_lines(labels, buf, len, b, err, sf_revoke_line, false);
	if (!rc) {
		struct sf_line ln = { .lineno = 0 };
		size_t pos = 0;
		bool any = false;

		while (sf_next_line(buf, len, &pos, &ln)) {
			sf_split(&ln);
			if (ln.nf)
				any = true;
		}
		if (!any) {
			sf_err(err, 1, 1, "revoke-subject needs a label");
			rc = -EINVAL;
		}
	}
	return rc;
}

/* ---- onlycap ---- */

static int sf_onlycap_parse(struct sf_labels *labels, const char *buf,
			    size_t len, struct sf_batch *b,
			    struct sf_error *err, bool commit)
{
	struct sf_op op = { .kind = SF_OP_ONLYCAP };
	struct sf_ctx c = { .labels = labels, .b = b, .err = err,
			    .commit = commit };
	struct sf_line ln = { .lineno = 0 };
	size_t pos = 0, i, n = 0;
	int rc = 0;

	if (len > SF_INPUT_MAX) {
		sf_err(err, 0, 0, "input is %z bytes, the limit is %z", len,
		       (size_t)SF_INPUT_MAX);
		return -EINVAL;
	}
	if (sf_next_line(buf, len, &pos, &ln) && pos < len) {
		sf_err(err, 2, 1, "onlycap is a single line of labels");
		return -EINVAL;
	}
	if (ln.lineno == 0)
		ln.len = 0;	/* empty input */
	/* Count the labels first: SF_MAXF would cut the list short. */
	for (i = 0; i < ln.len;) {
		while (i < ln.len && sf_is_sep(ln.s[i]))
			i++;
		if (i == ln.len)
			break;
		n++;
		while (i < ln.len && !sf_is_sep(ln.s[i]))
			i++;
	}
	ln.lineno = 1;
	/* "-" (mainline: any first label starting with '-') clears. */
	if (n == 1) {
		for (i = 0; sf_is_sep(ln.s[i]); i++)
			;
		if (ln.s[i] == '-')
			n = 0;
	}
	if (n && commit) {
		op.labels = sf_malloc(sizeof(sf_lid) * n);
		if (!op.labels)
			return -ENOMEM;
	}
	op.nlabels = 0;
	for (i = 0; n && i < ln.len;) {
		size_t start, plen;
		sf_lid lid;

		while (i < ln.len && sf_is_sep(ln.s[i]))
			i++;
		if (i == ln.len)
			break;
		start = i;
		while (i < ln.len && !sf_is_sep(ln.s[i]))
			i++;
		/* the word's label, as smk_import_entry() cuts "B/c" to B */
		plen = sf_label_prefix(ln.s + start, i - start);
		rc = sf_field_label(&c, &ln, ln.s + start,
				    plen ? plen : i - start,
				    (unsigned int)start + 1, SF_LABEL_MAX,
				    "onlycap", &lid);
		if (rc)
			goto out;
		if (commit)
			op.labels[op.nlabels++] = lid;
	}
	if (commit)
		rc = sf_add(&c, &ln, &op);
out:
	sf_free(op.labels);
	return rc;
}

/**
 * sf_parse_onlycap - smackfs "onlycap": labels separated by spaces or
 * tabs on one line (a final newline is fine).  Empty input, or a single
 * word starting with '-' (mainline's "-usecapabilities"), clears onlycap.
 * Each word gives the label it starts with, as mainline's
 * smk_import_entry() reads it: "B/c" is B (refusing the word would leave
 * onlycap as it was, weaker than the writer asked).  Mainline splits on
 * spaces only and keeps a label's prefix up to a newline or tab; here
 * tabs separate and a second line is an error.
 */
int sf_parse_onlycap(struct sf_labels *labels, const char *buf, size_t len,
		     struct sf_batch *b, struct sf_error *err)
{
	int rc = sf_onlycap_parse(labels, buf, len, b, err, false);

	return rc ? rc : sf_onlycap_parse(labels, buf, len, b, err, true);
}

/* ---- access / access2 queries ---- */

static int sf_query_parse(struct sf_labels *labels, const char *buf,
			  size_t len, struct sf_query *q, struct sf_error *err,
			  bool load_format)
{
	struct sf_ctx c = { .labels = labels, .err = err };
	struct sf_line ln = { .lineno = 0 };
	size_t pos = 0, maxlen = load_format ? SF_LABELLEN - 1 : SF_LABEL_MAX;
	int rc;

	if (len > SF_INPUT_MAX) {
		sf_err(err, 0, 0, "input is %z bytes, the limit is %z", len,
		       (size_t)SF_INPUT_MAX);
		return -EINVAL;
	}
	if (!sf_next_line(buf, len, &pos, &ln)) {
		sf_err(err, 1, 1, "empty query (expected \"subject object access\")");
		return -EINVAL;
	}
	if (pos < len) {
		sf_err(err, 2, 1, "a query is a single line");
		return -EINVAL;
	}
	if (load_format && sf_is_fixed(&ln))
		rc = sf_fixed_fields(&c, &ln);
	else {
		sf_split(&ln);
		rc = sf_want_fields(&c, &ln, 3, "subject object access");
	}
	if (!rc)
		rc = sf_query_fields(&c, &ln, maxlen, q);
	return rc;
}

/**
 * sf_parse_access2 - a smackfs "access2" query, "subject object access".
 * Labels are looked up, not interned: an unknown label gives
 * SF_LID_INVALID, which sf_access() denies (mainline answers "0").
 * Mainline ignores anything after the third token; we refuse it.
 */
int sf_parse_access2(struct sf_labels *labels, const char *buf, size_t len,
		     struct sf_query *q, struct sf_error *err)
{
	return sf_query_parse(labels, buf, len, q, err, false);
}

/**
 * sf_parse_access - a smackfs "access" query: one fixed-width load record
 * (or the whitespace form with labels of at most 23 bytes).  Note mainline
 * insists on at least SMK_LOADLEN (54) bytes for this file.
 */
int sf_parse_access(struct sf_labels *labels, const char *buf, size_t len,
		    struct sf_query *q, struct sf_error *err)
{
	return sf_query_parse(labels, buf, len, q, err, true);
}
