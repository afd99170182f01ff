// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_access2 - libFuzzer target for sf_parse_access2() (see fuzz_common.h). */
#define FUZZ_QUERY sf_parse_access2
#include "fuzz_common.h"
