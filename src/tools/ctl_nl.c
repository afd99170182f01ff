// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl_nl.c - smackfusectl's NetLabel target: CIPSO mappings (cipso.d) are
 * only of use when the kernel's NetLabel carries Smack labels, i.e. the
 * default IPv4 mapping sends its CIPSO traffic to one DOI, defined as
 * Smack defines it (pass-through, the restricted bitmap tag only): what
 * sf_nl_smack_state() calls Smack's DOI, as a mount starting does.  If it
 * already does (smacknl smack-setup, a mount's doi file, a boot script),
 * it is left alone; else Smack's standard configuration is set up through
 * libsfnetlabel, all or nothing.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "cipso.h"
#include "netlabel.h"
#include "ctl.h"

int ctl_netlabel_apply(const struct ctl_opts *o)
{
	struct sf_nl_smack_state st;
	struct sf_nl *nl;
	bool changed = false;
	char why[256];
	int rc;

	(void)o;
	rc = sf_nl_open(&nl, why, sizeof(why));
	if (rc) {
		ctl_err("netlabel: %s; CIPSO labels cannot travel", why);
		return 1;
	}
	/* the mounts' own reading (control_net.c): both must agree */
	rc = sf_nl_smack_state(nl, &st);
	if (rc)
		goto fail;
	sf_nl_smack_state_release(&st);
	if (st.doi) {
		printf("netlabel: default IPv4 traffic already carries CIPSO "
		       "DOI %u (pass-through): unchanged\n", st.doi);
		sf_nl_close(nl);
		return 0;
	}
	rc = sf_nl_smack_setup(nl, SF_CIPSO_DOI_DEFAULT, "_", &changed);
	if (rc)
		goto fail;
	printf("netlabel: DOI %d pass-through, default IPv4 mapping to it, "
	       "\"_\" unlabeled: %s\n", SF_CIPSO_DOI_DEFAULT,
	       changed ? "configured" : "unchanged");
	sf_nl_close(nl);
	return 0;
fail:
	ctl_err("netlabel: %s; the NetLabel configuration is unchanged",
		sf_nl_error(nl));
	sf_nl_close(nl);
	return 1;
}
