#ifndef MAGOS_ENGINE_FLEET_VIEW_H
#define MAGOS_ENGINE_FLEET_VIEW_H

/*
 * The human view `stagesetctl fleet NAME` prints of a FleetRollout: a header
 * with the version label, the phase and current wave, the Ready reason when
 * not True, then per wave its counts from status.waves and every member that
 * matches the wave's selector, marked adopted-and-Ready, adopted-but-not-Ready
 * (regressed) or held.  Pure: the caller hands in the objects.
 *
 * Source: metio/stageset-controller@f2c7604 internal/cli/fleet.go runFleet,
 *         writeFleetView, waveState, memberAdopted, stageSetReady
 * Deviations: members are resolved from the objects given (the CLI lists
 *         the cluster itself); nothing else.
 */

#include <stddef.h>

#include "engine/objects.h"

/*
 * fv_write_fleet_view() - the view's text, lines ending in '\n'.
 * @fr:         the FleetRollout (borrowed).
 * @stagesets:  every StageSet (borrowed), any order; @nstagesets of them.
 * @namespaces: every Namespace (borrowed), for the namespaceSelector.
 * Returns: a new string (caller frees).  Cannot fail (aborts on OOM).
 */
char *fv_write_fleet_view(const struct obj *fr, const struct obj *const *stagesets,
			  size_t nstagesets, const struct obj *const *namespaces,
			  size_t nnamespaces);

#endif
