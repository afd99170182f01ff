// SPDX-License-Identifier: GPL-2.0-only
/*
 * nlapi - drive the libsfnetlabel calls the control filesystem makes for
 * smackfs writes, for the guest tests (guest-netlabel.sh):
 *
 *   nlapi doi OLD NEW          sf_nl_smack_set_doi      ("doi" write)
 *   nlapi ambient OLD NEW      sf_nl_smack_set_ambient  ("ambient" write)
 *
 * Exit 0 on success; 1 with the library's message on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "netlabel.h"

int main(int argc, char **argv)
{
	struct sf_nl *nl;
	char err[256];
	int rc;

	if (argc != 4 ||
	    (strcmp(argv[1], "doi") && strcmp(argv[1], "ambient"))) {
		fprintf(stderr, "usage: nlapi doi|ambient OLD NEW\n");
		return 2;
	}
	if (sf_nl_open(&nl, err, sizeof(err))) {
		fprintf(stderr, "nlapi: %s\n", err);
		return 1;
	}
	if (!strcmp(argv[1], "doi"))
		rc = sf_nl_smack_set_doi(nl, strtoul(argv[2], NULL, 10),
					 strtoul(argv[3], NULL, 10));
	else
		rc = sf_nl_smack_set_ambient(nl, argv[2], argv[3]);
	if (rc)
		fprintf(stderr, "nlapi: %s\n", sf_nl_error(nl));
	sf_nl_close(nl);
	return rc ? 1 : 0;
}
