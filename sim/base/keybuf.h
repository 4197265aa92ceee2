/*
 * keybuf - "a/b" and "a/b/c" lookup keys built into a caller's stack buffer,
 * and length-prefixed key fields (kb_field()),
 * falling back to the heap only when they do not fit: the per-pass lookups
 * of the StageSet world and its wiring (namespace/name, namespace/name/stage)
 * then allocate nothing in the common case.
 */
#ifndef MAGOS_SIM_BASE_KEYBUF_H
#define MAGOS_SIM_BASE_KEYBUF_H

#include <stddef.h>

/*
 * kb_join2() - "@a/@b" into @buf (@len bytes) when it fits, else into a new
 * string.  @a and @b are NUL-terminated.  Returns @buf or the new string;
 * release it with kb_drop(result, buf).  Aborts through xalloc on OOM.
 */
char *kb_join2(char *buf, size_t len, const char *a, const char *b);

/* kb_join_sep() - "@a@sep@b" (one separator byte @sep), as kb_join2(). */
char *kb_join_sep(char *buf, size_t len, const char *a, char sep, const char *b);

/* kb_join3() - "@a/@b/@c", as kb_join2(). */
char *kb_join3(char *buf, size_t len, const char *a, const char *b, const char *c);

/* kb_drop() - frees @k when it is not @buf (a kb_join2()/kb_join3() result). */
void kb_drop(char *k, const char *buf);

/*
 * kb_field() - appends "<strlen(@str)>:<@str>" at @p, a length-prefixed
 * field, so that keys made of several fields are unambiguous whatever bytes
 * the fields hold (the Rollout and FleetRollout adapters' group and label-set
 * keys).  Writes no NUL.  @p must have room for strlen(@str) + 21 bytes (the
 * digits of a size_t and the ':').  Returns the end of what it wrote.
 */
char *kb_field(char *p, const char *str);

#endif
