// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_load - libFuzzer target for sf_parse_load() (see fuzz_common.h). */
#define FUZZ_PARSE sf_parse_load
#include "fuzz_common.h"
