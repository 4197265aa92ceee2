/*
 * The fleet observer's definitions on a world with no controllers: the
 * FleetRollout's and StageSets' statuses are scripted
 * (tests/scenarios/fleetobs-halt.yaml) and the controller's pass log and the
 * regression windows are given by hand, so the expectations do not depend on
 * the engines or the member model.
 */
#include <string.h>

#include "sim/cluster/apiserver.h"
#include "sim/world/des.h"
#include "sim/observe/fleetobs.h"
#include "engine/value.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define MIN (60 * 1000)

static const char *canary[] = { "t/a" };
/* When set, the pass log's rollback stamps instead of the usual two. */
static const struct frc_stamp_rec *stamps_override;
static size_t nstamps_override;
static const char *rest[] = { "t/b", "t/c" };

/* Runs the scripted world, then joins it with a pass log and @windows. */
static struct fo *run(const struct fo_window *windows, size_t nwindows, struct des **wout,
		      struct scenario *s)
{
	const char *paths[] = { "tests/scenarios/fleetobs-halt.yaml" };
	static const struct frc_gate_rec gates[] = {
		{ "shop", 12 * MIN, 0, "canary", true, 0.001, "Passing", NULL, NULL, "0.01", true },
		{ "shop", 12 * MIN + 30000, 0, "canary", true, 0.001, "Passing", NULL, NULL, "0.01",
		  true },
		{ "shop", 13 * MIN, 0, "canary", false, 0, "Unknown", "metric source unavailable",
		  NULL, "0.01", true },
	};
	static struct frc_wave_list waves[] = { { "canary", canary, 1 }, { "rest", rest, 2 } };
	static const struct frc_halt_rec halts[] = {
		{ "shop", 16 * MIN, 16 * MIN, 1, 1, "rest", false,
		  "wave \"rest\" regressed: a member is no longer adopted and Ready", "version 1.0.0",
		  "1.0.0", waves, 2 },
		{ "shop", 25 * MIN, 26 * MIN, 3, 0, "canary", true, "gate", "mixed versions", NULL,
		  NULL, 0 },
	};
	static const struct frc_stamp_rec stamps[] = {
		{ "shop", 16 * MIN, 1, "rest", "t/b", "0.9.0" },
		{ "shop", 16 * MIN, 1, "rest", "t/c", "0.9.0" },
	};
	struct fo_inputs in = { gates, 3, halts, 2, stamps, 2, windows, nwindows, 30 * MIN };

	if (stamps_override) {
		in.stamps = stamps_override;
		in.nstamps = nstamps_override;
	}
	struct des *w;
	struct fo *o;

	CU_ASSERT_EQUAL_FATAL(fx_scn_load(paths, 1, s, NULL), 0);
	w = des_new(NULL);
	o = fo_new(w, 0, s->start_unix_ms);
	fx_create_copies(w, s);
	fx_script_status(w, s);
	des_run(w, s->horizon_ms, NULL);
	fo_finish(o, &in);
	*wout = w;
	return o;
}

static const struct fo_fleet *the_fleet(const struct fo *o)
{
	size_t n;
	const struct fo_fleet *f = fo_fleets(o, &n);

	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_STRING_EQUAL(f->name, "shop");
	return f;
}

/* Opened, settled, soak end, passed, gate verdicts; halts and stamps as logged. */
static void test_waves_halts_stamps(void)
{
	struct scenario s;
	struct des *w;
	struct fo *o = run(NULL, 0, &w, &s);
	const struct fo_fleet *f = the_fleet(o);
	const struct fo_wave *c, *r;

	CU_ASSERT_EQUAL_FATAL(f->nwaves, 2);
	c = &f->waves[0];
	r = &f->waves[1];
	CU_ASSERT_STRING_EQUAL(c->name, "canary");
	CU_ASSERT_EQUAL(c->opened_ms, 0);
	CU_ASSERT_EQUAL(c->settled_ms, 2 * MIN);
	CU_ASSERT_EQUAL(c->last_settled_ms, 2 * MIN);
	CU_ASSERT_EQUAL(c->soak_until_ms, 12 * MIN);
	CU_ASSERT_EQUAL(c->soaks, 1);
	CU_ASSERT_EQUAL(c->passed_ms, 12 * MIN);
	CU_ASSERT_EQUAL(c->ngates, 3);
	CU_ASSERT_EQUAL(c->passing, 2);
	CU_ASSERT_EQUAL(c->failing, 0);
	CU_ASSERT_EQUAL(c->unknown, 1);
	/* rest opened when currentWave moved to it; the Halted status does not pass it. */
	CU_ASSERT_STRING_EQUAL(r->name, "rest");
	CU_ASSERT_EQUAL(r->opened_ms, 12 * MIN);
	CU_ASSERT_EQUAL(r->settled_ms, -1);
	CU_ASSERT_EQUAL(r->soaks, 0);
	CU_ASSERT_EQUAL(r->passed_ms, -1);
	CU_ASSERT_EQUAL(r->ngates, 0);
	CU_ASSERT_EQUAL(f->completed_ms, -1);

	CU_ASSERT_EQUAL_FATAL(f->nhalts, 2);
	CU_ASSERT_EQUAL(f->halts[0].t_ms, 16 * MIN);
	CU_ASSERT_STRING_EQUAL(f->halts[0].wave, "rest");
	CU_ASSERT_FALSE(f->halts[0].gate);
	CU_ASSERT_STRING_EQUAL(f->halts[0].reason, "Halted");
	CU_ASSERT_STRING_EQUAL(f->halts[0].version, "1.0.0");
	CU_ASSERT_EQUAL(f->halts[1].passes, 3);
	CU_ASSERT_PTR_NULL(f->halts[1].version);

	/* b came down to 0.9.0 at 18m; c refused at 20m. */
	CU_ASSERT_EQUAL_FATAL(f->nstamps, 2);
	CU_ASSERT_STRING_EQUAL(f->stamps[0].member, "t/b");
	CU_ASSERT_EQUAL(f->stamps[0].reverted_ms, 18 * MIN);
	CU_ASSERT_EQUAL(f->stamps[0].refused_ms, -1);
	CU_ASSERT_STRING_EQUAL(f->stamps[1].member, "t/c");
	CU_ASSERT_EQUAL(f->stamps[1].reverted_ms, -1);
	CU_ASSERT_EQUAL(f->stamps[1].refused_ms, 20 * MIN);
	CU_ASSERT_STRING_EQUAL(f->stamps[1].refused_reason, "DowngradeNotAllowed");
	fo_free(o);
	des_free(w);
	scn_release(&s);
}

/*
 * Blast radius at the first halt (16m, version 1.0.0): a (1m) and b (13m)
 * had adopted it, c only at 17m.  Exposure, adoption to the halt: a 1m→16m,
 * b 13m→16m = 18 member-minutes (c is not in the blast radius, and the end
 * of the run at 30m plays no part).  After the halt: b left it at 18m (its
 * downgrade), 2 member-minutes; a never did.  Onset: b went not-Ready
 * (StageFailed) on 1.0.0 at 14m; c's AwaitingApproval at 15m is a hold, not
 * a fault, and c's refusal at 20m comes after the halt.
 */
static void test_blast_onset_exposure(void)
{
	struct scenario s;
	struct des *w;
	struct fo *o = run(NULL, 0, &w, &s);
	const struct fo_fleet *f = the_fleet(o);

	CU_ASSERT_TRUE_FATAL(f->has_blast);
	CU_ASSERT_STRING_EQUAL(f->bad_version, "1.0.0");
	CU_ASSERT_EQUAL(f->halt_ms, 16 * MIN);
	CU_ASSERT_EQUAL(f->blast_count, 2);
	CU_ASSERT_EQUAL(f->blast_total, 3);
	CU_ASSERT_STRING_EQUAL(f->blast_members[0], "t/a");
	CU_ASSERT_STRING_EQUAL(f->blast_members[1], "t/b");
	CU_ASSERT_EQUAL_FATAL(f->nblast_waves, 2);
	CU_ASSERT_EQUAL(f->blast_waves[0].count, 1);
	CU_ASSERT_EQUAL(f->blast_waves[0].total, 1);
	CU_ASSERT_EQUAL(f->blast_waves[1].count, 1);
	CU_ASSERT_EQUAL(f->blast_waves[1].total, 2);
	CU_ASSERT_EQUAL(f->exposure_member_ms, 18 * MIN);
	CU_ASSERT_EQUAL(f->exposure_after_halt_member_ms, 2 * MIN);
	CU_ASSERT_EQUAL(f->remediated, 1);
	CU_ASSERT_EQUAL(f->unremediated, 1);
	CU_ASSERT_EQUAL(f->onset_ms, 14 * MIN);
	CU_ASSERT_STRING_EQUAL(f->onset_member, "t/b");
	CU_ASSERT_FALSE(f->onset_window);
	CU_ASSERT_EQUAL(f->detection_latency_ms, 2 * MIN);
	fo_free(o);
	des_free(w);
	scn_release(&s);
}

/*
 * Recoveries, Ready reasons and versions: b went Ready at 18m after
 * StageFailed (a recovery); c's Ready at 17m followed a hold, a's at 1m
 * nothing; c ends on its refusal; b's status.version at each instant.
 */
static void test_member_recovery_and_reason(void)
{
	struct scenario s;
	struct des *w;
	struct fo *o = run(NULL, 0, &w, &s);

	CU_ASSERT_TRUE(fo_member_recovered_at(o, "t/b", 18 * MIN));
	CU_ASSERT_FALSE(fo_member_recovered_at(o, "t/b", 14 * MIN));
	CU_ASSERT_FALSE(fo_member_recovered_at(o, "t/c", 17 * MIN));
	CU_ASSERT_FALSE(fo_member_recovered_at(o, "t/a", 1 * MIN));
	CU_ASSERT_FALSE(fo_member_recovered_at(o, "x/z", 18 * MIN));
	CU_ASSERT_FALSE(fo_member_recovered_at(NULL, "t/b", 18 * MIN));
	CU_ASSERT_STRING_EQUAL(fo_member_ready_reason(o, "t/c"), "DowngradeNotAllowed");
	CU_ASSERT_STRING_EQUAL(fo_member_ready_reason(o, "t/b"), "Succeeded");
	CU_ASSERT_PTR_NULL(fo_member_ready_reason(o, "x/z"));
	CU_ASSERT_PTR_NULL(fo_member_ready_reason(NULL, "t/b"));
	/* status.version over time: b took 1.0.0 at 13m and went down to 0.9.0 at 18m */
	CU_ASSERT_PTR_NULL(fo_member_version_at(o, "t/b", 13 * MIN - 1));
	CU_ASSERT_STRING_EQUAL(fo_member_version_at(o, "t/b", 13 * MIN), "1.0.0");
	CU_ASSERT_STRING_EQUAL(fo_member_version_at(o, "t/b", 18 * MIN - 1), "1.0.0");
	CU_ASSERT_STRING_EQUAL(fo_member_version_at(o, "t/b", 18 * MIN), "0.9.0");
	CU_ASSERT_STRING_EQUAL(fo_member_version_at(o, "t/b", 30 * MIN), "0.9.0");
	CU_ASSERT_PTR_NULL(fo_member_version_at(o, "x/z", 18 * MIN));
	CU_ASSERT_PTR_NULL(fo_member_version_at(NULL, "t/b", 18 * MIN));
	fo_free(o);
	des_free(w);
	scn_release(&s);
}

/*
 * At equal times a regression window is the onset before a not-Ready status
 * (b's StageFailed at 14m), and windows tie in member name order.
 */
static void test_onset_window_beats_not_ready(void)
{
	static const struct fo_window wins[] = {
		{ "t/b", 14 * MIN, "1.0.0" },
		{ "t/a", 14 * MIN, "1.0.0" },
	};
	struct scenario s;
	struct des *w;
	struct fo *o = run(wins, 2, &w, &s);
	const struct fo_fleet *f = the_fleet(o);

	CU_ASSERT_EQUAL(f->onset_ms, 14 * MIN);
	CU_ASSERT_STRING_EQUAL(f->onset_member, "t/a");
	CU_ASSERT_TRUE(f->onset_window);
	CU_ASSERT_EQUAL(f->detection_latency_ms, 2 * MIN);
	fo_free(o);
	des_free(w);
	scn_release(&s);
}

/*
 * What a member shows once a rollback-to stamp is on it is the halt's
 * effect: with b stamped at 14m, its StageFailed at 14m is not an onset,
 * and no other member faulted on 1.0.0 before the halt.
 */
static void test_onset_ignores_stamped(void)
{
	static const struct frc_stamp_rec early[] = {
		{ "shop", 14 * MIN, 1, "rest", "t/b", "0.9.0" },
	};
	struct scenario s;
	struct des *w;
	struct fo *o;
	const struct fo_fleet *f;

	stamps_override = early;
	nstamps_override = 1;
	o = run(NULL, 0, &w, &s);
	stamps_override = NULL;
	f = the_fleet(o);
	CU_ASSERT_EQUAL(f->onset_ms, -1);
	CU_ASSERT_PTR_NULL(f->onset_member);
	CU_ASSERT_EQUAL(f->detection_latency_ms, -1);
	CU_ASSERT_EQUAL(f->exposure_member_ms, 18 * MIN);
	fo_free(o);
	des_free(w);
	scn_release(&s);
}

/*
 * A regression window on the bad version before any not-Ready status is the
 * onset; windows on another version, after the halt, or of a non-member do
 * not count.
 */
static void test_onset_from_windows(void)
{
	static const struct fo_window wins[] = {
		{ "t/a", 13 * MIN + 30000, "1.0.0" },
		{ "t/a", 5 * MIN, "0.9.0" },
		{ "t/c", 17 * MIN, "1.0.0" },
		{ "x/z", 1 * MIN, "1.0.0" },
	};
	struct scenario s;
	struct des *w;
	struct fo *o = run(wins, 4, &w, &s);
	const struct fo_fleet *f = the_fleet(o);

	CU_ASSERT_EQUAL(f->onset_ms, 13 * MIN + 30000);
	CU_ASSERT_STRING_EQUAL(f->onset_member, "t/a");
	CU_ASSERT_TRUE(f->onset_window);
	CU_ASSERT_EQUAL(f->detection_latency_ms, 2 * MIN + 30000);
	fo_free(o);
	des_free(w);
	scn_release(&s);
}

/*
 * Adoption of the target (derived: the highest version reached, 1.0.0 —
 * b's rollback to 0.9.0 goes down): canary a at 1m; rest b at 13m (Ready
 * with it), c at 17m.  Progress points at the first member and at each
 * quarter crossed; members indexed to their first wave.
 */
static void test_adoption_over_time(void)
{
	struct scenario s;
	struct des *w;
	struct fo *o = run(NULL, 0, &w, &s);
	const struct fo_fleet *f = the_fleet(o);
	const struct fo_wave *c, *r;
	size_t fi = 9, wi = 9;
	int64_t st = 0;

	CU_ASSERT_EQUAL_FATAL(f->ntargets, 1);
	CU_ASSERT_STRING_EQUAL(f->targets[0], "1.0.0");
	c = &f->waves[0];
	r = &f->waves[1];
	CU_ASSERT_EQUAL_FATAL(c->nmembers, 1);
	CU_ASSERT_STRING_EQUAL(c->members[0], "t/a");
	CU_ASSERT_STRING_EQUAL(c->adoption[0].version, "1.0.0");
	CU_ASSERT_EQUAL(c->adoption[0].adopted, 1);
	CU_ASSERT_EQUAL(c->adoption[0].ready, 1);
	CU_ASSERT_EQUAL(c->adoption[0].first_ms, 1 * MIN);
	CU_ASSERT_EQUAL(c->adoption[0].all_ms, 1 * MIN);
	CU_ASSERT_EQUAL(c->adoption[0].ready_all_ms, 1 * MIN);
	CU_ASSERT_EQUAL_FATAL(r->nmembers, 2);
	CU_ASSERT_STRING_EQUAL(r->members[0], "t/b");
	CU_ASSERT_STRING_EQUAL(r->members[1], "t/c");
	CU_ASSERT_EQUAL(r->adoption[0].adopted, 2);
	CU_ASSERT_EQUAL(r->adoption[0].first_ms, 13 * MIN);
	CU_ASSERT_EQUAL(r->adoption[0].half_ms, 13 * MIN);
	CU_ASSERT_EQUAL(r->adoption[0].all_ms, 17 * MIN);
	CU_ASSERT_EQUAL(r->adoption[0].ready_half_ms, 13 * MIN);
	CU_ASSERT_EQUAL(r->adoption[0].ready_all_ms, 17 * MIN);
	CU_ASSERT_EQUAL_FATAL(r->nprogress, 2);
	CU_ASSERT_EQUAL(r->progress[0].t_ms, 13 * MIN);
	CU_ASSERT_EQUAL(r->progress[0].adopted, 1);
	CU_ASSERT_EQUAL(r->progress[0].ready, 1);
	CU_ASSERT_EQUAL(r->progress[1].t_ms, 17 * MIN);
	CU_ASSERT_EQUAL(r->progress[1].adopted, 2);
	CU_ASSERT_EQUAL(r->progress[1].ready, 2);
	CU_ASSERT_STRING_EQUAL(r->progress[1].version, "1.0.0");
	CU_ASSERT_TRUE(fo_member_wave(o, "t/c", &fi, &wi, &st));
	CU_ASSERT_EQUAL(fi, 0);
	CU_ASSERT_EQUAL(wi, 1);
	CU_ASSERT_EQUAL(st, 16 * MIN);
	CU_ASSERT_TRUE(fo_member_wave(o, "t/a", &fi, &wi, &st));
	CU_ASSERT_EQUAL(wi, 0);
	CU_ASSERT_EQUAL(st, -1);
	CU_ASSERT_FALSE(fo_member_wave(o, "x/z", &fi, &wi, NULL));
	fo_free(o);
	des_free(w);
	scn_release(&s);
}

/* A status patch setting the Ready condition of a StageSet (new). */
static struct val *ready_patch(const char *status, const char *reason)
{
	struct val *p = val_new_map();

	val_map_set(p, "conditions", fx_ready_conditions(status, reason));
	return p;
}

static void patch_c(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	CU_ASSERT_EQUAL(api_patch_status(des_api(w), "StageSet", "t", "c", arg), 0);
}

/*
 * Every refusal counts, not only a member's first: c refuses at 20m, is
 * Ready again at 32m and refuses again at 34m; stamped at 16m and at 33m,
 * each stamp is judged by the refusal that followed it.
 */
static void test_every_refusal(void)
{
	const char *paths[] = { "tests/scenarios/fleetobs-halt.yaml" };
	static const struct frc_stamp_rec stamps[] = {
		{ "shop", 16 * MIN, 1, "rest", "t/c", "0.9.0" },
		{ "shop", 33 * MIN, 1, "rest", "t/c", "0.9.0" },
	};
	struct fo_inputs in = { NULL, 0, NULL, 0, stamps, 2, NULL, 0, 40 * MIN };
	struct val *ok = ready_patch("True", "Succeeded"), *no = ready_patch("False", "DowngradeNotAllowed");
	struct scenario s;
	struct des *w;
	struct fo *o;
	const struct fo_fleet *f;

	CU_ASSERT_EQUAL_FATAL(fx_scn_load(paths, 1, &s, NULL), 0);
	w = des_new(NULL);
	o = fo_new(w, 0, s.start_unix_ms);
	fx_create_copies(w, &s);
	fx_script_status(w, &s);
	des_at(w, 32 * MIN, DES_PRIO_SCRIPT, patch_c, NULL, ok);
	des_at(w, 34 * MIN, DES_PRIO_SCRIPT, patch_c, NULL, no);
	des_run(w, 40 * MIN, NULL);
	fo_finish(o, &in);
	f = the_fleet(o);
	CU_ASSERT_EQUAL_FATAL(f->nstamps, 2);
	CU_ASSERT_EQUAL(f->stamps[0].refused_ms, 20 * MIN);
	CU_ASSERT_STRING_EQUAL(f->stamps[0].refused_reason, "DowngradeNotAllowed");
	CU_ASSERT_EQUAL(f->stamps[1].refused_ms, 34 * MIN);
	CU_ASSERT_STRING_EQUAL(f->stamps[1].refused_reason, "DowngradeNotAllowed");
	CU_ASSERT_EQUAL(f->stamps[1].reverted_ms, -1);
	fo_free(o);
	des_free(w);
	val_free(ok);
	val_free(no);
	scn_release(&s);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "adoption over time", test_adoption_over_time },
		{ "every refusal, each stamp judged by its own", test_every_refusal },
		{ "waves, halts and rollback stamps", test_waves_halts_stamps },
		{ "blast radius, onset, exposure", test_blast_onset_exposure },
		{ "onset from regression windows", test_onset_from_windows },
		{ "onset: a window before a not-Ready at a tie", test_onset_window_beats_not_ready },
		{ "onset: not what a stamp caused", test_onset_ignores_stamped },
		{ "member recovery and Ready reason", test_member_recovery_and_reason },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("fleetobs", tests);
}
