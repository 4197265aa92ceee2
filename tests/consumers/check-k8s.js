// Validates Kubernetes manifests (YAML streams) as the API server's schemas
// would, offline:
//
//   node check-k8s.js FILE...            built-in kinds: the Kubernetes API
//                                        schemas of kubernetes-models (types,
//                                        required fields, enums, formats)
//   node check-k8s.js --crds DIR FILE... also the kinds DIR's CRDs define,
//                                        against each served version's
//                                        openAPIV3Schema, unknown fields
//                                        refused as kubectl --validate=strict
//                                        does (except under
//                                        x-kubernetes-preserve-unknown-fields)
//
// Documents that are not Kubernetes objects (no apiVersion and kind, or a
// magos-sim Scenario) are passed over; a v1 List is checked item by item; a
// kind with no schema here (a third party's CRD) prints "skip".  Prints
// "ok   FILE#N KIND/NAME" or "FAIL ..." with the errors per object; exits 1
// when any failed.
'use strict';
const fs = require('fs');
const path = require('path');
const YAML = require('yaml');
const Ajv = require('ajv').default;
const addFormats = require('ajv-formats').default;

let args = process.argv.slice(2);
let crdDir = null;
if (args[0] === '--crds') {
	crdDir = args[1];
	args = args.slice(2);
}

// The CRD schemas: "group/version Kind" -> compiled validator.
const crd = new Map();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addFormat('int32', true).addFormat('int64', true).addFormat('byte', true);
// OpenAPI v3 as the API server reads it: nullable, and no unknown fields
// where the schema lists the properties.
function strict(s) {
	if (!s || typeof s !== 'object') return s;
	if (Array.isArray(s)) return s.map(strict);
	const o = {};
	for (const [k, v] of Object.entries(s)) {
		if (k.startsWith('x-kubernetes-')) continue;
		o[k] = ['properties', 'patternProperties'].includes(k)
			? Object.fromEntries(Object.entries(v).map(([p, q]) => [p, strict(q)]))
			: strict(v);
	}
	if (s.nullable && o.type) o.type = [o.type, 'null'];
	delete o.nullable;
	if (o.properties && o.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields'])
		o.additionalProperties = false;
	return o;
}
if (crdDir) {
	for (const f of fs.readdirSync(crdDir).sort()) {
		if (!/\.ya?ml$/.test(f)) continue;
		for (const d of YAML.parseAllDocuments(fs.readFileSync(path.join(crdDir, f), 'utf8'))) {
			const c = d.toJS();
			if (!c || c.kind !== 'CustomResourceDefinition') continue;
			for (const v of c.spec.versions) {
				const sch = strict(v.schema.openAPIV3Schema);
				// apiVersion, kind and metadata are the API server's, not the CRD's.
				sch.properties = Object.assign({ apiVersion: {}, kind: {}, metadata: { type: 'object' } },
					sch.properties);
				crd.set(`${c.spec.group}/${v.name} ${c.spec.names.kind}`, ajv.compile(sch));
			}
		}
	}
}

// kubernetes-models: "batch/v1 Job" -> kubernetes-models/batch/v1/Job.
function builtin(apiVersion, kind) {
	const [g, v] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
	const mod = `kubernetes-models/${g ? g + '/' : ''}${v}/${kind}`;
	try {
		return require(mod)[kind];
	} catch (e) {
		return null;
	}
}

let failed = 0;
function check(what, o) {
	const key = `${o.apiVersion} ${o.kind}`;
	let errs = null;
	if (o.apiVersion === 'v1' && o.kind === 'List') {
		(o.items || []).forEach((it, k) => check(`${what}.items[${k}]`, it));
		return;
	}
	what += ` ${o.kind}/${(o.metadata || {}).name}`;
	if (crd.has(key)) {
		const v = crd.get(key);
		if (!v(o)) errs = v.errors.map((e) => `${e.instancePath || '/'} ${e.message}` +
			(e.params.additionalProperty ? ` '${e.params.additionalProperty}'` : ''));
	} else {
		const M = builtin(o.apiVersion, o.kind);
		if (!M) {
			console.log(`skip ${what}: no schema here for ${key}`);
			return;
		}
		try {
			new M(o).validate();
		} catch (e) {
			errs = [e.message];
		}
	}
	if (errs) {
		failed++;
		console.log(`FAIL ${what}`);
		for (const e of errs.slice(0, 6)) console.log(`     ${e}`);
	} else {
		console.log(`ok   ${what}`);
	}
}
for (const file of args) {
	YAML.parseAllDocuments(fs.readFileSync(file, 'utf8')).forEach((d, i) => {
		if (d.errors.length) {
			console.log(`FAIL ${file}#${i + 1}: not YAML: ${d.errors[0].message}`);
			failed++;
			return;
		}
		const o = d.toJS();
		if (!o || typeof o !== 'object' || !o.apiVersion || !o.kind || /^magos-sim\//.test(o.apiVersion))
			return;
		check(`${file}#${i + 1}`, o);
	});
}
process.exit(failed ? 1 : 0);
