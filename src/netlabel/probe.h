/* SPDX-License-Identifier: GPL-2.0-only */
/* probe.h - smacknl encode / probe: labels as CIPSO, checked by the kernel. */
#ifndef SMACKFUSE_PROBE_H
#define SMACKFUSE_PROBE_H

#include <stdbool.h>

int cmd_encode(int argc, char **argv, bool script);
int cmd_probe(int argc, char **argv, bool script);
int cmd_decode(int argc, char **argv, bool script);

#endif /* SMACKFUSE_PROBE_H */
