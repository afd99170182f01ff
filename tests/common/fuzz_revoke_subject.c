// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_revoke_subject - libFuzzer target for sf_parse_revoke_subject() (see fuzz_common.h). */
#define FUZZ_PARSE sf_parse_revoke_subject
#include "fuzz_common.h"
