/* SPDX-License-Identifier: GPL-2.0-only */
/* show.h - smacknl listings, for people and (script) one record a line. */
#ifndef SMACKFUSE_SHOW_H
#define SMACKFUSE_SHOW_H

#include <stdio.h>
#include "netlabel.h"

void show_dois(FILE *f, const struct sf_nl_doi *v, size_t n, bool script);
void show_maps(FILE *f, const struct sf_nl_map *v, size_t n, bool script);
void show_unlbl(FILE *f, bool accept, const struct sf_nl_static *v,
		size_t n, bool script);

#endif /* SMACKFUSE_SHOW_H */
