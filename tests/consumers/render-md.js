// Renders Markdown files as GitHub does (GFM: tables, strikethrough,
// autolinks) with marked, and prints what a reader sees as JSON:
//
//   {"tags": {"em": N, "strong": N, "a": N, "del": N, "img": N, "code": N},
//    "tables": [[["cell text", ...], ...], ...],   (body rows, header excluded)
//    "text": "the whole rendered text"}
//
// Cell text is the rendered HTML of the cell with its tags removed and its
// entities decoded: the text a reader sees.  Usage: node render-md.js FILE
'use strict';
const fs = require('fs');
const { marked } = require('marked');

const md = fs.readFileSync(process.argv[2], 'utf8');
const html = marked.parse(md, { gfm: true, breaks: false });
const decode = (s) =>
	s.replace(/<[^>]*>/g, '')
		.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
		.replace(/&#39;/g, "'").replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(+d))
		.replace(/&amp;/g, '&');
const count = (t) => (html.match(new RegExp(`<${t}[ >]`, 'g')) || []).length;
const tables = [];
for (const t of html.split('<table>').slice(1)) {
	const body = t.split('</table>')[0].split('<tbody>')[1] || '';
	tables.push(body.split('<tr>').slice(1).map((r) =>
		r.split(/<td[^>]*>/).slice(1).map((c) => decode(c.split('</td>')[0]))));
}
console.log(JSON.stringify({
	tags: Object.fromEntries(['em', 'strong', 'a', 'del', 'img', 'code'].map((t) => [t, count(t)])),
	tables,
	text: decode(html),
}));
