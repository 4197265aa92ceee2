#ifndef MAGOS_SIM_LINT_SS_RESET_H
#define MAGOS_SIM_LINT_SS_RESET_H

/*
 * A reset-scope token burned by a pass that stops early:
 *   MS259  a scenario `annotate` or `patch` event stamps
 *          stages.metio.wtf/reset-scope on a StageSet while the StageSet
 *          world fails its first stage (a `regress` event's fault window,
 *          or an apply failure of certain probability whose window covers
 *          the stamp), and a later stage has Version-scoped pre or post
 *          actions: the pass that reads the token clears every stage's
 *          version ledger in memory and records the token as handled, but
 *          stops at the failing stage, and the status it writes keeps the
 *          later stages' ledgers as they were; the next passes see the token
 *          handled, so those actions never run again (StageSet spec R-16,
 *          §5 Q-11).
 * The run tells the same when it happens (sim/run/ss_hazards_reset.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_failing_at() - why the StageSet world fails stage @stage of
 * StageSet @ss at scenario time @t_ms (ms) for certain, in words into @buf
 * (@len bytes): a regress event whose fault window covers @t_ms (it fails
 * the workload of every stage), or an apply failure of probability 1 whose
 * `during` window does.  Returns false, @buf untouched, when it need not
 * fail then.  Everything borrowed.  Cannot fail.
 * Cost: O(scenario fault events + world rules).
 */
bool lint_ss_failing_at(const struct scenario *s, const struct obj *ss, const char *stage, int64_t t_ms, char *buf,
			size_t len);

/*
 * lint_ss_reset() - appends to @r the findings of MS259 over the events of
 * @s (borrowed) that stamp reset-scope on a StageSet of its inputs.  Works
 * on a partially loaded scenario (a StageSet whose spec does not parse is
 * skipped: MS001 tells it).  Cannot fail (aborts on OOM).
 * Cost: O(events × (events + stages × actions)).
 */
void lint_ss_reset(struct lint_report *r, const struct scenario *s);

#endif
