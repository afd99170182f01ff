// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_rule_file - libFuzzer target for sf_parse_rule_file() (see fuzz_common.h). */
#define FUZZ_PARSE sf_parse_rule_file
#include "fuzz_common.h"
