#!/usr/bin/env python3
"""Structure checks of one HTML report (tests/html.sh).

usage: check_html.py FILE [KEY=VALUE...]

Parses FILE with html.parser and prints one line "name=value" per fact the
shell test compares: the sections present, the counts of groups, rows, gate
charts and markers, whether tags balance, whether anything would be fetched
from outside, the <h1> text and the longest label shown; and what a reader
would see wrong: the timeline's legend entries (legend=, comma-separated),
whether a <main> holds the page, the contrast of the critical-path colour
on the page background (crit_contrast_x10, WCAG ratio times 10), the
threshold labels of the gate charts (thr_lbl), where the time-to-complete
curves first rise, in % of their width (cdf_rise_pct, the largest; 100
when a curve never rises), and the widest histogram bar in % of its
chart's width (hbin_max_pct).
"""
import re
import sys
from html.parser import HTMLParser

VOID = {"meta", "link", "br", "img", "input", "hr", "col", "area", "base", "wbr", "source"}


class Report(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.unbalanced = 0
        self.ids = set()
        self.counts = {}
        self.external = 0
        self.scripts = 0
        self.h1 = ""
        self.in_h1 = False
        self.js_error = False
        self.js_ok = False
        self.titles = []
        self.in_title = False
        self.text_max = 0
        self.in_text = False
        self.text_in_row = False
        self.row_depth = None
        self.row_label_max = 0
        self.cur = ""
        self.poly_max = 0
        self.legend = []
        self.in_legend = False
        self.main = False
        self.cdf_rise = []
        self.hbins = []   # per histogram: the (x, width) of its bars

    def count(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1

    def handle_starttag(self, tag, attrs):
        self._open(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._open(tag, attrs)

    def _open(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "html" and "data-js-error" in a:
            self.js_error = True
        if tag == "html" and a.get("data-js") == "ok":
            self.js_ok = True
        if "id" in a:
            self.ids.add(a["id"])
        for k in ("src", "srcset", "action", "formaction", "data"):
            if k in a:
                self.external += 1
        if "href" in a and not a["href"].startswith("#"):
            self.external += 1
        if tag == "link":
            self.external += 1
        if tag == "script":
            self.scripts += 1
        if tag == "details" and "group" in cls:
            self.count("groups")
        if tag == "g" and "row" in cls:
            self.count("rows")
        if tag == "g" and "on-crit" in cls:
            self.count("crit")
        if tag == "g" and "agg" in cls:
            self.count("agg")
        if tag == "svg" and a.get("id", "").startswith("gate-"):
            self.count("gate_charts")
        if tag == "svg" and a.get("id", "").startswith("conc-"):
            self.count("conc_charts")
        if tag == "svg":
            self.count("svgs")
            # Monte Carlo pages (reports/html_mc.c): charts by kind, "cdf-0", "hist-3", ...
            kind = a.get("id", "").rsplit("-", 1)[0]
            if kind in ("cdf", "halts", "hist", "box", "sweep"):
                self.count("svg_" + kind)
        if tag in ("g", "rect", "circle") and cls:
            for c in cls:
                if c in ("cdf", "halt-row", "hbin", "boxplot", "cens-dot", "sw-dot", "phase-row"):
                    self.count(c)
        if tag == "text" and "thr-lbl" in cls:
            self.count("thr-lbl")
        if tag == "polyline":
            self.poly_max = max(self.poly_max, len(a.get("points", "").split()))
        if tag == "polyline" and "cdf-line" in cls:
            pts = [tuple(map(float, p.split(","))) for p in a.get("points", "").split()]
            if len(pts) > 1:
                x0, x1, y0 = pts[0][0], pts[-1][0], pts[0][1]
                rise = next((x for x, y in pts if y != y0), x1)
                self.cdf_rise.append(100.0 * (rise - x0) / (x1 - x0) if x1 > x0 else 100.0)
        if tag == "svg" and a.get("id", "").startswith("hist-"):
            self.hbins.append((float(a.get("width", 1)), []))
        if tag == "rect" and "hbin" in cls and self.hbins:
            self.hbins[-1][1].append(float(a.get("width", 0)))
        if tag == "main":
            self.main = True
        if tag == "svg" and a.get("id") == "gantt-legend":
            self.in_legend = True
        if tag == "tr" and "worse" in cls:
            self.count("worse")
        for c in cls:
            if c in ("m-halt", "v-fail", "v-pass", "m-rollback", "m-open", "m-settle", "soak"):
                self.count(c)
        if tag == "tr" and self.stack[-1:] == ["tbody"]:
            self.count("events")
        if tag == "h1":
            self.in_h1 = True
        if tag == "title":
            self.in_title = True
            self.cur = ""
        if tag == "text":
            self.in_text = True
            self.text_in_row = "g" in self.stack and self.row_depth is not None
            self.cur = ""
        if tag == "g" and "row" in cls:
            self.row_depth = len(self.stack)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.unbalanced += 1
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "g" and self.row_depth is not None and len(self.stack) == self.row_depth:
            self.row_depth = None
        if tag == "h1":
            self.in_h1 = False
        if tag == "svg":
            self.in_legend = False
        if tag == "text" and self.in_legend:
            self.legend.append(self.cur)
        if tag == "title":
            self.in_title = False
            self.titles.append(self.cur)
        if tag == "text":
            self.in_text = False
            self.text_max = max(self.text_max, len(self.cur))
            if self.text_in_row:
                self.row_label_max = max(self.row_label_max, len(self.cur))

    def handle_data(self, data):
        if self.in_h1:
            self.h1 += data
        if self.in_title or self.in_text:
            self.cur += data


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        doc = f.read()
    r = Report()
    r.feed(doc)
    r.close()
    out = {
        "unbalanced": r.unbalanced + len(r.stack),
        "external": r.external,
        "scripts": r.scripts,
        "js_error": int(r.js_error),
        "js_ok": int(r.js_ok),
        "h1": r.h1,
        "text_max": r.text_max,
        "row_label_max": r.row_label_max,
        "longest_title": max((len(t) for t in r.titles), default=0),
        "poly_max": r.poly_max,
    }
    for sec in ("mc-stats", "cdf", "halts", "blast", "phases", "critical", "detection", "exposure",
                "variants", "sweep", "compare"):
        out["has_" + sec] = int(sec in r.ids)
    for k in ("svg_cdf", "svg_halts", "svg_hist", "svg_box", "svg_sweep", "cdf", "halt-row", "hbin",
              "boxplot", "cens-dot", "sw-dot", "phase-row", "worse"):
        out[k] = r.counts.get(k, 0)
    for sec in ("summary", "gantt", "gates", "concurrency", "events", "filter"):
        out["has_" + sec] = int(sec in r.ids)
    for k in ("groups", "rows", "crit", "agg", "gate_charts", "conc_charts", "svgs", "m-halt",
              "v-fail", "v-pass", "m-rollback", "m-open", "m-settle", "soak", "events"):
        out[k] = r.counts.get(k, 0)
    out["legend"] = ",".join(r.legend)
    out["has_main"] = int(r.main)
    out["thr_lbl"] = r.counts.get("thr-lbl", 0)
    out["cdf_rise_pct"] = round(max(r.cdf_rise)) if r.cdf_rise else -1
    # The widest histogram bar, in % of its chart's width.
    out["hbin_max_pct"] = max((round(100 * max(bars) / w) for w, bars in r.hbins if bars), default=-1)
    m = re.search(r"--crit:#([0-9a-fA-F]{6})", doc)
    b = re.search(r"--bg:#([0-9a-fA-F]{6})", doc)
    out["crit_contrast_x10"] = round(10 * contrast(m.group(1), b.group(1))) if m and b else -1
    for k, v in out.items():
        print(f"{k}={v}")


def luminance(hexrgb):
    def ch(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hexrgb[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b)


def contrast(a, b):
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


if __name__ == "__main__":
    main()
