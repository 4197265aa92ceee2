#ifndef MAGOS_SIM_LADDER_FILES_H
#define MAGOS_SIM_LADDER_FILES_H

/*
 * The files of a sourced migration ladder (spec.migrationsSourceRef) read
 * as the StageSet controller reads them: which files its path selects and
 * how one file parses.  The controller port (sim/wire/stageset_rc_env.c)
 * hands them to the engine; lint and the run's notices read the ladders a
 * scenario's sources model holds (spec.models.sources[].files, .updates)
 * the same way.
 */

#include <stdbool.h>
#include <stddef.h>

#include "engine/stageset_migrations.h"
#include "engine/value.h"

/*
 * lf_under() - whether artifact file @file lies under the ladder path @dir:
 * "" and "." hold everything (a leading "./" is dropped, trailing slashes
 * too); else @dir itself and what lies below it.
 * Source: the artifact layout the StageSet controller's ladder fetch walks
 * (StageSet spec §3.4 migrationsSourceRef `path`).
 */
bool lf_under(const char *file, const char *dir);

/*
 * lf_parse_file() - one ladder file @text (named @path in messages) as
 * sigs.k8s.io/yaml's first step reads it.  The project's YAML loader
 * stands in for go-yaml v2: plain scalars resolve with the core schema and
 * a syntax error keeps libyaml's problem text (go-yaml v2 is a port of
 * libyaml and words it the same), prefixed as go-yaml prefixes it.
 * @out:  receives the first document (new; NULL for an empty file).
 * @err:  receives `yaml: line N: <problem>` on error (@errlen bytes).
 * Returns: 0, or -1 on a syntax error.
 */
int lf_parse_file(const char *path, const char *text, struct val **out, char *err, size_t errlen);

/*
 * lf_parse_ladder() - the ladder the controller builds from the @n files
 * @paths / @texts (sorted by path; borrowed) under @dir (lf_under()):
 * mig_parse_ladder() with lf_parse_file().
 * @out: filled on success (release with mig_ladder_release()).
 * Returns: NULL, or a new message (caller frees) as mig_parse_ladder().
 */
char *lf_parse_ladder(char *const *paths, char *const *texts, size_t n, const char *dir,
		      struct mig_ladder *out);

#endif
