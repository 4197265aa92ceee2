// What a reader's browser makes of magos-sim's pages and charts, in headless
// Chromium (Debian's, driven by puppeteer-core; no network):
//
// One browser runs every job given: each is "mermaid BLOCK.md OUT.png" or
// "page PAGE.html WIDTH OUT.png", as arguments, or one per line of a file
// with --jobs FILE; one line of JSON facts per job, in order.
//
//   node browser.js mermaid BLOCK.md OUT.png
//       renders the ```mermaid block of BLOCK.md with the mermaid package, as
//       GitHub does, screenshots it, and prints JSON facts: ok (rendered
//       without a parse error), error, sections (their labels), overlaps
//       (section labels whose box meets a task bar or a task label), ticks
//       (the axis labels), title.
//   node browser.js page PAGE.html WIDTH OUT.png
//       opens the page WIDTH px wide, screenshots the page (its first
//       8 000 px), runs
//       axe-core and prints JSON facts: violations (impact, id, help, nodes)
//       of impact serious or critical, all (every violation's id and impact),
//       page_overflow (px the page is wider than the window), has_main,
//       unscrolled_tables (tables wider than the window that no scroll
//       container holds), min_text_px (the smallest rendered height of SVG
//       chart text, px), js (the page's data-js).
// Exit status 0 when the facts were gathered (the caller judges them), 2 on
// usage or when the browser could not run.
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');
const puppeteer = require('puppeteer-core');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	'--disable-background-networking', '--disable-component-update', '--disable-sync',
	'--font-render-hinting=none'];

let browser = null;
async function withPage(width, fn) {
	const page = await browser.newPage();
	try {
		await page.setViewport({ width, height: 900 });
		// Offline: nothing but the files given may load.
		await page.setRequestInterception(true);
		page.on('request', (r) => (r.url().startsWith('file:') || r.url().startsWith('data:') ? r.continue() : r.abort()));
		return await fn(page);
	} finally {
		await page.close();
	}
}

async function mermaid(mdFile, png) {
	const md = fs.readFileSync(mdFile, 'utf8');
	const m = md.match(/```mermaid\n([\s\S]*?)```/);
	if (!m) return { ok: false, error: 'no ```mermaid block' };
	const lib = require.resolve('mermaid/dist/mermaid.min.js');
	const html = path.join(os.tmpdir(), `magos-mermaid-${process.pid}.html`);
	fs.writeFileSync(html, '<!doctype html><html><head><meta charset="utf-8"></head><body>' +
		'<div id="out"></div></body></html>');
	try {
		return await withPage(1200, async (page) => {
			await page.goto('file://' + html);
			await page.addScriptTag({ path: lib });
			const r = await page.evaluate(async (text) => {
				try {
					window.mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
					const { svg } = await window.mermaid.render('chart', text);
					document.getElementById('out').innerHTML = svg;
				} catch (e) {
					return { ok: false, error: String(e && e.message || e) };
				}
				const box = (e) => e.getBoundingClientRect();
				const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom &&
					a.width > 0 && b.width > 0;
				const secs = [...document.querySelectorAll('#out text.sectionTitle')];
				const tasks = [...document.querySelectorAll('#out rect.task, #out [class*="taskText"]')];
				const overlaps = [];
				for (const s of secs) for (const t of tasks)
					if (meets(box(s), box(t))) overlaps.push(`${s.textContent} / ${t.textContent || t.getAttribute('class')}`);
				return {
					ok: true,
					sections: secs.map((s) => s.textContent),
					overlaps,
					ticks: [...document.querySelectorAll('#out .tick text')].map((t) => t.textContent),
					title: (document.querySelector('#out .titleText') || {}).textContent || null,
				};
			}, m[1]);
			const el = await page.$('#out');
			if (r.ok && el) await el.screenshot({ path: png });
			return r;
		});
	} finally {
		fs.rmSync(html, { force: true });
	}
}

async function pageFacts(file, width, png) {
	const axe = require.resolve('axe-core/axe.min.js');
	return withPage(width, async (page) => {
		await page.goto('file://' + path.resolve(file), { waitUntil: 'load' });
		// The whole page, up to a height Chromium can capture (event tables run long at 390 px).
		const h = await page.evaluate(() => document.documentElement.scrollHeight);
		await page.screenshot({ path: png, captureBeyondViewport: true,
			clip: { x: 0, y: 0, width, height: Math.min(h, 8000) } });
		await page.addScriptTag({ path: axe });
		return page.evaluate(async () => {
			const res = await window.axe.run(document, { resultTypes: ['violations'] });
			const serious = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
			const vw = window.innerWidth;
			const unscrolled = [...document.querySelectorAll('table')].filter((t) => {
				if (t.getBoundingClientRect().width <= vw) return false;
				for (let p = t.parentElement; p; p = p.parentElement) {
					const o = getComputedStyle(p).overflowX;
					if ((o === 'auto' || o === 'scroll') && p.getBoundingClientRect().width <= vw) return false;
				}
				return true;
			}).length;
			let min = Infinity;
			for (const t of document.querySelectorAll('svg text')) {
				const r = t.getBoundingClientRect();
				if (r.width > 0 && r.height > 0 && t.textContent.trim()) min = Math.min(min, r.height);
			}
			return {
				violations: serious.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
					nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })),
				all: res.violations.map((v) => `${v.id}:${v.impact}`),
				page_overflow: Math.max(0, document.documentElement.scrollWidth - vw),
				has_main: !!document.querySelector('main, [role="main"]'),
				unscrolled_tables: unscrolled,
				min_text_px: min === Infinity ? null : Math.round(min * 10) / 10,
				js: document.documentElement.getAttribute('data-js'),
			};
		});
	});
}

(async () => {
	let args = process.argv.slice(2);
	const jobs = [];
	if (args[0] === '--jobs')
		for (const l of fs.readFileSync(args[1], 'utf8').split('\n')) {
			if (l.trim()) jobs.push(l.trim().split(/\s+/));
		}
	else
		jobs.push(args);
	for (const [cmd, ...a] of jobs)
		if (!((cmd === 'mermaid' && a.length === 2) || (cmd === 'page' && a.length === 3))) {
			console.error('usage: node browser.js mermaid BLOCK.md OUT.png | page PAGE.html WIDTH OUT.png | --jobs FILE');
			process.exit(2);
		}
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'magos-browser-'));
	browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ARGS,
		userDataDir: dir, timeout: 120000, protocolTimeout: 120000 });
	try {
		for (const [cmd, ...a] of jobs) {
			const r = cmd === 'mermaid' ? await mermaid(a[0], a[1]) : await pageFacts(a[0], Number(a[1]), a[2]);
			console.log(JSON.stringify(r));
		}
	} finally {
		await browser.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
})().catch((e) => {
	console.error(`browser: ${e && e.stack || e}`);
	process.exit(2);
});
