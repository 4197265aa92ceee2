#ifndef MAGOS_SIM_LINT_SS_SPEC_H
#define MAGOS_SIM_LINT_SS_SPEC_H

/*
 * MS284: a StageSet the controller refuses at its first pass.  The CRD
 * schema admits specs that the controller's own ValidateSpec or its
 * spec decode refuses: a recurring update window whose schedule is not a
 * five-field cron, an unknown timeZone, duplicate stage or action names, a
 * migration anchored to no stage, ...  Such a StageSet reports Ready False
 * InvalidSpec from its first pass and never reconciles (StageSet spec §1.9,
 * The rule runs the port's own parse (sst_spec_parse()) and
 * validation (ssv_validate_spec(), time zones through sim/load/tzif.h as the
 * run looks them up) and reports the controller's message.
 */

#include "sim/lint/lint.h"
#include "sim/load/scenario.h"

/*
 * lint_ss_spec() - appends to @r an MS284 error for every StageSet of @s's
 * inputs and apply events (borrowed) whose spec sst_spec_parse() or
 * ssv_validate_spec() refuses, validated at the time its first pass runs
 * (the scenario's start, or the apply event's time: update windows are
 * evaluated then), with the controller's message.  The finding sits at the
 * update window's schedule or timeZone value, or the stage name, that the
 * message names, else at the StageSet.  A StageSet with no spec map is skipped (MS001 tells it).  Cannot
 * fail (aborts on OOM).  Cost: one parse and one validation per StageSet.
 */
void lint_ss_spec(struct lint_report *r, const struct scenario *s);

#endif
