#!/usr/bin/env python3
"""Rebuilds an HTML report with the current browser files, without cargo.

    python3 scripts/html_dev.py GENERATED.html OUT.html   # re-inject report.js/css and uPlot
    python3 scripts/html_dev.py PAGEDATA.json OUT.html    # a page from a JSON data document

The page's data (the JSON inside `<script id="credence-data">`), its title and its language
are taken from the generated page; the template, the styles and the scripts are read from
crates/report/html/ and filled in as crates/report/src/html.rs does (one pass, `<` in the data
written as \\u003c). Options: --selftest runs headless chromium on OUT#selftest and prints
the self-test JSON; --screenshot PNG saves a 1280x2400 screenshot.
"""

import argparse
import html
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "crates" / "report" / "html"
DATA = re.compile(r'<script type="application/json" id="credence-data">(.*?)</script>', re.S)
CHROMIUM = ["chromium", "--headless=new", "--no-sandbox", "--disable-gpu"]


def read(name: str) -> str:
    return (HERE / name).read_text(encoding="utf-8")


def from_page(text: str) -> tuple[str, str, str]:
    """The (lang, escaped title, script-safe JSON) of a generated page."""
    data = DATA.search(text)
    if not data:
        sys.exit("no credence-data element in the page")
    lang = re.search(r'<html lang="([^"]*)"', text)
    title = re.search(r"<title>(.*?)</title>", text, re.S)
    return (lang.group(1) if lang else "en", title.group(1) if title else "", data.group(1))


def from_json(text: str) -> tuple[str, str, str]:
    """The same from a page-data JSON document (as html.rs would serialize it)."""
    doc = json.loads(text)
    view = doc.get("view") or {}
    lang = "zh-Hans" if view.get("lang") == "zh" else "en"
    title = html.escape(view.get("title", ""), quote=False)
    return lang, title, json.dumps(doc, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def fill(template: str, parts: dict[str, str]) -> str:
    """Replaces each placeholder in one pass, as html.rs's fill_template does."""
    return re.sub(r"\{\{(\w+)\}\}", lambda m: parts[m.group(1)], template)


def build(src: Path) -> str:
    text = src.read_text(encoding="utf-8")
    lang, title, data = from_json(text) if src.suffix == ".json" else from_page(text)
    return fill(
        read("report.html"),
        {
            "lang": lang,
            "title": title,
            "style": read("uPlot.min.css") + "\n" + read("report.css"),
            "uplot": read("uPlot.iife.min.js"),
            "uplot_license": read("LICENSE-uPlot"),
            "script": read("report.js"),
            "data": data,
        },
    )


def selftest(page: Path) -> dict:
    """Runs the page's #selftest as the Rust browser test does and returns its JSON."""
    out = subprocess.run(
        CHROMIUM + ["--dump-dom", "--virtual-time-budget=10000", f"file://{page.resolve()}#selftest"],
        capture_output=True, text=True, timeout=120,
    ).stdout
    found = re.search(r'<pre id="credence-selftest">(.*?)</pre>', out, re.S)
    if not found:
        sys.exit("no credence-selftest element in the dumped DOM")
    return json.loads(html.unescape(found.group(1)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--selftest", action="store_true")
    p.add_argument("--screenshot", type=Path)
    a = p.parse_args()
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(build(a.src), encoding="utf-8")
    if a.selftest:
        print(json.dumps(selftest(a.out)))
    if a.screenshot:
        subprocess.run(
            CHROMIUM + [f"--screenshot={a.screenshot.resolve()}", "--window-size=1280,2400", f"file://{a.out.resolve()}"],
            capture_output=True, timeout=120, check=True,
        )


if __name__ == "__main__":
    main()
