/*
 * A full run of a scenario on a short horizon with every renderer: the
 * terminal timeline (every transition) and summary, the run JSON, the HTML
 * report, the Chrome trace, the Mermaid gantt and the trial CSV; then two
 * trials with their statistics as tables, JSON and the Monte Carlo page.
 * The input is a scenario file; its horizon is cut to 2h and its event
 * budget and its per-instant bound to 1 000 so that one input costs
 * little even under the sanitizers on a busy machine.  Oracle: a run is a function of the
 * scenario and the seed (the same run twice gives the same outcome), and
 * trial 0 of a trial set is the plain run.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reports/html.h"
#include "reports/html_mc.h"
#include "reports/mermaid.h"
#include "reports/plan_json.h"
#include "reports/plan_text.h"
#include "reports/report.h"
#include "reports/spans.h"
#include "reports/trace.h"
#include "sim/cli/cmd.h"
#include "sim/base/limits.h"
#include "sim/plan/stats.h"
#include "sim/plan/trials.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define HORIZON_MS (2 * 3600 * 1000LL)
#define EVENTS 1000
#define TRIALS 2

static void render_run(const struct scenario *s, const struct run_result *r)
{
	FILE *f = fuzz_null();
	struct rep_run rep;
	struct rep_text_opts to = { false, false, 80, REP_TL_ALL };
	struct trial_row row;
	struct sp_set sp;

	cmd_fill_rep(&rep, s, r);
	rep_text(f, &rep, &to);
	rep_json(f, &rep);
	rep_html(f, &rep);
	sp_build(&sp, &rep);
	rep_trace(f, &rep, &sp, NULL);
	rep_mermaid(f, &rep, &sp);
	sp_release(&sp);
	trial_row_from_run(r, 0, &row);
	rep_plan_csv(f, &row, 1);
	trial_row_release(&row);
}

static void render_trials(const struct scenario *s, const struct run_opts *ro,
			  const struct run_result *r0, size_t size)
{
	FILE *f = fuzz_null();
	struct trials_opts to = { 0 };
	struct trial_row *rows = NULL;
	struct plan_stats st;
	struct rep_plan rp;
	struct rep_plan_text_opts po = { false, 80, false };
	struct rep_mc_set set;
	struct rep_mc_page pg;

	to.n = TRIALS;
	to.jobs = 1;
	to.run = *ro;
	if (trials_run(s, &to, &rows) != 0)
		return;
	if (rows[0].end_ms != r0->end_ms || rows[0].stop != r0->stop ||
	    rows[0].completed != r0->summary.completed)
		fuzz_fail("trial 0 is not the plain run", size);
	plan_stats_compute(rows, TRIALS, r0->horizon_ms, lim_default(LIM_EXACT_VALUES), &st);
	memset(&rp, 0, sizeof(rp));
	rp.name = s->name;
	rp.files = (const char *const *)s->files;
	rp.nfiles = s->nfiles;
	rp.seed = r0->seed;
	rp.horizon_ms = r0->horizon_ms;
	rp.rows = rows;
	rp.n = TRIALS;
	rp.st = &st;
	rep_plan_text(f, &rp, &po);
	rep_plan_json(f, &rp);
	set = (struct rep_mc_set){ "base", NULL, rows, TRIALS, &st };
	pg = (struct rep_mc_page){ s->name, rp.seed, r0->horizon_ms, &set, NULL, 0, NULL, NULL, 0 };
	rep_html_mc(f, &pg);
	plan_stats_release(&st);
	for (size_t i = 0; i < TRIALS; i++)
		trial_row_release(&rows[i]);
	free(rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "in.yaml");
	struct limits lim;
	struct scenario s;
	struct diag d;
	struct run_opts ro = { 0 };
	struct run_result r1 = { 0 }, r2 = { 0 };

	fuzz_limits(&lim);
	diag_init(&d);
	if (scn_load_lim(&path, 1, &lim, &s, &d) != 0 || diag_has_errors(&d))
		goto out_release;
	/* 0 means the budget derived from the object count (scn_event_budget),
	 * up to millions of events: the cap applies to it too */
	if (s.event_budget == 0 || s.event_budget > EVENTS)
		s.event_budget = EVENTS;
	if (s.events_per_instant == 0 || s.events_per_instant > EVENTS)
		s.events_per_instant = EVENTS;
	ro.horizon_set = true;
	ro.horizon_ms = s.horizon_ms < HORIZON_MS ? s.horizon_ms : HORIZON_MS;
	ro.until_horizon = size % 2; /* both ways of ending, chosen by the input */
	run_scenario(&s, &ro, &r1);
	render_run(&s, &r1);
	run_scenario(&s, &ro, &r2);
	if (r1.end_ms != r2.end_ms || r1.stop != r2.stop ||
	    des_events(r1.world) != des_events(r2.world) ||
	    r1.summary.completed != r2.summary.completed)
		fuzz_fail("two runs of the same scenario and seed differ", size);
	run_result_release(&r2);
	render_trials(&s, &ro, &r1, size);
	run_result_release(&r1);
out_release:
	scn_release(&s);
	diag_release(&d);
	return 0;
}
