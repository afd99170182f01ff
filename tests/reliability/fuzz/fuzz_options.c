// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_options.c - libFuzzer target for smackfuse's command line: the
 * input, split at NUL bytes, is argv; the first piece is also fed to the
 * -o list parser on its own.  The parsers are static in src/fuse/main.c,
 * so that file is included here with its main() renamed.
 */
#define _GNU_SOURCE
#define main smackfuse_main
#include "../../../src/fuse/main.c"
#undef main

/* sf_cmdline_free() comes with main.c. */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), *list, *argv[64];
	struct sf_cmdline c;
	struct sf_options o;
	size_t i, start = 0;
	int argc = 1;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;
	list = strdup(copy);
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	if (list)
		sf_options(&o, &c, list);
	sf_cmdline_free(&c);
	free(list);

	argv[0] = "smackfuse";
	for (i = 0; i <= size && argc < 63; i++) {
		if (copy[i] == 0) {
			argv[argc++] = copy + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	sf_parse_args(&o, &c, argc, argv);
	sf_cmdline_free(&c);
	free(copy);
	return 0;
}
