#ifndef MAGOS_SIM_LOAD_DIRLIST_H
#define MAGOS_SIM_LOAD_DIRLIST_H

/*
 * The input files of a directory given as an input, listed one way for
 * every command: its regular files whose names scn_is_manifest_name()
 * accepts (*.yaml, *.yml, *.json, not hidden), in byte order of their
 * names; a symbolic link counts as what it points to; the walk is not
 * recursive.  The loader (`run DIR`), `check DIR` (which splits a folder of
 * scenarios into inputs) and `lint DIR` use it, so that each reads the same
 * files in the same order.
 *
 * Bounds: none here; a listing holds every entry that qualifies, and the
 * loader bounds what it reads (LIM_FILES, sim/base/limits.h).
 */

#include <stddef.h>

/* A directory's input files. */
struct dl_list {
	char **names; /* @n entry names (no directory part), sorted by strcmp(); owned */
	size_t n;
	char *subdir; /* when @n is 0: the first subdirectory by name that is not hidden, else NULL; owned */
};

/*
 * dl_list() - the input files of directory @dir into @out.
 * @dir: a directory path (NUL-terminated).
 * @out: filled; release with dl_release(), whatever the result.
 * Returns: 0, or -errno when @dir cannot be opened as a directory (ENOENT,
 *          ENOTDIR, EACCES, ...: @out is then empty).  An entry that cannot
 *          be examined (it vanished, a dangling link) is left out.
 * Errors:  out of memory ends the program (engine/xalloc.h).
 * Cost:    one stat per entry with an input file's name, one per other
 *          entry that may be the first subdirectory; O(n log n) to sort.
 */
int dl_list(const char *dir, struct dl_list *out);

/* dl_release() - frees what @l owns; @l is empty again.  Accepts NULL. */
void dl_release(struct dl_list *l);

/*
 * dl_paths() - the input files of @dir (as dl_list() finds them) as paths:
 * "@dir/<name>", or "@dir<name>" when @dir ends in '/'.
 * @n: receives the count.
 * Returns: a new array of @n new strings (caller frees each and the array),
 *          sorted; NULL with *@n 0 when @dir is no directory that can be read
 *          or holds no input file (the loader then says what is wrong).
 * Errors:  out of memory ends the program.
 */
char **dl_paths(const char *dir, size_t *n);

#endif
