/* The StageSet controller's members found by name (ss_members.h). */
#include "sim/run/ss_members.h"

#include <string.h>

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

bool ssm_next(const struct tl *tl, size_t *i, unsigned changes, const struct strindex *idx,
	      struct tl_entry *e, size_t *k)
{
	for (size_t n = tl_count(tl); *i < n;) {
		tl_get(tl, (*i)++, e);
		if (e->kind && strcmp(e->kind, "StageSet") == 0 && (changes & SSM_CHANGE(e->change)) &&
		    ssm_find(idx, e->ns, e->name, k))
			return true;
	}
	return false;
}
