// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe.c - smacknl encode, probe and decode.
 *
 *   encode [doi N] [direct N] [mapped N] [cipso2 RULE]... LABEL...
 *	print each label as cipso2 shows it ("label lvl/c,c"), and with -s
 *	also the IPv4 option bytes in hex;
 *   probe [same options] LABEL
 *	send one UDP packet over loopback carrying the label's CIPSO option
 *	(setsockopt IP_OPTIONS), read the option the kernel delivered
 *	(IP_RECVOPTS) and decode it back; exit 0 only if it is the label.
 *	The kernel validates the option against its DOIs, so this proves
 *	the kernel accepts the encoding.
 *
 *   decode [same options] HEX [LABEL...]
 *	the label IPv4 options in hex carry (e.g. the bytes a labelled
 *	sender of the kernel's Smack put on the wire), with LABEL... known
 *	here; "*" when no known label matches, as Smack decodes.
 *
 * All use the shared core (cipso.c) exactly as the daemon does.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include "cipso.h"

/* The room IPv4 has for options (MAX_IPOPTLEN, include/net/inet_sock.h). */
#define SF_IPOPT_MAX		40
/* How long the probe waits for its packet to come back over loopback. */
#define SF_PROBE_TIMEOUT_MS	3000
static const char sf_probe_payload[] = "smacknl probe";
#include "probe.h"

struct ctx {
	struct sf_labels *labels;
	struct sf_cipso_map map;
	char **names;
	int nnames;
};

static int bad(const char *why, const char *arg)
{
	fprintf(stderr, "smacknl: %s%s%s\n", why, arg ? ": " : "",
		arg ? arg : "");
	return 2;
}

static bool level_arg(const char *s, u8 *out)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > SF_CIPSO_MAXLEVEL)
		return false;
	*out = v;
	return true;
}

/* Options, then labels.  Returns 0 or an exit status. */
static int ctx_init(struct ctx *c, int argc, char **argv)
{
	struct sf_error err = { .file = "cipso2" };
	struct sf_cipso_rule rule;
	char msg[256], *end;
	int i;

	memset(c, 0, sizeof(*c));
	sf_cipso_map_init(&c->map);
	c->labels = sf_labels_new();
	if (!c->labels)
		return bad("out of memory", NULL);
	for (i = 0; i + 1 < argc; i += 2) {
		const char *k = argv[i], *v = argv[i + 1];

		if (!strcmp(k, "doi")) {
			c->map.doi = strtoul(v, &end, 10);
			if (!*v || *end || !c->map.doi)
				return bad("bad DOI", v);
		} else if (!strcmp(k, "direct")) {
			if (!level_arg(v, &c->map.direct))
				return bad("bad direct level", v);
		} else if (!strcmp(k, "mapped")) {
			if (!level_arg(v, &c->map.mapped))
				return bad("bad mapped level", v);
		} else if (!strcmp(k, "cipso2")) {
			if (sf_parse_cipso2(c->labels, v, strlen(v), &rule,
					    &err)) {
				sf_error_format(&err, msg, sizeof(msg));
				fprintf(stderr, "smacknl: %s\n", msg);
				return 1;
			}
			if (sf_cipso_map_set(&c->map, &rule))
				return bad("out of memory", NULL);
		} else {
			break;
		}
	}
	c->names = argv + i;
	c->nnames = argc - i;
	if (c->nnames < 1)
		return bad("a label is expected", NULL);
	return 0;
}

static void ctx_release(struct ctx *c)
{
	sf_cipso_map_release(&c->map);
	if (c->labels)
		sf_labels_free(c->labels);
}

/* Intern and encode @name; prints the reason and returns 1 if invalid. */
static int encode(struct ctx *c, const char *name, struct sf_cipso_attr *a)
{
	struct sf_error err = { .file = "label" };
	char msg[256];
	sf_lid lid;

	if (sf_label_intern(c->labels, name, strlen(name), &lid, &err)) {
		sf_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "smacknl: %s\n", msg);
		return 1;
	}
	sf_cipso_encode(&c->map, lid, name, strlen(name), a);
	return 0;
}

static void print_attr(const char *name, const struct sf_cipso_attr *a)
{
	unsigned int cat;
	char sep = '/';

	printf("%s %3d", name, a->level);
	for (cat = sf_cipso_cat_next(a, 1); cat;
	     cat = sf_cipso_cat_next(a, cat + 1)) {
		printf("%c%u", sep, cat);
		sep = ',';
	}
}

int cmd_encode(int argc, char **argv, bool script)
{
	struct sf_cipso_attr a;
	struct ctx c;
	u8 opt[SF_CIPSO_OPT_MAX];
	int i, k, len, rc;

	rc = ctx_init(&c, argc, argv);
	for (i = 0; !rc && i < c.nnames; i++) {
		rc = encode(&c, c.names[i], &a);
		if (rc)
			break;
		print_attr(c.names[i], &a);
		if (script) {
			len = sf_cipso_option_build(c.map.doi, &a, opt,
						    sizeof(opt));
			fputs(" ", stdout);
			for (k = 0; k < len; k++)
				printf("%02x", opt[k]);
		}
		putchar('\n');
	}
	ctx_release(&c);
	return rc;
}

/* Loopback UDP with the option; fills @got with the received options. */
static int roundtrip(const u8 *opt, int olen, u8 *got, size_t *glen)
{
	struct sockaddr_in to = { .sin_family = AF_INET };
	socklen_t tolen = sizeof(to);
	char cbuf[CMSG_SPACE(64)], data[32];
	struct iovec iov = { data, sizeof(data) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct pollfd pfd;
	struct cmsghdr *cm;
	int rx, tx, one = 1, rc = 1;

	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&to, tolen) ||
	    getsockname(rx, (struct sockaddr *)&to, &tolen) ||
	    setsockopt(rx, IPPROTO_IP, IP_RECVOPTS, &one, sizeof(one))) {
		perror("smacknl: probe socket");
		goto out;
	}
	if (setsockopt(tx, IPPROTO_IP, IP_OPTIONS, opt, olen)) {
		fprintf(stderr, "smacknl: the kernel refused the CIPSO option "
			"(setsockopt IP_OPTIONS: %s)%s\n", strerror(errno),
			errno == EINVAL ? ": is the DOI configured "
			"(smacknl doi list)?" : errno == EPERM ?
			": needs CAP_NET_RAW" : "");
		goto out;
	}
	if (sendto(tx, sf_probe_payload, sizeof(sf_probe_payload) - 1, 0,
		   (struct sockaddr *)&to, tolen) !=
	    (ssize_t)sizeof(sf_probe_payload) - 1) {
		perror("smacknl: probe sendto");
		goto out;
	}
	pfd.fd = rx;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, SF_PROBE_TIMEOUT_MS) != 1 ||
	    recvmsg(rx, &mh, 0) < 0) {
		fprintf(stderr, "smacknl: probe: no packet came back\n");
		goto out;
	}
	*glen = 0;
	for (cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
		if (cm->cmsg_level == IPPROTO_IP &&
		    cm->cmsg_type == IP_RECVOPTS &&
		    cm->cmsg_len - CMSG_LEN(0) <= SF_IPOPT_MAX) {
			*glen = cm->cmsg_len - CMSG_LEN(0);
			memcpy(got, CMSG_DATA(cm), *glen);
		}
	rc = 0;
out:
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
	return rc;
}

int cmd_probe(int argc, char **argv, bool script)
{
	struct sf_cipso_attr a, b;
	char back[SF_LABEL_MAX + 1];
	u8 opt[SF_CIPSO_OPT_MAX], got[SF_IPOPT_MAX];
	size_t glen = 0;
	struct ctx c;
	u32 doi;
	int olen, rc;

	rc = ctx_init(&c, argc, argv);
	if (!rc && c.nnames != 1)
		rc = bad("probe takes one label", NULL);
	if (!rc)
		rc = encode(&c, c.names[0], &a);
	if (rc)
		goto out;
	olen = sf_cipso_option_build(c.map.doi, &a, opt, sizeof(opt));
	rc = roundtrip(opt, olen, got, &glen);
	if (rc)
		goto out;
	rc = sf_cipso_option_parse(got, glen, &doi, &b);
	if (rc) {
		fprintf(stderr, "smacknl: probe: %s\n", rc == -ENOENT ?
			"the packet arrived without a CIPSO option" :
			"the received CIPSO option is malformed");
		rc = 1;
		goto out;
	}
	sf_cipso_decode(&c.map, c.labels, &b, back);
	if (script) {
		printf("%s\n", back);
	} else {
		printf("sent     ");
		print_attr(c.names[0], &a);
		printf(" (DOI %u)\nreceived ", c.map.doi);
		print_attr(back, &b);
		printf(" (DOI %u)\n", doi);
	}
	rc = strcmp(back, c.names[0]) || doi != c.map.doi;
	if (rc)
		fprintf(stderr, "smacknl: probe: sent \"%s\", received "
			"\"%s\"\n", c.names[0], back);
out:
	ctx_release(&c);
	return rc;
}

/* "860b..." into @out; the byte count, or -1 if not even hex digits. */
static int unhex(const char *s, u8 *out, size_t size)
{
	size_t n = strlen(s), i;
	unsigned int v;

	if (n == 0 || n % 2 || n / 2 > size)
		return -1;
	for (i = 0; i < n; i += 2) {
		if (sscanf(s + i, "%2x", &v) != 1 ||
		    !strchr("0123456789abcdefABCDEF", s[i]) ||
		    !strchr("0123456789abcdefABCDEF", s[i + 1]))
			return -1;
		out[i / 2] = (u8)v;
	}
	return (int)(n / 2);
}

/*
 * decode [options as encode] HEX [LABEL...]: the label the IPv4 options
 * HEX (as IP_RECVOPTS gives them) carry, with LABEL... known here, as
 * the daemon's core decodes it: "*" when no known label matches.
 */
int cmd_decode(int argc, char **argv, bool script)
{
	char back[SF_LABEL_MAX + 1];
	struct sf_cipso_attr a;
	u8 opt[SF_IPOPT_MAX];
	struct ctx c;
	int i, len, rc;
	u32 doi;

	(void)script;
	rc = ctx_init(&c, argc, argv);
	if (rc)
		goto out;
	len = unhex(c.names[0], opt, sizeof(opt));
	if (len < 0) {
		rc = bad("IPv4 options in hex expected (at most 40 bytes)",
			 c.names[0]);
		goto out;
	}
	for (i = 1; i < c.nnames && !rc; i++)
		rc = encode(&c, c.names[i], &a);	/* known here */
	if (rc)
		goto out;
	rc = sf_cipso_option_parse(opt, (size_t)len, &doi, &a);
	if (rc) {
		fprintf(stderr, "smacknl: decode: %s\n", rc == -ENOENT ?
			"no CIPSO option with a restricted bitmap tag" :
			"the CIPSO option is malformed");
		rc = 1;
		goto out;
	}
	if (doi != c.map.doi) {
		fprintf(stderr, "smacknl: decode: DOI %u, not %u\n", doi,
			c.map.doi);
		rc = 1;
		goto out;
	}
	sf_cipso_decode(&c.map, c.labels, &a, back);
	printf("%s\n", back);
out:
	ctx_release(&c);
	return rc;
}
