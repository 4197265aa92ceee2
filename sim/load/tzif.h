#ifndef MAGOS_SIM_LOAD_TZIF_H
#define MAGOS_SIM_LOAD_TZIF_H

/*
 * IANA time zones from TZif files (RFC 8536), read as Go's time package
 * reads them, into engine/tz.h zones: the simulator's side of
 * time.LoadLocation for the StageSet port's update windows (the engine asks
 * for a zone through its env's time_zone callback and does no I/O itself).
 *
 * The zones come from the system's tz database, /usr/share/zoneinfo
 * (Debian package tzdata; scripts/install-deps.sh installs it), so a window
 * in "Europe/Berlin" switches to summer time when the controller would.
 *
 * Source: Go 1.26 src/time/zoneinfo_read.go LoadLocationFromTZData,
 *         loadTzinfoFromDirOrZip, readFile (the 10 MB cap), loadLocation
 *         (error texts), zoneinfo.go LoadLocation.
 * Deviations: one directory is searched (Go also tries /usr/share/lib/zoneinfo,
 *         /usr/lib/locale/TZ, /etc/zoneinfo and the time/tzdata copy built into
 *         the controller, which name the same zones); a path that is not a
 *         regular file or directory (a FIFO, a device) is refused instead of
 *         read.
 */

#include <stddef.h>

#include "engine/tz.h"

/* The directory Go's LoadLocation reads first on Linux. */
#define TZIF_SYSTEM_DIR "/usr/share/zoneinfo"

/*
 * tzif_parse() - LoadLocationFromTZData(@name, @data): a zone from the
 * bytes of a TZif file (version 1, or the 64-bit block of versions 2 and 3,
 * and the footer's POSIX TZ string).
 * @name: the zone's name, copied.
 * @data, @len: the file's bytes, borrowed.
 * @err:  on failure receives "malformed time zone information" (Go's only
 *        text for a bad file), truncated to @errlen.
 * Returns: a new zone (caller frees with tz_zone_free()), or NULL.
 */
struct tz_zone *tzif_parse(const char *name, const unsigned char *data, size_t len, char *err, size_t errlen);

/*
 * tzif_load() - the zone @name from directory @dir ("<dir>/<name>"), as
 * LoadLocation finds it there.  Does not apply LoadLocation's name rules
 * ("", "UTC", "Local", "..", a leading slash): tz_load_location() does that
 * before it asks.
 * @err: receives Go's text on failure: "unknown time zone <name>" when
 *       there is no such file, "is a directory", "time: file <path> is too
 *       large" over 10 MB, "malformed time zone information", another read
 *       error's strerror text, or `"<path>" is not a regular file`.
 * Returns: a new zone (caller frees with tz_zone_free()), or NULL.
 */
struct tz_zone *tzif_load(const char *dir, const char *name, char *err, size_t errlen);

/*
 * A cache of loaded zones by name, so a caller can hand out borrowed zones
 * (struct ssc_env's time_zone callback) and read each file once.  Failed
 * names are remembered with their error.
 */
struct tzif_cache {
	char *dir;
	struct tzif_entry *items; /* sorted by name */
	size_t n, cap;
};

/* tzif_cache_init() - an empty cache over directory @dir (copied; NULL: TZIF_SYSTEM_DIR). */
void tzif_cache_init(struct tzif_cache *c, const char *dir);

/* tzif_cache_release() - frees the cache and every zone in it.  Accepts NULL. */
void tzif_cache_release(struct tzif_cache *c);

/*
 * tzif_cache_find() - the zone @name (loaded on first use), or NULL with the
 * error text in @err.  Matches tz_find_fn with @ctx the cache.
 * Returns: a zone borrowed from the cache, valid until tzif_cache_release().
 * Cost: O(log n) after the first load of a name.
 */
const struct tz_zone *tzif_cache_find(void *cache, const char *name, char *err, size_t errlen);

#endif
