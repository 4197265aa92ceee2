#ifndef MAGOS_SIM_MANIFEST_H
#define MAGOS_SIM_MANIFEST_H

/*
 * Manifests → admitted objects.  A manifest document is one object, or a
 * `kind: List` (apiVersion v1, `items`), which is what `kubectl get -o yaml`
 * prints and is unpacked here.  Every object goes through adm_admit()
 * (sim/cluster/admission.h); the set then rejects a second object with the same
 * (kind, namespace, name) as the API server would ("already exists"), with a
 * note at the first.
 *
 * Documents of kinds the simulator does not model are accepted and listed
 * in `ignored` (sim/cluster/admission.h, "Ignored objects"); reporting them is the
 * caller's business (sim/load/scenario.c prints one note).
 *
 * Invariants of a set: objects keep input order; no two share (kind, ns,
 * name); every obj.src.file points at a file name owned by the set.
 */

#include <stddef.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"

/* A document accepted but not simulated (adm_admit() gave ADM_IGNORED). */
struct man_ignored {
	char *text;           /* owned: adm_describe_ignored() */
	const char *file;     /* borrowed from the set's file names */
	struct val_mark mark; /* where the document starts */
};

/*
 * The identity a rejected document claimed (adm_identity()), so that what
 * refers to it later is not reported again as "not found": the document's
 * own errors already say why it is missing.  A Workspace's claimed labels
 * and project come with it, so that a Rollout step that would select it is
 * not reported as matching nothing either (lint MS101).
 */
struct man_rejected {
	char *kind, *ns, *name; /* owned; ns "" for cluster-scoped kinds */
	/*
	 * metadata.labels as written, when it is a map of strings
	 * (labels_known); otherwise labels is empty and labels_known false:
	 * what the document would select by is not known.
	 */
	struct obj_strmap labels;
	bool labels_known;
	char *project; /* owned: spec.projectRef.name when a string, else NULL */
};

struct man_set {
	struct obj **objs; /* owned, n of them, in input order */
	size_t n, cap;
	struct man_ignored *ignored; /* owned, nignored of them, in input order */
	size_t nignored;
	struct man_rejected *rejected; /* owned, nrejected of them: documents adm_admit()
					* refused (duplicates not included) */
	size_t nrejected;
	size_t nrefused; /* manifests refused: each object (a List's items each, a
			  * whole List refused as one) adm_admit() or the duplicate
			  * check turned away */
	/*
	 * The first duplicate whose two objects differ in carrying a status: a
	 * snapshot given with the manifests it was taken of.  The file and
	 * place of the one without a status (the file borrowed from the set's
	 * names); NULL when there was none.
	 */
	const char *snapdup_file;
	struct val_mark snapdup_mark;
	/* private: */
	char **files;      /* owned file names the objects' src.file point at */
	size_t nfiles;
	size_t *slots;     /* open-addressing index of objs by identity (index + 1; 0 empty) */
	size_t nslots;
};

/*
 * man_rejected_release() - frees the strings of @n entries of @r and the
 * array itself (as taken from a set); accepts NULL.
 */
void man_rejected_release(struct man_rejected *r, size_t n);

/* man_set_init() - empty set.  man_set_release() frees the objects and names; accepts NULL. */
void man_set_init(struct man_set *s);
void man_set_release(struct man_set *s);

/*
 * man_load_doc() - admit one document (an object or a List of objects) into @s.
 * @file: file name for diagnostics (copied into the set).
 * @doc:  document root (borrowed, not modified).
 * @s:    set to add to; objects that pass are added even when others fail.
 * @d:    diagnostics sink.
 * Returns: 0, or -1 when any problem was reported.
 */
int man_load_doc(const char *file, const struct val *doc, struct man_set *s, struct diag *d);

/*
 * man_load_docs() - man_load_doc() for every document of @st (borrowed).
 * Returns: 0, or -1 when any document had a problem (all are still tried).
 */
int man_load_docs(const struct yl_stream *st, struct man_set *s, struct diag *d);

/*
 * man_load_file() - yl_load_file() then man_load_docs().
 * Returns: 0, or -1 (I/O, YAML or admission problems in @d; the documents
 *          that loaded are still admitted so that all problems show).
 */
int man_load_file(const char *path, struct man_set *s, struct diag *d);

/*
 * man_find() - borrowed pointer to the object with this identity (@ns "" or
 * NULL for cluster-scoped kinds), or NULL.  Cost: O(1) expected.
 */
struct obj *man_find(const struct man_set *s, const char *kind, const char *ns, const char *name);

/*
 * man_take() - hands the objects over to the caller: returns the array of
 * s->n objects (new; the caller frees each with obj_free and the array with
 * free) and empties @s.  Their src.file still points into @s, which must
 * therefore be released only after the objects (or keep the names alive).
 */
struct obj **man_take(struct man_set *s, size_t *n);

#endif
