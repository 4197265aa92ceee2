/*
 * The steps view of the terminal report: per Rollout, its steps, when each
 * opened and completed, and each Workspace under its step with when it
 * planned, applied or failed.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/text_int.h"
#include "sim/base/gotime.h"

/*
 * The first instant of something, before the run (@past_ms, a snapshot's
 * history: OBS_NEVER when none) or in it (@run_ms, -1 when never), into
 * @buf: the duration, marked "*" when it is before the snapshot (then *@mark
 * is set), "—" when it did not happen.
 */
static void at_cell(int64_t past_ms, int64_t run_ms, char *buf, size_t len, bool *mark)
{
	int64_t at = obs_first(past_ms, run_ms);

	if (at == OBS_NEVER) {
		snprintf(buf, len, "—");
		return;
	}
	gt_format_duration(at, buf, len);
	if (past_ms != OBS_NEVER) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, "*");
		*mark = true;
	}
}

/*
 * One Workspace under its step: when it planned, applied, failed; each the
 * first, before the snapshot ("*") or in this run.
 */
static void member_line(struct out *o, const struct obs_workspace *w, bool *mark)
{
	char a[GT_DURATION_BUFSZ + 2], b[GT_DURATION_BUFSZ + 2], line[256];
	char *name = txt_clean(w->name, false);
	size_t len = 0, nw = txt_u8_width(name, strlen(name));
	const char *phase = w->last_phase ? w->last_phase : "";
	int64_t applying = obs_first(w->past_applying_ms, w->applying_ms);
	int64_t applied = obs_first(w->past_applied_ms, w->applied_ms);

	line[0] = '\0';
	if (obs_first(w->past_planning_ms, w->planning_ms) != OBS_NEVER) {
		at_cell(w->past_planning_ms, w->planning_ms, a, sizeof(a), mark);
		len += (size_t)snprintf(line + len, sizeof(line) - len, "plan %s", a);
	}
	if (applying != OBS_NEVER && len < sizeof(line)) {
		at_cell(w->past_applying_ms, w->applying_ms, a, sizeof(a), mark);
		at_cell(w->past_applied_ms, w->applied_ms, b, sizeof(b), mark);
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%sapply %s→%s",
					len ? ", " : "", a, b);
	} else if ((applied != OBS_NEVER || w->applied_before) && len < sizeof(line)) {
		/* a plain snapshot without the apply Job: when it began is not told */
		if (applied != OBS_NEVER)
			at_cell(w->past_applied_ms, w->applied_ms, a, sizeof(a), mark);
		else
			snprintf(a, sizeof(a), "before*");
		*mark = true;
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s %s", len ? ", " : "",
					applied != OBS_NEVER ? "applied" : "apply", a);
	}
	if (obs_first(w->past_failed_ms, w->failed_ms) != OBS_NEVER && len < sizeof(line)) {
		at_cell(w->past_failed_ms, w->failed_ms, a, sizeof(a), mark);
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%sfailed %s",
					len ? ", " : "", a);
	}
	if (len == 0)
		snprintf(line, sizeof(line), "never ran");
	else if (w->runs > 1 && len < sizeof(line))
		/* The times above are each the first; say the run was not the only one. */
		snprintf(line + len, sizeof(line) - len, " (first of %u runs)", w->runs);
	/* One line when it fits; else the name and phase, the times below. */
	if (6 + (nw > 28 ? nw : 28) + 1 + txt_u8_width(line, strlen(line)) + 2 + strlen(phase) <=
	    o->width) {
		txt_emit(o, "      ");
		txt_cell(o, name, 28);
		txt_emit(o, " %s  %s%s%s\n", line, col(o, txt_phase_tone(phase, NULL)), phase,
			 col(o, C_OFF));
	} else {
		size_t room = o->width > 40 ? o->width - 20 : 20;

		txt_emit(o, "      ");
		if (nw > room)
			txt_cell_end(o, name, room);
		else
			txt_emit(o, "%s", name);
		txt_emit(o, "  %s%s%s\n", col(o, txt_phase_tone(phase, NULL)), phase,
			 col(o, C_OFF));
		txt_wrapped(o, line, 8, "");
	}
	for (size_t i = 0; i < w->nviolations; i++) {
		char *v = txt_clean(w->violations[i], true);
		char *text = xasprintf("violated %s", v);

		txt_wrapped(o, text, 8, C_RED);
		free(text);
		free(v);
	}
	free(name);
}

void txt_steps_view(struct out *o, const struct obs *obs)
{
	size_t n = 0;
	const struct obs_rollout *ro = obs ? obs_rollouts(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct obs_rollout *r = &ro[i];
		char *rn = txt_clean(r->name, false), *rns = txt_clean(r->ns, false);
		bool mark = false;

		txt_emit(o, "\n%sRollout %s/%s%s, %zu step%s\n", col(o, C_BOLD), rns, rn,
			 col(o, C_OFF), r->nsteps, r->nsteps == 1 ? "" : "s");
		free(rn);
		free(rns);
		if (r->nsteps)
			txt_emit(o, "  %s%-20s %12s %12s  WORKSPACES%s\n", col(o, C_DIM), "STEP",
				 "OPENED", "COMPLETED", col(o, C_OFF));
		for (size_t k = 0; k < r->nsteps; k++) {
			const struct obs_step *st = &r->steps[k];
			char a[GT_DURATION_BUFSZ + 2], b[GT_DURATION_BUFSZ + 2];
			char *sn = txt_clean(st->name, false);

			at_cell(st->past_opened_ms, st->opened_ms, a, sizeof(a), &mark);
			at_cell(st->past_completed_ms, st->completed_ms, b, sizeof(b), &mark);
			txt_emit(o, "  ");
			txt_cell(o, sn, 20);
			txt_emit(o, " %*s%s %*s%s  %zu%s\n", (int)(12 - txt_u8_width(a, strlen(a))),
				 "", a, (int)(12 - txt_u8_width(b, strlen(b))), "", b, st->nmembers,
				 st->nmembers ? "" : " (matches none)");
			free(sn);
			for (size_t m = 0; m < st->nmembers; m++) {
				const struct obs_workspace *w = obs_workspace(obs, r->ns, st->members[m]);

				if (w)
					member_line(o, w, &mark);
			}
		}
		/* a time of the snapshot's history is never taken for one of this run */
		if (mark)
			txt_wrapped(o, "* before the snapshot (the run starts at 0s): as the "
				       "snapshot carries it or its objects tell it",
				    2, C_DIM);
	}
}
