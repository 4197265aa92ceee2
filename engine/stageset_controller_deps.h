#ifndef MAGOS_ENGINE_STAGESET_CONTROLLER_DEPS_H
#define MAGOS_ENGINE_STAGESET_CONTROLLER_DEPS_H

/*
 * What engine/stageset_controller.c calls in the other modules of the
 * StageSet port that have not landed yet, as the controller was written
 * against them while those modules were being written (PORT-PLAN.md).  Each section names the module
 * that provides it; when a module lands, its section here is deleted and the
 * controller includes the module's own header instead (adapting where the
 * module chose otherwise).  Nothing here is implemented in this file's
 * module: these are declarations only.
 *
 * Conventions assumed throughout: a call into the world advances @clk by the
 * durations the world reports; events go to @ev at clk->now_ms; error texts
 * are Go's err.Error() and ssc_err.code keeps the API class through wrapping
 * (isPermanentAPIError); release functions accept zeroed structs and NULL.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/value.h"

struct ssc_options;

/* ==== E-E, engine/stageset_validate.h (ssv_, webhook.go ValidateSpec) ==== */

/* ValidateSpec: 0, or -1 with *@err (new) the first error's text. */
int ssv_validate_spec(const struct obj *ss, const struct sst_spec *spec, char **err);

#endif
