// Validates JSON documents against a JSON Schema with Ajv, formats checked
// (ajv-formats): draft 2020-12 (magos-sim's own schemas, strict mode) or
// draft-04 (the SARIF 2.1.0 schema, which predates strict mode's rules).
//
//   node validate-json.js SCHEMA FILE...      (FILE '-' reads stdin)
//   node validate-json.js --lines SCHEMA FILE (one document per line: JSON Lines)
//
// Prints "ok   FILE" or "FAIL FILE" with the first errors (instance path and
// message) for each document, and exits 1 when any failed.  A schema that is
// itself invalid fails before any document is read.
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020').default;
const addFormats = require('ajv-formats').default;

let args = process.argv.slice(2);
const lines = args[0] === '--lines';
if (lines) args = args.slice(1);
if (args.length < 2) {
	console.error('usage: node validate-json.js [--lines] SCHEMA FILE...');
	process.exit(2);
}
const schema = JSON.parse(fs.readFileSync(args[0], 'utf8'));
let ajv;
if (/draft-04/.test(schema.$schema || '')) {
	const AjvDraft04 = require('ajv-draft-04').default;
	// Its language pattern has a stray ']' that only a non-Unicode RegExp accepts.
	ajv = new AjvDraft04({ strict: false, allErrors: true, unicodeRegExp: false });
} else {
	ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
}
addFormats(ajv);
const validate = ajv.compile(schema);

let failed = 0;
function check(name, text) {
	let doc;
	try {
		doc = JSON.parse(text);
	} catch (e) {
		console.log(`FAIL ${name}: not JSON: ${e.message}`);
		failed++;
		return;
	}
	if (validate(doc)) {
		console.log(`ok   ${name}`);
		return;
	}
	failed++;
	console.log(`FAIL ${name}`);
	for (const e of validate.errors.slice(0, 8))
		console.log(`     ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
}
for (const f of args.slice(1)) {
	const text = fs.readFileSync(f === '-' ? 0 : f, 'utf8');
	if (!lines) {
		check(f, text);
		continue;
	}
	const docs = text.split('\n');
	if (docs[docs.length - 1] === '') docs.pop();
	if (docs.length === 0) {
		console.log(`FAIL ${f}: no line`);
		failed++;
	}
	docs.forEach((l, i) => check(`${f}:${i + 1}`, l));
}
process.exit(failed ? 1 : 0);
