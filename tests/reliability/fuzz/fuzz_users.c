// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_users.c - libFuzzer target for the users map parser
 * (sf_users_load in src/fuse/decision/subject.c).  The input is the file; it is
 * loaded through a memfd.  A rejected file must leave the loaded map
 * exactly as it was (all or nothing): checked after every input.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "smackfuse.h"

struct sf_fs sf_fs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sf_user_rule sentinel;
	char path[64];
	int fd, rc;

	if (!sf_fs.labels) {
		sf_fs.labels = sf_labels_new();
		if (!sf_fs.labels)
			abort();
		sf_fs.opt.users_path = "fuzz";
	}
	fd = memfd_create("users", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* A map "already loaded": a rejected input must not touch it. */
	sf_fs.users.rules = &sentinel;
	sf_fs.users.n = 1;
	rc = sf_users_load(&sf_fs, path);
	if (rc) {
		if (sf_fs.users.rules != &sentinel || sf_fs.users.n != 1) {
			fprintf(stderr, "rejected input changed the map\n");
			abort();
		}
	} else if (sf_fs.users.rules != &sentinel) {
		free(sf_fs.users.rules);
	}
	sf_fs.users.rules = NULL;
	sf_fs.users.n = 0;
	close(fd);
	return 0;
}
