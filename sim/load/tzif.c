/*
 * TZif files into engine/tz.h zones.  See tzif.h.
 */
#include "sim/load/tzif.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/xalloc.h"

#define MALFORMED "malformed time zone information"
#define MAX_FILE_SIZE (10 << 20) /* Go's maxFileSize */

/* Go's dataIO: a reader that remembers running out of data. */
struct data_io {
	const unsigned char *p;
	size_t n;
	bool error;
};

static const unsigned char *io_read(struct data_io *d, size_t n)
{
	const unsigned char *p;

	if (d->n < n) {
		d->p += d->n;
		d->n = 0;
		d->error = true;
		return NULL;
	}
	p = d->p;
	d->p += n;
	d->n -= n;
	return p;
}

static bool io_big4(struct data_io *d, uint32_t *v)
{
	const unsigned char *p = io_read(d, 4);

	if (!p)
		return false;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return true;
}

static bool io_big8(struct data_io *d, uint64_t *v)
{
	uint32_t hi, lo;

	if (!io_big4(d, &hi) || !io_big4(d, &lo))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

enum { N_UTC_LOCAL, N_STD_WALL, N_LEAP, N_TIME, N_ZONE, N_CHAR };

static bool read_counts(struct data_io *d, size_t n[6])
{
	for (int i = 0; i < 6; i++) {
		uint32_t v;

		if (!io_big4(d, &v))
			return false;
		n[i] = v;
	}
	return true;
}

static struct tz_zone *bad(char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", MALFORMED);
	return NULL;
}

struct tz_zone *tzif_parse(const char *name, const unsigned char *data, size_t len, char *err, size_t errlen)
{
	struct data_io d = { data, len, false };
	const unsigned char *p, *txzones, *abbrev;
	struct data_io txtimes, zonedata;
	size_t n[6], size = 4, nabbrev;
	bool is64 = false;
	int version;
	struct tz_type *types = NULL;
	struct tz_transition *tx = NULL;
	char *extend = NULL, **abbrs = NULL;
	struct tz_zone *z = NULL;

	p = io_read(&d, 4);
	if (!p || memcmp(p, "TZif", 4) != 0)
		return bad(err, errlen);
	p = io_read(&d, 16);
	if (!p)
		return bad(err, errlen);
	switch (p[0]) {
	case 0: version = 1; break;
	case '2': version = 2; break;
	case '3': version = 3; break;
	default: return bad(err, errlen);
	}
	if (!read_counts(&d, n))
		return bad(err, errlen);

	if (version > 1) {
		/* Skip the 32-bit block and the second header; read the 64-bit one. */
		size_t skip = n[N_TIME] * 4 + n[N_TIME] + n[N_ZONE] * 6 + n[N_CHAR] + n[N_LEAP] * 8 +
			      n[N_STD_WALL] + n[N_UTC_LOCAL] + 4 + 16;

		io_read(&d, skip);
		is64 = true;
		if (!read_counts(&d, n))
			return bad(err, errlen);
		size = 8;
	}

	p = io_read(&d, n[N_TIME] * size);
	txtimes = (struct data_io){ p, p ? n[N_TIME] * size : 0, false };
	txzones = io_read(&d, n[N_TIME]);
	p = io_read(&d, n[N_ZONE] * 6);
	zonedata = (struct data_io){ p, p ? n[N_ZONE] * 6 : 0, false };
	abbrev = io_read(&d, n[N_CHAR]);
	nabbrev = n[N_CHAR];
	io_read(&d, n[N_LEAP] * (size + 4));
	io_read(&d, n[N_STD_WALL]); /* isstd and isut flags: Go keeps them unused */
	io_read(&d, n[N_UTC_LOCAL]);
	if (d.error)
		return bad(err, errlen);

	/* The footer: "\n<POSIX TZ string>\n". */
	if (d.n > 2 && d.p[0] == '\n' && d.p[d.n - 1] == '\n') {
		extend = xmalloc(d.n - 1);
		memcpy(extend, d.p + 1, d.n - 2);
		extend[d.n - 2] = '\0';
	}

	if (n[N_ZONE] == 0)
		goto out_bad; /* Go refuses a file without zones */
	types = xcalloc(n[N_ZONE], sizeof(*types));
	abbrs = xcalloc(n[N_ZONE], sizeof(*abbrs));
	for (size_t i = 0; i < n[N_ZONE]; i++) {
		uint32_t off;
		const unsigned char *b;
		size_t idx, end;

		if (!io_big4(&zonedata, &off))
			goto out_bad;
		types[i].offset = (int32_t)off;
		if (!(b = io_read(&zonedata, 1)))
			goto out_bad;
		types[i].is_dst = b[0] != 0;
		if (!(b = io_read(&zonedata, 1)) || b[0] >= nabbrev)
			goto out_bad;
		/* byteString: up to the first NUL. */
		idx = b[0];
		for (end = idx; end < nabbrev && abbrev[end] != 0; end++)
			;
		abbrs[i] = xmalloc(end - idx + 1);
		memcpy(abbrs[i], abbrev + idx, end - idx);
		abbrs[i][end - idx] = '\0';
		types[i].abbr = abbrs[i];
	}

	tx = xcalloc(n[N_TIME] ? n[N_TIME] : 1, sizeof(*tx));
	for (size_t i = 0; i < n[N_TIME]; i++) {
		int64_t when;

		if (!is64) {
			uint32_t v;

			if (!io_big4(&txtimes, &v))
				goto out_bad;
			when = (int32_t)v;
		} else {
			uint64_t v;

			if (!io_big8(&txtimes, &v))
				goto out_bad;
			when = (int64_t)v;
		}
		if (txzones[i] >= n[N_ZONE])
			goto out_bad;
		tx[i].when = when;
		tx[i].index = txzones[i];
		/* Go does not check the order; tz_zone_new() asserts it, so refuse it here. */
		if (i > 0 && tx[i - 1].when > when)
			goto out_bad;
	}

	z = tz_zone_new(name, types, n[N_ZONE], tx, n[N_TIME], extend);
	goto out_free;

out_bad:
	bad(err, errlen);
out_free:
	if (abbrs)
		for (size_t i = 0; i < n[N_ZONE]; i++)
			free(abbrs[i]);
	free(abbrs);
	free(types);
	free(tx);
	free(extend);
	return z;
}

/*
 * Go's text of an errno (syscall.Errno.Error()): the C library's message
 * with a lower-case first letter ("is a directory", "permission denied").
 */
static void errno_text(int e, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", strerror(e));
	if (errlen > 0 && err[0] >= 'A' && err[0] <= 'Z')
		err[0] = (char)(err[0] - 'A' + 'a');
}

struct tz_zone *tzif_load(const char *dir, const char *name, char *err, size_t errlen)
{
	char *path;
	struct stat st;
	FILE *f = NULL;
	unsigned char *data = NULL;
	size_t len = 0, cap = 0;
	struct tz_zone *z = NULL;

	path = xmalloc(strlen(dir) + strlen(name) + 2);
	sprintf(path, "%s/%s", dir, name);
	if (stat(path, &st) != 0) {
		/* Only ENOENT makes Go try further and end with "unknown time zone". */
		if (errno == ENOENT)
			snprintf(err, errlen, "unknown time zone %s", name);
		else
			errno_text(errno, err, errlen);
		goto out_free_path;
	}
	if (S_ISDIR(st.st_mode)) {
		/* Go opens it and read(2) fails with EISDIR. */
		errno_text(EISDIR, err, errlen);
		goto out_free_path;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "\"%s\" is not a regular file", path);
		goto out_free_path;
	}
	f = fopen(path, "rb");
	if (!f) {
		errno_text(errno, err, errlen);
		goto out_free_path;
	}
	for (;;) {
		size_t got;

		if (len == cap) {
			cap = cap ? cap * 2 : 4096;
			data = xrealloc(data, cap);
		}
		got = fread(data + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
		if (len > MAX_FILE_SIZE) {
			snprintf(err, errlen, "time: file %s is too large", path);
			goto out_close;
		}
	}
	if (ferror(f)) {
		errno_text(EIO, err, errlen);
		goto out_close;
	}
	z = tzif_parse(name, data, len, err, errlen);
out_close:
	fclose(f);
	free(data);
out_free_path:
	free(path);
	return z;
}

/* ---- cache ------------------------------------------------------------- */

struct tzif_entry {
	char *name;
	struct tz_zone *zone; /* NULL: failed with err */
	char *err;
};

void tzif_cache_init(struct tzif_cache *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->dir = xstrdup(dir ? dir : TZIF_SYSTEM_DIR);
}

void tzif_cache_release(struct tzif_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->items[i].name);
		tz_zone_free(c->items[i].zone);
		free(c->items[i].err);
	}
	free(c->items);
	free(c->dir);
	memset(c, 0, sizeof(*c));
}

const struct tz_zone *tzif_cache_find(void *cache, const char *name, char *err, size_t errlen)
{
	struct tzif_cache *c = cache;
	size_t lo = 0, hi = c->n;
	struct tzif_entry *e;
	char buf[TZ_ERRLEN];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(c->items[mid].name, name);

		if (cmp == 0) {
			e = &c->items[mid];
			if (!e->zone)
				snprintf(err, errlen, "%s", e->err);
			return e->zone;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->items = xrealloc(c->items, c->cap * sizeof(*c->items));
	}
	memmove(c->items + lo + 1, c->items + lo, (c->n - lo) * sizeof(*c->items));
	c->n++;
	e = &c->items[lo];
	buf[0] = '\0';
	e->name = xstrdup(name);
	e->zone = tzif_load(c->dir, name, buf, sizeof(buf));
	e->err = e->zone ? NULL : xstrdup(buf);
	if (!e->zone)
		snprintf(err, errlen, "%s", buf);
	return e->zone;
}
