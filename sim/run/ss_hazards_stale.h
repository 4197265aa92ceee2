#ifndef MAGOS_SIM_SS_HAZARDS_STALE_H
#define MAGOS_SIM_SS_HAZARDS_STALE_H

/*
 * The StageSet status fields a run saw left behind what the cluster ran,
 * told at its end as timeline notices with the run's numbers and what to
 * change, each one what lint says of the manifests
 * (sim/lint/lint_ss_stale.h) as it happened:
 *
 *  - a soak of the last stage (StageSet spec R-21, §5 Q-21, lint's MS262):
 *    Soaking statuses naming the StageSet's last stage (its spec at the end
 *    of the run) during an adoption attempt of the adapter, from the first
 *    of them to the Succeeded status that wrote status.version (or the end
 *    of the run); told with the version every stage then ran, the one
 *    status.version still named (the attempt's starting version) and how
 *    long, preferring an attempt from an earlier version over a first
 *    adoption (info);
 *  - a gate revert to a stale snapshot (S-14, §5 Q-27, lint's MS263): a
 *    Warning PromotionBlocked "stage X ... failed; rolled back to revision
 *    R" after one or more Succeeded statuses that changed
 *    lastAppliedRevisions without writing lastAppliedSnapshot (so with
 *    rollbackOnFailure off) since the last one that wrote it; told with the
 *    versions of those successes, from the adapter's attempts (warning);
 *  - a removed stage's objects kept (R-20, §5 Q-28, lint's MS264): the
 *    StageInventory shard of a stage that left the spec, which the
 *    adapter reports kept past the pass that first ran without the stage
 *    (ssrc_member_stat.orphans); told with how long, until which success,
 *    and the Ready reasons of the holding passes between (warning);
 *  - objects dropped from a kept stage's render left behind (R-20, §5
 *    Q-28, lint's MS282): the adapter's survivors
 *    (ssrc_member_stat.survivors), each an object that the pass which
 *    applied the render without it left in the cluster and in no
 *    StageInventory, ending short of a full success; told with that pass's
 *    end and how, and how long it stayed (warning);
 *  - an approved transition held again (R-14, §5 Q-22, lint's MS265): an
 *    AwaitingApproval status for the version of the adoption attempt that
 *    had already written status.stages since the last adoption (a stage
 *    reached); told with that first stage status, the last change of
 *    stages.metio.wtf/approved-version before it, and until the next
 *    status of another reason (warning);
 *  - passes that wrote nothing (R-13, §5 Q-23, lint's MS266): the
 *    adapter's count of passes that failed at the version plan with a
 *    transient error and wrote no status (ssrc_member_stat.silent_errors);
 *    told with their span, the first error, the last status written before
 *    them (what readers saw) and the first after (warning);
 *  - the same for the StageLedger and StageInventory reads (R-17, R-18,
 *    §5 Q-23, lint's MS283): passes that failed reading them with an API
 *    error (ssrc_member_stat.read_errors), told the same way, with which
 *    read failed (warning);
 *  - approvals and passes racing (R-14, §5 Q-32; the stale approval is
 *    lint's MS267): an AwaitingApproval status for the version the
 *    approval annotation already named when it was written (the pass had
 *    read the StageSet before the stamp; info), and an approval of a
 *    version held before while a newer one is held, or followed by a hold
 *    of a newer one (warning);
 *  - a pendingVersion left behind (R-7, R-8, R-12, R-14, §5 Q-23, lint's
 *    MS279): a status write after an AwaitingApproval hold that neither
 *    holds again nor touches status.pendingVersion (the pass stopped
 *    before the approval gate: DependencyNotReady, SourceNotReady,
 *    StageFailed at the target connection, ...); told with the hold, the
 *    first such write, how many, until which write cleared it, and an
 *    approval of the held version in between.  The holds of an update
 *    window or an error budget are Q-9's and Q-10's (warning);
 *  - an approval reused (R-14, §5 Q-22, lint's MS280): an adoption attempt
 *    under approvalMode Always (the StageSet's at the end of the run) from
 *    a deployed version to the one stages.metio.wtf/approved-version named
 *    when it started, while an adoption of another version ended after
 *    that value was set, and the value either came with the manifest or
 *    its version had been adopted once already before that other one (a
 *    FleetRollout's stamp of its target ahead of a first adoption is the
 *    fleet approving); told with the transition, the approval and the
 *    adoption in between (warning).
 *
 * Figures come from the timeline (status writes, their changed fields,
 * Events, annotation changes), the store at the end of the run and the StageSet controller
 * adapter's adoption attempts and inventory (sim/wire/stageset_rc.h).
 */

#include "sim/load/scenario.h"
#include "sim/run/run.h"

/*
 * ss_hazards_stale() - adds the notices above to @r's timeline, dated at
 * the end of the run.  Call after the run ended (r->end_ms set).  Cannot
 * fail (aborts on OOM).
 * Cost: O(timeline entries + StageSets × attempts).
 */
void ss_hazards_stale(struct run_result *r);

#endif
