/*
 * The terminal report of one run: a header line, the timeline
 * (text_timeline.c), the steps view (text_steps.c), the waves and fleet
 * views (text_fleet.c), and the summary, written here: how the run stopped,
 * whether the change completed, jobs, warnings, the halt with its blast
 * radius, detection latency and exposure.  The HTML report shows the same
 * summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/report.h"
#include "reports/text_int.h"
#include "sim/base/gotime.h"

/*
 * A summary line: @label in bold in 10 columns, then @text (made safe)
 * wrapped at word boundaries to the width, continuation lines indented 10.
 */
static void labelled(struct out *o, const char *label, const char *text)
{
	char *safe = txt_clean(text, false);
	size_t avail = o->width > 30 ? o->width - 10 : 20;
	const char *p = safe;
	bool first = true;

	do {
		size_t take = txt_u8_prefix(p, avail);

		if (p[take]) {
			size_t k = take;

			while (k > 0 && p[k] != ' ')
				k--;
			if (k > 0)
				take = k;
		}
		if (first)
			txt_emit(o, "%s%s%s%*s%.*s\n", col(o, C_BOLD), label, col(o, C_OFF),
				 (int)(10 - txt_u8_width(label, strlen(label))), "", (int)take, p);
		else
			txt_emit(o, "%10s%.*s\n", "", (int)take, p);
		first = false;
		p += take;
		while (*p == ' ')
			p++;
	} while (*p);
	free(safe);
}

/* @v with the fewest significant digits that read back as @v (Go's %v of a float64). */
static void full_g(double v, char *buf, size_t len)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/*
 * "the halt at 21m1s", or for a halt before the start a snapshot dates
 * (@halt_ms < 0) "the halt, 8m59s before the snapshot": a while before it,
 * not a time to print as one.  Returns new.
 */
static char *the_halt(int64_t halt_ms)
{
	char t[GT_DURATION_BUFSZ];

	gt_format_duration(halt_ms < 0 ? -halt_ms : halt_ms, t, sizeof(t));
	return halt_ms < 0 ? xasprintf("the halt, %s before the snapshot", t)
			   : xasprintf("the halt at %s", t);
}

/* Blast radius, detection latency and exposure of each halted FleetRollout's first halt. */
static void fleet_blast_lines(struct out *o, const struct fo *fo)
{
	size_t n = 0;
	const struct fo_fleet *fl = fo_fleets(fo, &n);

	for (size_t i = 0; i < n; i++) {
		const struct fo_fleet *f = &fl[i];
		char at[GT_DURATION_BUFSZ], lat[GT_DURATION_BUFSZ];
		char *text, *waves, *halt;

		if (!f->nhalts && !f->blast_carried)
			continue;
		waves = xstrdup("");
		gt_format_duration(f->halt_ms, at, sizeof(at));
		if (f->halted_before_start && !f->blast_carried) {
			/* who had taken the bad version by then is history the store does not keep */
			text = xasprintf("not known: FleetRollout %s was loaded Halted, the halt "
					 "predates the run", f->name);
			labelled(o, "blast", text);
			free(text);
			labelled(o, "detection", "not known: the halt predates the run");
			labelled(o, "exposure", "not known: the halt predates the run");
			free(waves);
			continue;
		}
		if (!f->has_blast) {
			text = xasprintf("none: FleetRollout %s halted at %s while rolling out no "
					 "single version, so no member adopted a bad version",
					 f->name, at);
			labelled(o, "blast", text);
			free(text);
			labelled(o, "detection", "none: no bad version, so no regression onset to "
						 "measure from");
			labelled(o, "exposure", "none: no member adopted a bad version");
			free(waves);
			continue;
		}
		for (size_t k = 0; k < f->nblast_waves; k++) {
			char *next = xasprintf("%s%s%s %zu/%zu", waves, k ? ", " : "",
					       f->blast_waves[k].name, f->blast_waves[k].count,
					       f->blast_waves[k].total);

			free(waves);
			waves = next;
		}
		halt = the_halt(f->halt_ms);
		if (f->blast_count)
			text = xasprintf("%zu of %zu members (%.1f%%) of FleetRollout %s had adopted "
					 "%s by %s; by wave: %s",
					 f->blast_count, f->blast_total,
					 f->blast_total ? 100.0 * (double)f->blast_count /
								  (double)f->blast_total
							: 0.0,
					 f->name, f->bad_version, halt, waves);
		else
			text = xasprintf("0 of %zu members: no member of FleetRollout %s had adopted "
					 "%s by %s",
					 f->blast_total, f->name, f->bad_version, halt);
		labelled(o, "blast", text);
		free(text);
		free(halt);
		free(waves);
		if (f->onset_undated) {
			char on[GT_DURATION_BUFSZ];

			gt_format_duration(f->onset_ms, on, sizeof(on));
			text = xasprintf("not known: the fault began before the snapshot (a fault "
					 "window of %s, open since %s; the version it ran then is not in "
					 "the snapshot)", f->onset_member, on);
		} else if (f->detection_latency_ms >= 0) {
			char on[GT_DURATION_BUFSZ];

			gt_format_duration(f->detection_latency_ms, lat, sizeof(lat));
			gt_format_duration(f->onset_ms, on, sizeof(on));
			if (f->onset_window && f->noticed_ms >= 0) {
				char seen[GT_DURATION_BUFSZ];

				gt_format_duration(f->noticed_ms, seen, sizeof(seen));
				text = xasprintf("%s, from the fault onset at %s (the workload of %s "
						 "failed; its StageSet showed it at %s) to the halt",
						 lat, on, f->onset_member, seen);
			} else {
				text = xasprintf("%s, from the fault onset at %s (%s %s) to the halt", lat,
						 on, f->onset_member,
						 f->onset_window ? "began a fault window"
						 : f->onset_ms < 0 ? "went not-Ready, before the snapshot, as its "
								     "Ready condition's lastTransitionTime says"
								   : "went not-Ready");
			}
		} else {
			text = xasprintf("none: no regression onset in this run (no member on %s "
					 "regressed or went not-Ready before the halt)",
					 f->bad_version);
		}
		labelled(o, "detection", text);
		free(text);
		if (f->exposure_member_ms > 0 || f->exposure_loaded) {
			char *after, *to;

			if (f->remediated && f->unremediated)
				after = xasprintf("%.1f member-minutes until %zu left it, %zu never did",
						  (double)f->exposure_after_halt_member_ms / 60000.0,
						  f->remediated, f->unremediated);
			else if (f->remediated)
				after = xasprintf("%.1f member-minutes until %s left it",
						  (double)f->exposure_after_halt_member_ms / 60000.0,
						  f->remediated == 1 ? "the member" : "every member");
			else if (f->unremediated)
				after = xasprintf("%zu member%s never left it (not remediated)",
						  f->unremediated, f->unremediated == 1 ? "" : "s");
			else
				after = xstrdup("none (no member was on it at the halt)");
			/* members on it when loaded: their time before the start is not in the inputs */
			to = f->halt_ms < 0 ? the_halt(f->halt_ms) : xstrdup(at);
			if (f->exposure_loaded)
				text = xasprintf("%.1f member-minutes on %s before the halt (each blast "
						 "member from its adoption to %s, cut at the run's start "
						 "for the %zu on it then: the inputs do not carry when "
						 "%s it); after the halt: %s",
						 (double)f->exposure_member_ms / 60000.0, f->bad_version,
						 to, f->exposure_loaded,
						 f->exposure_loaded == 1 ? "it adopted" : "they adopted",
						 after);
			else
				text = xasprintf("%.1f member-minutes on %s before the halt (each blast "
						 "member from its adoption to %s); after the halt: %s",
						 (double)f->exposure_member_ms / 60000.0, f->bad_version,
						 to, after);
			free(to);
			free(after);
		} else {
			text = xasprintf("0 member-minutes: no member had adopted %s by the halt",
					 f->bad_version);
		}
		labelled(o, "exposure", text);
		free(text);
	}
}

static void blast_lines(struct out *o, const struct obs *obs)
{
	size_t n = 0;
	const struct obs_rollout *ro = obs ? obs_rollouts(obs, &n) : NULL;

	for (size_t i = 0; i < n; i++) {
		const struct obs_rollout *r = &ro[i];
		char *list, *safe;
		size_t len = 0;

		if (!r->halted)
			continue;
		list = xmalloc(1);
		list[0] = '\0';
		for (size_t k = 0; k < r->nblast; k++) {
			size_t add = strlen(r->blast[k]) + 2;

			list = xrealloc(list, len + add + 1);
			len += (size_t)sprintf(list + len, "%s%s", k ? ", " : "", r->blast[k]);
		}
		if (r->halted_before_start && !r->blast_known)
			/* who had begun applying by then: neither carried nor told by the objects */
			txt_emit(o, "%sblast%s     not known of %zu Workspace%s: the halt predates the run\n",
				 col(o, C_BOLD), col(o, C_OFF), r->blast_total,
				 r->blast_total == 1 ? "" : "s");
		else
			txt_emit(o, "%sblast%s     %zu of %zu Workspace%s had begun applying by the halt\n",
				 col(o, C_BOLD), col(o, C_OFF), r->nblast, r->blast_total,
				 r->blast_total == 1 ? "" : "s");
		{
			char *text = xasprintf("%s/%s halted%s%s%s%s", r->ns, r->name,
					       r->halt_step >= 0 ? " in step " : "",
					       r->halt_step >= 0 ? r->steps[r->halt_step].name : "",
					       r->nblast ? ": " : "", list);

			safe = txt_clean(text, false);
			txt_wrapped(o, safe, 10, "");
			free(safe);
			free(text);
		}
		free(list);
	}
}

/*
 * The hazards the run met, in the summary too: -q and --timeline none hide
 * the timeline, and a warning must not be hidden with it.  Each distinct text
 * once, the first few in full.
 */
static void warnings_lines(struct out *o, const struct tl *tl)
{
	size_t nn = tl_notice_count(tl), shown = 0, total = 0;

	for (size_t i = 0; i < nn; i++) {
		struct tl_notice n;
		bool seen = false;

		tl_notice_get(tl, i, &n);
		if (n.severity == TL_INFO)
			continue;
		for (size_t k = 0; k < i && !seen; k++) {
			struct tl_notice p;

			tl_notice_get(tl, k, &p);
			seen = p.severity != TL_INFO && strcmp(p.text, n.text) == 0;
		}
		if (seen)
			continue;
		total++;
		if (shown < 5) {
			char *text = txt_clean(n.text, true);

			if (!shown)
				txt_emit(o, "%swarnings%s\n", col(o, C_BOLD), col(o, C_OFF));
			txt_wrapped(o, text, 10, n.severity == TL_ERROR ? C_RED : C_YELLOW);
			free(text);
			shown++;
		}
	}
	if (total > shown)
		txt_emit(o, "          … and %zu more (see the timeline)\n", total - shown);
}

static void summary(struct out *o, const struct rep_run *run)
{
	const struct oc_summary *s = run->summary;
	char end[GT_DURATION_BUFSZ], ttc[GT_DURATION_BUFSZ];

	gt_format_duration(run->end_ms, end, sizeof(end));
	/*
	 * Two times, each named: when the simulation stopped, and (below) when
	 * the change completed.  A run goes on after the change completed while
	 * scripted events are left, so the two differ and say so.
	 */
	bool done_earlier = !strcmp(run->stop, "completed") && s->completed &&
			    s->time_to_complete_ms < run->end_ms;
	const char *why = done_earlier ? "the change had completed and no scripted event "
					 "was left"
			  : !strcmp(run->stop, "completed") ? "the change completed"
			  : !strcmp(run->stop, "quiescent") ? "nothing was left to happen"
			  : !strcmp(run->stop, "horizon")   ? "the horizon"
			  : !strcmp(run->stop, "budget")    ? "the event budget was spent"
			  : !strcmp(run->stop, "loop")      ? "a zero-delay loop"
							    : run->stop;
	char head[128];

	snprintf(head, sizeof(head), "at %s, after %llu event%s:", end,
		 (unsigned long long)run->events, run->events == 1 ? "" : "s");
	if (10 + strlen("the simulation ") + strlen(head) + 1 + strlen(why) <= o->width)
		txt_emit(o, "\n%sstopped%s   the simulation %s %s\n", col(o, C_BOLD), col(o, C_OFF),
			 head, why);
	else
		txt_emit(o, "\n%sstopped%s   the simulation %s\n          %s\n", col(o, C_BOLD),
			 col(o, C_OFF), head, why);
	if (!strcmp(run->stop, "loop") || !strcmp(run->stop, "budget"))
		/* (the warnings below say why, under -q too: the timeline's notice is not printed then) */
		txt_emit(o, "          %scut short by the %s bound (see warnings below): what\n"
			"          follows is only what happened until then%s\n",
			 col(o, C_RED),
			 !strcmp(run->stop, "loop") ? "zero-delay loop" : "event budget",
			 col(o, C_OFF));
	if (s->already_complete) {
		txt_emit(o, "%scompleted%s %salready%s: every Rollout/FleetRollout was complete when\n"
			 "          the run started; no time to complete\n",
			 col(o, C_BOLD), col(o, C_OFF), col(o, C_GREEN), col(o, C_OFF));
	} else if (s->nothing_to_complete) {
		txt_emit(o, "%scompleted%s %syes%s, nothing to complete: %u Rollout%s without steps "
			 "%s\n          Ready/NoSteps, a no-op upstream (idle, never Applied while it "
			 "has\n          no steps); no time to complete\n",
			 col(o, C_BOLD), col(o, C_OFF), col(o, C_GREEN), col(o, C_OFF),
			 s->drivers_idle, s->drivers_idle == 1 ? "" : "s",
			 s->drivers_idle == 1 ? "is" : "are");
	} else if (s->completed && run->resumed_ms > 0) {
		char whole[GT_DURATION_BUFSZ];

		/* counted from the snapshot; `check` judges the whole rollout's, from the original start */
		gt_format_duration(s->time_to_complete_ms, ttc, sizeof(ttc));
		gt_format_duration(run->resumed_ms + s->time_to_complete_ms, whole, sizeof(whole));
		txt_emit(o, "%scompleted%s %syes%s, time to complete %s after the snapshot,\n"
			 "          %s from the original start\n", col(o, C_BOLD), col(o, C_OFF),
			 col(o, C_GREEN), col(o, C_OFF), ttc, whole);
		if (s->drivers_idle)
			txt_emit(o, "          (%u Rollout%s without steps: Ready/NoSteps, a no-op, "
				 "nothing to complete)\n",
				 s->drivers_idle, s->drivers_idle == 1 ? "" : "s");
	} else if (s->completed) {
		gt_format_duration(s->time_to_complete_ms, ttc, sizeof(ttc));
		txt_emit(o, "%scompleted%s %syes%s, time to complete %s\n", col(o, C_BOLD),
			 col(o, C_OFF), col(o, C_GREEN), col(o, C_OFF), ttc);
		if (s->drivers_idle)
			txt_emit(o, "          (%u Rollout%s without steps: Ready/NoSteps, a no-op, "
				 "nothing to complete)\n",
				 s->drivers_idle, s->drivers_idle == 1 ? "" : "s");
	} else {
		if (run->resumed_ms > 0) {
			char whole[GT_DURATION_BUFSZ];

			gt_format_duration(run->resumed_ms + run->end_ms, whole, sizeof(whole));
			txt_emit(o, "%scompleted%s %sno%s, censored: time to complete > %s after the\n"
				 "          snapshot, > %s from the original start\n",
				 col(o, C_BOLD), col(o, C_OFF), col(o, C_YELLOW), col(o, C_OFF), end,
				 whole);
		} else {
			txt_emit(o, "%scompleted%s %sno%s, censored: time to complete > %s\n",
				 col(o, C_BOLD), col(o, C_OFF), col(o, C_YELLOW), col(o, C_OFF), end);
		}
		if (s->drivers_idle)
			txt_emit(o, "          (%u Rollout%s without steps: Ready/NoSteps, idle, never "
				 "Applied)\n",
				 s->drivers_idle, s->drivers_idle == 1 ? "" : "s");
	}
	if (s->drivers)
		txt_emit(o, "%sdrivers%s   %u of %u Rollout/FleetRollout reached completion\n",
			 col(o, C_BOLD), col(o, C_OFF), s->drivers_completed, s->drivers);
	if (run->capacity.jobs || run->capacity.resumed) {
		const struct rep_capacity *c = &run->capacity;
		char mx[GT_DURATION_BUFSZ], mean[GT_DURATION_BUFSZ];
		char slots[32];

		gt_format_duration(c->max_wait_ms, mx, sizeof(mx));
		gt_format_duration(c->jobs ? c->total_wait_ms / (int64_t)c->jobs : 0, mean, sizeof(mean));
		if (c->capacity)
			snprintf(slots, sizeof(slots), "of %u runner%s", c->capacity,
				 c->capacity == 1 ? "" : "s");
		else
			snprintf(slots, sizeof(slots), "runners unlimited");
		txt_emit(o, "%sjobs%s      %zu, at most %u at once (%s)\n", col(o, C_BOLD),
			 col(o, C_OFF), c->jobs, c->peak, slots);
		if (c->max_wait_ms > 0)
			txt_emit(o, "          waited for a runner: mean %s, max %s\n", mean, mx);
		if (c->resumed) {
			char *line = xasprintf(
				"and %zu Job%s running when loaded, each taken to hold a runner from its "
				"status.startTime (a snapshot does not say whether its pod waited for "
				"one)%s; not counted above",
				c->resumed, c->resumed == 1 ? "" : "s",
				c->capacity && c->peak > c->capacity ? ", so more Jobs than runners ran at once"
								     : "");

			labelled(o, "", line);
			free(line);
		}
	}
	warnings_lines(o, run->tl);
	if (s->halted) {
		char at[GT_DURATION_BUFSZ];

		/* a halt before the start, on either engine: how long before where the snapshot dates it */
		if (s->halt_before_start)
			gt_format_duration(-s->halt_ms, at, sizeof(at));
		else
			gt_format_duration(s->halt_ms, at, sizeof(at));
		txt_emit(o, "%shalted%s    %syes%s, %s%s%s: %s %s%s%s (%s)\n", col(o, C_BOLD),
			 col(o, C_OFF), col(o, C_RED), col(o, C_OFF),
			 s->halt_before_start ? "" : "at ",
			 s->halt_before_start && s->halt_ms == 0 ? "" : at,
			 s->halt_before_start ? s->halt_ms < 0 ? " before the start" : "before the start" : "",
			 s->halt_kind, s->halt_ns,
			 s->halt_ns && s->halt_ns[0] ? "/" : "", s->halt_name,
			 s->halt_reason ? s->halt_reason : "");
		if (s->halt_message) {
			char *msg = txt_clean(s->halt_message, true);

			txt_wrapped(o, msg, 10, "");
			free(msg);
		}
		if (s->has_halt_value && s->halt_value_rounded) {
			char v[40], *line;

			full_g(s->halt_value, v, sizeof(v));
			line = xasprintf("the gate read %s, as the halt message gives it (4 significant "
					 "digits: the reading itself was before the snapshot)", v);
			txt_wrapped(o, line, 10, "");
			free(line);
		} else if (s->has_halt_value) {
			char v[40], *line;

			full_g(s->halt_value, v, sizeof(v));
			line = xasprintf("the gate read %s%s%s%s%s%s%s%s%s (the message rounds it to 4 "
					 "significant digits)",
					 v, s->halt_min || s->halt_max ? ", threshold" : "",
					 s->halt_min ? " min \"" : "", s->halt_min ? s->halt_min : "",
					 s->halt_min ? "\"" : "", s->halt_min && s->halt_max ? "," : "",
					 s->halt_max ? " max \"" : "", s->halt_max ? s->halt_max : "",
					 s->halt_max ? "\"" : "");
			txt_wrapped(o, line, 10, "");
			free(line);
		}
		blast_lines(o, run->obs);
		fleet_blast_lines(o, run->fleets);
	} else {
		txt_emit(o, "%shalted%s    no\n", col(o, C_BOLD), col(o, C_OFF));
	}
}

/*
 * clauses() - writes the @n @parts as one line joined by spaces, broken
 * before a part that would pass the width (the next line indented two
 * columns); a part wider than a line has one of its own.  @bold: the
 * first part is bold (the scenario's name).
 */
static void clauses(struct out *o, char *const *parts, size_t n, bool bold)
{
	size_t at = 0;

	for (size_t i = 0; i < n; i++) {
		size_t w = txt_u8_width(parts[i], strlen(parts[i]));

		if (i && at + 1 + w > o->width) {
			txt_emit(o, "\n  ");
			at = 2;
		} else if (i) {
			txt_emit(o, " ");
			at++;
		}
		txt_emit(o, "%s%s%s", bold && !i ? col(o, C_BOLD) : "", parts[i],
			 bold && !i ? col(o, C_OFF) : "");
		at += w;
	}
	txt_emit(o, "\n");
}

int rep_text(FILE *f, const struct rep_run *run, const struct rep_text_opts *opts)
{
	struct out o = { f, opts->color, false, opts->width >= 60 ? opts->width : 80, 0, 0 };
	char hz[GT_DURATION_BUFSZ];
	char *name = txt_clean(run->name, false);
	char *head[5];

	/* "NAME: seed 3, horizon 2h0m0s, 13 objects, 0 scripted events", broken after a comma */
	gt_format_duration(run->resumed_ms + run->horizon_ms, hz, sizeof(hz));
	head[0] = xasprintf("%s:", name);
	head[1] = xasprintf("seed %llu,", (unsigned long long)run->seed);
	if (run->resumed_ms > 0) {
		char left[GT_DURATION_BUFSZ];

		/* the horizon as written, on the original run's clock, and what is left of it */
		gt_format_duration(run->horizon_ms, left, sizeof(left));
		head[2] = xasprintf("horizon %s (%s left),", hz, left);
	} else {
		head[2] = xasprintf("horizon %s,", hz);
	}
	head[3] = xasprintf("%zu object%s,", run->nobjects, run->nobjects == 1 ? "" : "s");
	head[4] = xasprintf("%zu scripted event%s", run->nevents, run->nevents == 1 ? "" : "s");
	clauses(&o, head, 5, true);
	for (size_t i = 0; i < 5; i++)
		free(head[i]);
	if (run->clock_said) {
		char at[GT_RFC3339_BUFSZ];

		/*
		 * A snapshot: every time in it is read against this instant.  A
		 * line of its own, as under the trials' first line: with it the
		 * first line would pass 80 columns.
		 */
		gt_format_rfc3339(run->start_unix_ms, at, sizeof(at));
		head[0] = xasprintf("clock starts %s", at);
		head[1] = xasprintf("(%s)", run->clock_said);
		clauses(&o, head, 2, false);
		free(head[0]);
		free(head[1]);
	}
	free(name);
	if (!opts->quiet && opts->timeline != REP_TL_NONE)
		txt_timeline(&o, run, opts->timeline);
	if (!opts->quiet) {
		txt_steps_view(&o, run->obs);
		txt_waves_view(&o, run->fleets, run->start_unix_ms);
		txt_fleet_views(&o, run->obs, run->fleets, opts->timeline == REP_TL_ALL);
	}
	summary(&o, run);
	return o.err;
}
