/*
 * The files of a sourced migration ladder: see sim/load/ladder_files.h.
 */
#include "sim/load/ladder_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_env.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"

bool lf_under(const char *file, const char *dir)
{
	size_t l;

	while (dir[0] == '.' && dir[1] == '/')
		dir += 2;
	if (!dir[0] || strcmp(dir, ".") == 0)
		return true;
	l = strlen(dir);
	while (l > 0 && dir[l - 1] == '/')
		l--;
	return strncmp(file, dir, l) == 0 && (file[l] == '\0' || file[l] == '/');
}

int lf_parse_file(const char *path, const char *text, struct val **out, char *err, size_t errlen)
{
	struct yl_stream s;
	struct diag d;
	int rc;

	*out = NULL;
	diag_init(&d);
	rc = yl_load_string(path, text, strlen(text), &s, &d);
	if (rc != 0 || diag_has_errors(&d)) {
		const char *msg = d.n ? d.items[0].msg : "invalid document";

		snprintf(err, errlen, "yaml: line %u: %s", d.n ? d.items[0].mark.line : 0u, msg);
		yl_stream_release(&s);
		diag_release(&d);
		return -1;
	}
	if (s.n > 0)
		*out = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	return 0;
}

/* env parse_ladder_file over lf_parse_file(): the env carries no state. */
static int parse_one(void *ctx, const char *path, const char *text, struct val **out, char *err, size_t errlen)
{
	(void)ctx;
	return lf_parse_file(path, text, out, err, errlen);
}

char *lf_parse_ladder(char *const *paths, char *const *texts, size_t n, const char *dir,
		      struct mig_ladder *out)
{
	struct ssc_env env;
	char **p = xcalloc(n ? n : 1, sizeof(*p)), **t = xcalloc(n ? n : 1, sizeof(*t));
	size_t k = 0;
	char *msg;

	memset(&env, 0, sizeof(env));
	env.parse_ladder_file = parse_one;
	for (size_t i = 0; i < n; i++)
		if (lf_under(paths[i], dir)) {
			p[k] = paths[i];
			t[k++] = texts[i];
		}
	msg = mig_parse_ladder(&env, p, t, k, out);
	free(p);
	free(t);
	return msg;
}
