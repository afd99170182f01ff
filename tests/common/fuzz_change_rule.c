// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_change_rule - libFuzzer target for sf_parse_change_rule() (see fuzz_common.h). */
#define FUZZ_PARSE sf_parse_change_rule
#include "fuzz_common.h"
