/* The StageSet controller's members found by name (ss_members.h). */
#include "sim/run/ss_members.h"

#include "sim/base/keybuf.h"
#include "sim/wire/fleet_glue.h"

size_t ssm_index(const struct run_result *r, const struct ssrc_member_stat **ms, struct strindex *idx)
{
	const struct ssrc *rc = fleet_glue_ssrc(r->fleet);
	size_t n = rc ? ssrc_members(rc, ms) : 0;

	for (size_t i = 0; i < n; i++) {
		char buf[256], *key = kb_join2(buf, sizeof(buf), (*ms)[i].ns, (*ms)[i].name);

		si_put(idx, key, i);
		kb_drop(key, buf);
	}
	return n;
}

bool ssm_find(const struct strindex *idx, const char *ns, const char *name, size_t *k)
{
	char buf[256], *key = kb_join2(buf, sizeof(buf), ns ? ns : "", name ? name : "");
	bool found = si_get(idx, key, k);

	kb_drop(key, buf);
	return found;
}
