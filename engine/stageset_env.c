/*
 * The small helpers of the StageSet pass's world: the events list, error
 * setting and Go duration text.  See engine/stageset_env.h.
 */
#include "engine/stageset_env.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

void ssc_events_add(struct ssc_events *ev, int64_t at_ms, bool warning, const char *reason,
		    const char *fmt, ...)
{
	va_list ap;
	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? ev->cap * 2 : 8;
		ev->items = xreallocarray(ev->items, ev->cap, sizeof(*ev->items));
	}
	struct ssc_event *e = &ev->items[ev->n];
	memset(e, 0, sizeof(*e));
	e->at_ms = at_ms;
	e->warning = warning;
	e->reason = xstrdup(reason);
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	e->note = xmalloc((size_t)(len < 0 ? 0 : len) + 1);
	e->note[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(e->note, (size_t)(len < 0 ? 0 : len) + 1, fmt, ap);
	va_end(ap);
	ev->n++;
}

void ssc_events_take(struct ssc_events *ev, int64_t at_ms, bool warning, const char *reason, char *note)
{
	struct ssc_event *e;

	if (ev->n == ev->cap) {
		ev->cap = ev->cap ? ev->cap * 2 : 8;
		ev->items = xreallocarray(ev->items, ev->cap, sizeof(*ev->items));
	}
	e = &ev->items[ev->n];
	memset(e, 0, sizeof(*e));
	e->at_ms = at_ms;
	e->warning = warning;
	e->reason = xstrdup(reason);
	e->note = note ? note : xstrdup("");
	ev->n++;
}

void ssc_events_release(struct ssc_events *ev)
{
	if (!ev)
		return;
	for (size_t i = 0; i < ev->n; i++) {
		free(ev->items[i].reason);
		free(ev->items[i].note);
	}
	free(ev->items);
	memset(ev, 0, sizeof(*ev));
}

void ssc_err_set(struct ssc_err *e, enum ssc_errc code, const char *fmt, ...)
{
	va_list ap;
	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

