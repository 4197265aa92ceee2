/*
 * Hand-stamped tokens read late because the StageSet watch dropped them
 * (ss_hazards_tokens.h).
 */
#include "sim/run/ss_hazards_tokens.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_env.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/core/timeline.h"
#include "sim/lint/lint_ss_tokens.h"

/* When the StageSet of @ev first wrote @field into its status at or after @ev, -1: never. */
static int64_t handled_at(const struct tl *tl, const struct scn_event *ev, const char *field)
{
	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (e.t_ms >= ev->at_ms && e.change == TL_STATUS && !strcmp(e.kind, "StageSet") &&
		    !strcmp(e.ns, ev->target.ns) && !strcmp(e.name, ev->target.name) && e.detail &&
		    strstr(e.detail, field))
			return e.t_ms;
	}
	return -1;
}

void ss_hazards_tokens(struct run_result *r, const struct scenario *s)
{
	struct tl *tl = des_timeline(r->world);

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];
		const char *token, *value;
		struct tl_objref ref;
		char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ];
		char *when, *text;
		int64_t t;

		if (!lss_unwatched_token(ev, &token, &value) || ev->at_ms > r->end_ms)
			continue;
		t = handled_at(tl, ev, lss_handled_field(token));
		gt_format_duration(ev->at_ms, t1, sizeof(t1));
		if (t >= 0) {
			gt_format_duration(t, t2, sizeof(t2));
			gt_format_duration(t - ev->at_ms, t3, sizeof(t3));
			when = xasprintf("the first pass that recorded it as handled ended at %s, %s after the stamp, at a "
					 "requeue of another cause",
					 t2, t3);
		} else {
			when = xstrdup("no pass recorded it as handled to the end of the run");
		}
		ref = (struct tl_objref){ "StageSet", ev->target.ns, ev->target.name, 0 };
		text = xasprintf("StageSet %s/%s: scenario event %zu at %s stamped %s \"%s\" without %s, and "
				 "the StageSet watch drops that annotation change: %s; stamp tokens with "
				 "stagesetctl, or set %s in the same edit",
				 ev->target.ns, ev->target.name, ev->index + 1, t1, token, value,
				 SSC_ANN_REQUESTED_AT, when, SSC_ANN_REQUESTED_AT);
		tl_notice_add(tl, r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
		free(when);
	}
}
