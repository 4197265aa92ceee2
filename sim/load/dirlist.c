/* The input files of a directory (dirlist.h). */
#include "sim/load/dirlist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/xalloc.h"
#include "sim/load/scenario.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int dl_list(const char *dir, struct dl_list *out)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	size_t cap = 0;

	*out = (struct dl_list){ 0 };
	if (!dp)
		return -errno;
	while ((de = readdir(dp)) != NULL) {
		struct stat sb;
		bool manifest = scn_is_manifest_name(de->d_name);

		/* A subdirectory only matters while no file is found: the caller's note is for none. */
		if (!manifest && (out->n || de->d_name[0] == '.' ||
				  (out->subdir && strcmp(de->d_name, out->subdir) >= 0)))
			continue;
		if (fstatat(dirfd(dp), de->d_name, &sb, 0) != 0)
			continue;
		if (manifest && S_ISREG(sb.st_mode)) {
			if (out->n == cap) {
				cap = cap ? 2 * cap : 16;
				out->names = xreallocarray(out->names, cap, sizeof(*out->names));
			}
			out->names[out->n++] = xstrdup(de->d_name);
		} else if (!manifest && S_ISDIR(sb.st_mode)) {
			free(out->subdir);
			out->subdir = xstrdup(de->d_name);
		}
	}
	closedir(dp);
	if (out->n) {
		free(out->subdir);
		out->subdir = NULL;
		qsort(out->names, out->n, sizeof(*out->names), cmp_str);
	}
	return 0;
}

void dl_release(struct dl_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->subdir);
	*l = (struct dl_list){ 0 };
}

char **dl_paths(const char *dir, size_t *n)
{
	struct dl_list l;
	size_t len = strlen(dir);
	char **paths = NULL;

	*n = 0;
	if (dl_list(dir, &l) == 0 && l.n) {
		paths = xcalloc(l.n, sizeof(*paths));
		for (size_t i = 0; i < l.n; i++)
			paths[i] = xasprintf("%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", l.names[i]);
		*n = l.n;
	}
	dl_release(&l);
	return paths;
}
