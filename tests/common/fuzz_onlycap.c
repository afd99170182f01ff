// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_onlycap - libFuzzer target for sf_parse_onlycap() (see fuzz_common.h). */
#define FUZZ_PARSE sf_parse_onlycap
#include "fuzz_common.h"
