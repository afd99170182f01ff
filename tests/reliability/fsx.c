// SPDX-License-Identifier: GPL-2.0-only
/*
 * fsx.c - randomized file-operation exerciser with an in-memory model.
 *
 * In the spirit of the classic fsx (written from scratch): one file is
 * hammered with random pwrite, ftruncate, fallocate (extend, keep-size,
 * punch-hole), mmap reads, copy_file_range (from a side file and within
 * the file) and preads, and every byte read back is compared against a
 * model kept in memory.  The size is checked with fstat after every op and
 * the whole file is compared every CHECK_EVERY ops and at the end.
 *
 * usage: fsx [-n OPS] [-s SEED] [-l MAXLEN] [-o MAXOP] [-q] [-c OPNUM] [-d DUMP] FILE
 *
 * -d DUMP writes the final model to DUMP, so that a test can compare the
 * file as the backing tree holds it.
 * -c OPNUM corrupts one byte of the file behind fsx's back (through a
 * second descriptor) before op OPNUM: the self-test that proves a
 * mismatch is caught.
 *
 * On the first mismatch it prints the seed, the op number and the last
 * ops, so that `fsx -s SEED -n OPNUM FILE` reproduces it, and exits 1.
 * Exit 2 is a usage or setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/falloc.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHECK_EVERY	1000
#define HISTORY		32

enum op {
	OP_WRITE, OP_TRUNCATE, OP_FALLOC, OP_FALLOC_KEEP, OP_PUNCH,
	OP_MMAP_READ, OP_COPY_IN, OP_COPY_SELF, OP_READ, OP_REOPEN,
	OP_COUNT
};

static const char *const op_name[OP_COUNT] = {
	"write", "truncate", "fallocate", "fallocate_keep", "punch_hole",
	"mmap_read", "copy_from_side", "copy_within", "read", "reopen",
};

/* Relative weights of the ops. */
static const unsigned int op_weight[OP_COUNT] = {
	30, 6, 4, 4, 4, 10, 6, 4, 30, 2,
};

struct hist {
	unsigned long n;
	enum op op;
	off_t off, len, off2;
};

static uint64_t rng_state;
static char *model, *side_model, *buf;
static off_t model_size, maxlen = 256 * 1024, maxop = 64 * 1024;
static const off_t side_len = 128 * 1024;
static int fd, side_fd;
static const char *path;
static char side_path[4096];
static uint64_t seed;
static unsigned long opnum;
static struct hist history[HISTORY];
static unsigned long count[OP_COUNT], unsupported[OP_COUNT];
static bool disabled[OP_COUNT];
static unsigned long corrupt_at;
static const char *dump_path;

/* xorshift64*: reproducible on every libc, unlike random(). */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static off_t rnd_below(off_t n)
{
	return n > 0 ? (off_t)(rnd() % (uint64_t)n) : 0;
}

static void fill_random(char *p, off_t len)
{
	for (off_t i = 0; i < len; i++)
		p[i] = (char)(rnd() >> 56);
}

static void dump_history(void)
{
	fprintf(stderr, "fsx: last ops (oldest first):\n");
	for (unsigned long i = opnum >= HISTORY ? opnum - HISTORY + 1 : 1;
	     i <= opnum; i++) {
		const struct hist *h = &history[i % HISTORY];

		if (h->n != i)
			continue;
		fprintf(stderr, "  #%lu %-15s off=%jd len=%jd off2=%jd\n",
			h->n, op_name[h->op], (intmax_t)h->off,
			(intmax_t)h->len, (intmax_t)h->off2);
	}
}

static void __attribute__((noreturn, format(printf, 1, 2)))
fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "fsx: FAILED at op %lu (seed %" PRIu64 ", file %s): ",
		opnum, seed, path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	dump_history();
	fprintf(stderr, "fsx: reproduce with: fsx -s %" PRIu64 " -n %lu -l %jd -o %jd FILE\n",
		seed, opnum, (intmax_t)maxlen, (intmax_t)maxop);
	exit(1);
}

static void compare(const char *got, off_t off, off_t len, const char *how)
{
	for (off_t i = 0; i < len; i++) {
		char want = off + i < model_size ? model[off + i] : 0;

		if (got[i] != want)
			fail("%s: byte %jd is 0x%02x, model says 0x%02x (read off=%jd len=%jd)",
			     how, (intmax_t)(off + i), (unsigned char)got[i],
			     (unsigned char)want, (intmax_t)off, (intmax_t)len);
	}
}

static void check_size(void)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		fail("fstat: %s", strerror(errno));
	if (st.st_size != model_size)
		fail("size is %jd, model says %jd", (intmax_t)st.st_size,
		     (intmax_t)model_size);
}

static void read_range(off_t off, off_t len, const char *how)
{
	off_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, buf + done, len - done, off + done);

		if (r < 0)
			fail("%s: pread(off=%jd, len=%jd): %s", how,
			     (intmax_t)(off + done), (intmax_t)(len - done),
			     strerror(errno));
		if (r == 0)
			fail("%s: short read at %jd (wanted up to %jd, size %jd)",
			     how, (intmax_t)(off + done), (intmax_t)(off + len),
			     (intmax_t)model_size);
		done += r;
	}
	compare(buf, off, len, how);
}

static void check_all(void)
{
	check_size();
	for (off_t off = 0; off < model_size; off += maxop) {
		off_t len = model_size - off < maxop ? model_size - off : maxop;

		read_range(off, len, "full check");
	}
}

/* The model grows with zeroes, like the file. */
static void model_resize(off_t size)
{
	if (size > model_size)
		memset(model + model_size, 0, size - model_size);
	model_size = size;
}

static void do_write(struct hist *h)
{
	off_t off = rnd_below(maxlen - 1), len = 1 + rnd_below(maxop);

	if (off + len > maxlen)
		len = maxlen - off;
	h->off = off;
	h->len = len;
	fill_random(buf, len);
	for (off_t done = 0; done < len;) {
		ssize_t w = pwrite(fd, buf + done, len - done, off + done);

		if (w <= 0)
			fail("pwrite(off=%jd, len=%jd): %s", (intmax_t)off,
			     (intmax_t)len, w < 0 ? strerror(errno) : "wrote 0");
		done += w;
	}
	if (off > model_size)
		model_resize(off);
	memcpy(model + off, buf, len);
	if (off + len > model_size)
		model_size = off + len;
}

static void do_truncate(struct hist *h)
{
	off_t size = rnd_below(maxlen + 1);

	/* Shrinking to zero now and then keeps the small-file paths busy. */
	if (rnd_below(16) == 0)
		size = 0;
	h->off = size;
	if (ftruncate(fd, size) < 0)
		fail("ftruncate(%jd): %s", (intmax_t)size, strerror(errno));
	model_resize(size);
}

static bool falloc_unsupported(enum op op, int err)
{
	if (err != EOPNOTSUPP && err != ENOSYS)
		return false;
	unsupported[op]++;
	disabled[op] = true;
	fprintf(stderr, "fsx: %s not supported here (%s); op disabled\n",
		op_name[op], strerror(err));
	return true;
}

static void do_falloc(struct hist *h, enum op op)
{
	off_t off = rnd_below(maxlen - 1), len = 1 + rnd_below(maxop);
	int mode = 0;

	if (off + len > maxlen)
		len = maxlen - off;
	if (op == OP_FALLOC_KEEP)
		mode = FALLOC_FL_KEEP_SIZE;
	if (op == OP_PUNCH)
		mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
	h->off = off;
	h->len = len;
	if (fallocate(fd, mode, off, len) < 0) {
		if (falloc_unsupported(op, errno))
			return;
		fail("fallocate(mode=%#x, off=%jd, len=%jd): %s", mode,
		     (intmax_t)off, (intmax_t)len, strerror(errno));
	}
	if (op == OP_FALLOC && off + len > model_size)
		model_resize(off + len);
	if (op == OP_PUNCH && off < model_size) {
		off_t end = off + len < model_size ? off + len : model_size;

		memset(model + off, 0, end - off);
	}
}

static void do_mmap_read(struct hist *h)
{
	off_t off, len, pgoff, maplen;
	long pg = sysconf(_SC_PAGESIZE);
	char *map;

	if (model_size == 0)
		return;
	off = rnd_below(model_size);
	len = 1 + rnd_below(maxop);
	if (off + len > model_size)
		len = model_size - off;
	pgoff = off & ~(off_t)(pg - 1);
	maplen = off + len - pgoff;
	h->off = off;
	h->len = len;
	map = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, pgoff);
	if (map == MAP_FAILED)
		fail("mmap(off=%jd, len=%jd): %s", (intmax_t)pgoff,
		     (intmax_t)maplen, strerror(errno));
	compare(map + (off - pgoff), off, len, "mmap read");
	/* The bytes past EOF in the last page must read as zero. */
	if ((off + len) == model_size && (model_size % pg) != 0) {
		for (off_t i = maplen; i < ((maplen + pg - 1) & ~(off_t)(pg - 1)); i++)
			if (map[i] != 0)
				fail("mmap: byte %jd past EOF is 0x%02x, not 0",
				     (intmax_t)(pgoff + i),
				     (unsigned char)map[i]);
	}
	if (munmap(map, maplen) < 0)
		fail("munmap: %s", strerror(errno));
}

static void copy_all(int in, off_t in_off, off_t out_off, off_t len,
		     const char *how)
{
	loff_t io = in_off, oo = out_off;
	off_t done = 0;

	while (done < len) {
		ssize_t c = copy_file_range(in, &io, fd, &oo, len - done, 0);

		if (c < 0)
			fail("%s: copy_file_range(in=%jd, out=%jd, len=%jd): %s",
			     how, (intmax_t)io, (intmax_t)oo,
			     (intmax_t)(len - done), strerror(errno));
		if (c == 0)
			fail("%s: copy_file_range copied 0 at in=%jd", how,
			     (intmax_t)io);
		done += c;
	}
}

/* copy_file_range [in, in + len) of @src (the file, or the side file)
 * to @out in the file, and the same in the model.  @src_model is @src's
 * model: the file's own (model) or the side file's. */
static void copy_apply(struct hist *h, int src, const char *src_model,
		       off_t in, off_t out, off_t len, const char *how)
{
	bool self = src_model == model;

	h->off = out;
	h->len = len;
	h->off2 = in;
	copy_all(src, in, out, len, how);
	if (out > model_size)
		model_resize(out);
	/* The file's model may be its own source (memmove). */
	memmove(model + out, (self ? model : src_model) + in, len);
	if (out + len > model_size)
		model_size = out + len;
}

static void do_copy_in(struct hist *h)
{
	off_t in = rnd_below(side_len - 1), len = 1 + rnd_below(maxop);
	off_t out = rnd_below(maxlen - 1);

	if (in + len > side_len)
		len = side_len - in;
	if (out + len > maxlen)
		len = maxlen - out;
	copy_apply(h, side_fd, side_model, in, out, len, "copy from side file");
}

/* Non-overlapping ranges inside the file (overlap is EINVAL by design). */
static void do_copy_self(struct hist *h)
{
	off_t in, out, len;

	if (model_size < 2)
		return;
	in = rnd_below(model_size - 1);
	len = 1 + rnd_below(maxop);
	if (in + len > model_size)
		len = model_size - in;
	out = rnd_below(maxlen - len);
	if (out < in + len && in < out + len)
		return;
	copy_apply(h, fd, model, in, out, len, "copy within file");
}

static void do_read(struct hist *h)
{
	off_t off, len;

	if (model_size == 0)
		return;
	off = rnd_below(model_size);
	len = 1 + rnd_below(maxop);
	if (off + len > model_size)
		len = model_size - off;
	h->off = off;
	h->len = len;
	read_range(off, len, "read");
}

static void do_reopen(void)
{
	if (close(fd) < 0)
		fail("close: %s", strerror(errno));
	fd = open(path, O_RDWR);
	if (fd < 0)
		fail("reopen: %s", strerror(errno));
}

static enum op pick_op(void)
{
	unsigned int total = 0, r;

	for (int i = 0; i < OP_COUNT; i++)
		total += disabled[i] ? 0 : op_weight[i];
	r = (unsigned int)rnd_below(total);
	for (int i = 0; i < OP_COUNT; i++) {
		if (disabled[i])
			continue;
		if (r < op_weight[i])
			return (enum op)i;
		r -= op_weight[i];
	}
	return OP_READ;
}

static void setup_side_file(void)
{
	snprintf(side_path, sizeof(side_path), "%s.fsxside", path);
	side_fd = open(side_path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (side_fd < 0) {
		fprintf(stderr, "fsx: %s: %s\n", side_path, strerror(errno));
		exit(2);
	}
	fill_random(side_model, side_len);
	if (pwrite(side_fd, side_model, side_len, 0) != side_len) {
		fprintf(stderr, "fsx: writing %s: %s\n", side_path,
			strerror(errno));
		exit(2);
	}
}

/* Flip one byte with a second descriptor; the model is not told. */
static void corrupt_one_byte(void)
{
	off_t off = model_size ? rnd_below(model_size) : 0;
	char b = (char)~(model_size ? model[off] : 0);
	int cfd = open(path, O_WRONLY);

	if (cfd < 0 || pwrite(cfd, &b, 1, off) != 1) {
		fprintf(stderr, "fsx: corrupting %s: %s\n", path,
			strerror(errno));
		exit(2);
	}
	close(cfd);
	fprintf(stderr, "fsx: corrupted byte %jd before op %lu (self-test)\n",
		(intmax_t)off, corrupt_at);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: fsx [-n OPS] [-s SEED] [-l MAXLEN] [-o MAXOP] [-q] [-c OPNUM] [-d DUMP] FILE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long nops = 100000;
	bool quiet = false;
	int c;

	seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	while ((c = getopt(argc, argv, "n:s:l:o:qc:d:")) != -1) {
		switch (c) {
		case 'n': nops = strtoul(optarg, NULL, 0); break;
		case 's': seed = strtoull(optarg, NULL, 0); break;
		case 'l': maxlen = strtoll(optarg, NULL, 0); break;
		case 'o': maxop = strtoll(optarg, NULL, 0); break;
		case 'q': quiet = true; break;
		case 'd': dump_path = optarg; break;
		case 'c': corrupt_at = strtoul(optarg, NULL, 0); break;
		default: usage();
		}
	}
	if (optind != argc - 1 || maxlen < 2 || maxop < 1 || maxop > maxlen)
		usage();
	path = argv[optind];
	rng_state = seed ? seed : 1;
	model = calloc(1, maxlen);
	side_model = malloc(side_len);
	buf = malloc(maxlen + maxop);
	if (!model || !side_model || !buf)
		return 2;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0666);
	if (fd < 0) {
		fprintf(stderr, "fsx: %s: %s\n", path, strerror(errno));
		return 2;
	}
	setup_side_file();

	for (opnum = 1; opnum <= nops; opnum++) {
		struct hist *h = &history[opnum % HISTORY];
		enum op op = pick_op();

		if (opnum == corrupt_at) {
			corrupt_one_byte();
			check_all();
		}
		*h = (struct hist){ .n = opnum, .op = op };
		count[op]++;
		switch (op) {
		case OP_WRITE: do_write(h); break;
		case OP_TRUNCATE: do_truncate(h); break;
		case OP_FALLOC:
		case OP_FALLOC_KEEP:
		case OP_PUNCH: do_falloc(h, op); break;
		case OP_MMAP_READ: do_mmap_read(h); break;
		case OP_COPY_IN: do_copy_in(h); break;
		case OP_COPY_SELF: do_copy_self(h); break;
		case OP_READ: do_read(h); break;
		case OP_REOPEN: do_reopen(); break;
		default: break;
		}
		check_size();
		if (opnum % CHECK_EVERY == 0)
			check_all();
	}
	opnum = nops;
	check_all();
	close(fd);
	close(side_fd);
	unlink(side_path);
	if (dump_path) {
		FILE *f = fopen(dump_path, "w");

		if (!f || fwrite(model, 1, model_size, f) != (size_t)model_size ||
		    fclose(f)) {
			fprintf(stderr, "fsx: %s: %s\n", dump_path, strerror(errno));
			return 2;
		}
	}

	printf("fsx: %lu ops, seed %" PRIu64 ", final size %jd: all bytes match the model\n",
	       nops, seed, (intmax_t)model_size);
	if (!quiet) {
		for (int i = 0; i < OP_COUNT; i++)
			printf("fsx:   %-15s %lu%s\n", op_name[i], count[i],
			       unsupported[i] ? " (unsupported, disabled)" : "");
	}
	return 0;
}
