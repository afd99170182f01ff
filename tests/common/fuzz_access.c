// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_access - libFuzzer target for sf_parse_access() (see fuzz_common.h). */
#define FUZZ_QUERY sf_parse_access
#include "fuzz_common.h"
