// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_load2 - libFuzzer target for sf_parse_load2() (see fuzz_common.h). */
#define FUZZ_PARSE sf_parse_load2
#include "fuzz_common.h"
