/*
 * The StageSet world's rollback store: see sim/models/stageset_world_store.h.
 */
#include "sim/models/stageset_world_store.h"

#include "engine/xalloc.h"
#include "sim/models/stageset_world_rec.h"

bool swsr_configured(const struct sw_world *w)
{
	return w->s.cfg->has_store;
}

/* The store's error text. */
static void store_error(const struct sw_world *w, struct ssc_err *err)
{
	const char *m = w->s.cfg->store.message;

	swr_set_err(err, SSC_ERR, m ? m : SCN_SW_DEFAULT_STORE_ERROR);
}

int swsr_put(struct sw_world *w, const char *key, int64_t t_ms, struct ssc_err *err)
{
	const struct scn_sw_store *st = &w->s.cfg->store;
	bool corrupt = scn_sw_in_windows(&st->corrupt, t_ms);
	size_t pos;

	if (scn_sw_in_windows(&st->put_errors, t_ms)) {
		store_error(w, err);
		return -1;
	}
	if (!si_get(&w->stored_ix, key, &pos)) {
		if (w->nstored == w->capstored) {
			w->capstored = w->capstored ? 2 * w->capstored : 16;
			w->stored_corrupt = xreallocarray(w->stored_corrupt, w->capstored,
							  sizeof(*w->stored_corrupt));
		}
		pos = w->nstored++;
		si_put(&w->stored_ix, key, pos);
	}
	w->stored_corrupt[pos] = corrupt;
	return 0;
}

enum ssc_store_get swsr_get(struct sw_world *w, const char *key, int64_t t_ms, struct ssc_err *err)
{
	size_t pos;

	if (scn_sw_in_windows(&w->s.cfg->store.get_errors, t_ms)) {
		store_error(w, err);
		return SSC_STORE_ERROR;
	}
	if (!si_get(&w->stored_ix, key, &pos))
		return SSC_STORE_MISSING;
	if (w->stored_corrupt[pos]) {
		swr_set_err(err, SSC_ERR, SCN_SW_CORRUPT_SNAPSHOT_ERROR);
		return SSC_STORE_CORRUPT;
	}
	return SSC_STORE_FOUND;
}
