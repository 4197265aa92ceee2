// Checks a Chrome trace strictly against the Trace Event Format (the JSON
// Object Format: {"traceEvents": [...], "otherData": {...}}) and against
// what viewers old and new need to show it as meant:
//   - every event has name, ph, pid and tid (integers), ts (a number) but
//     metadata; ph is one of the phases written here (X, i, C, M) with its
//     own fields right: X a dur >= 0, i a scope s of g, p or t, C numeric
//     args, M a known metadata name with args.name or args.sort_index;
//   - no tid 0 (Perfetto merged tids 0 and 1 until 2025);
//   - in each process the thread ids follow the display order
//     (thread_sort_index equals the tid, so viewers that ignore the sort
//     index, older Perfetto, show the same order);
//   - no displayTimeUnit (older trace processors took it for the unit of
//     ts), and only the top-level keys of the format;
//   - no counter series named "value" (shown as "NAME value");
//   - the complete events of one thread nest (a slice that overlaps its
//     parent's end is cut or dropped by Perfetto).
// Usage: node check-trace.js FILE.  Prints "ok   ..." / "FAIL ..." lines,
// exits 1 when any check failed.
'use strict';
const fs = require('fs');

const file = process.argv[2];
const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
let failed = 0;
function say(good, what, detail) {
	console.log(`${good ? 'ok  ' : 'FAIL'} ${what}`);
	if (!good) {
		failed++;
		if (detail) console.log(`     ${detail}`);
	}
}
const isInt = (v) => Number.isInteger(v);
const top = Object.keys(doc);
const allowedTop = ['traceEvents', 'otherData', 'systemTraceEvents', 'stackFrames', 'samples',
	'controllerTraceDataKey', 'metadata'];
say(Array.isArray(doc.traceEvents), 'traceEvents is an array');
say(top.every((k) => allowedTop.includes(k)), 'only the format\'s top-level keys, no displayTimeUnit',
	top.filter((k) => !allowedTop.includes(k)).join(', '));
const ev = doc.traceEvents || [];
const bad = (pred) => ev.filter(pred);
const show = (a) => a.slice(0, 2).map((e) => JSON.stringify(e)).join(' ');
let b = bad((e) => typeof e.name !== 'string' || typeof e.ph !== 'string' || !isInt(e.pid) || !isInt(e.tid));
say(b.length === 0, 'every event has a name, a phase and integer pid and tid', show(b));
b = bad((e) => e.ph !== 'M' && typeof e.ts !== 'number');
say(b.length === 0, 'every event but metadata has a numeric ts', show(b));
b = bad((e) => !['X', 'i', 'C', 'M'].includes(e.ph));
say(b.length === 0, 'phases are X, i, C or M', show(b));
b = bad((e) => e.ph === 'X' && !(typeof e.dur === 'number' && e.dur >= 0));
say(b.length === 0, 'complete events have dur >= 0', show(b));
b = bad((e) => e.ph === 'i' && !['g', 'p', 't'].includes(e.s));
say(b.length === 0, 'instants have a scope g, p or t', show(b));
b = bad((e) => e.ph === 'C' && (!e.args || !Object.keys(e.args).length ||
	Object.values(e.args).some((v) => typeof v !== 'number')));
say(b.length === 0, 'counters have numeric series only', show(b));
b = bad((e) => e.ph === 'C' && e.args && 'value' in e.args);
say(b.length === 0, 'no counter series is named "value"', show(b));
const metaNames = ['process_name', 'process_labels', 'process_sort_index', 'thread_name', 'thread_sort_index'];
b = bad((e) => e.ph === 'M' && (!metaNames.includes(e.name) || !e.args ||
	(/_name$|_labels$/.test(e.name) ? typeof e.args.name !== 'string' : !isInt(e.args.sort_index))));
say(b.length === 0, 'metadata events are known ones with their argument', show(b));
b = bad((e) => e.tid === 0);
say(b.length === 0, 'no event uses tid 0', show(b));
// Display order: thread_sort_index = tid, so ordering by tid is the same.
b = bad((e) => e.ph === 'M' && e.name === 'thread_sort_index' && e.args.sort_index !== e.tid);
say(b.length === 0, 'every thread_sort_index equals its tid (tids in display order)', show(b));
const named = new Set(ev.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}/${e.tid}`));
b = bad((e) => e.ph !== 'M' && e.ph !== 'C' && !named.has(`${e.pid}/${e.tid}`));
say(b.length === 0, 'every thread with events has a name', show(b));
// Nesting of complete events per thread.
const byThread = new Map();
for (const e of ev) if (e.ph === 'X') {
	const k = `${e.pid}/${e.tid}`;
	if (!byThread.has(k)) byThread.set(k, []);
	byThread.get(k).push(e);
}
const overlaps = [];
for (const [k, xs] of byThread) {
	xs.sort((p, q) => p.ts - q.ts || q.dur - p.dur);
	const stack = [];
	for (const x of xs) {
		while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= x.ts) stack.pop();
		if (stack.length && x.ts + x.dur > stack[stack.length - 1].ts + stack[stack.length - 1].dur)
			overlaps.push(`${k}: ${x.name}@${x.ts}+${x.dur} crosses ${stack[stack.length - 1].name}`);
		stack.push(x);
	}
}
say(overlaps.length === 0, 'complete events of a thread nest', overlaps.slice(0, 2).join('; '));
say(!!(doc.otherData && doc.otherData.tool && doc.otherData.tool.commit), 'otherData names the tool, version and commit');
process.exit(failed ? 1 : 0);
