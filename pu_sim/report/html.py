"""A report's :class:`~pu_sim.report.document.Document` as one web page.

The page (``index.html`` beside ``README.md``) needs nothing but itself: its
figures are embedded as base64 PNG, its style and script are inline, it
loads nothing from the network.  It shows the headline findings first (each
linked to the section it sums up), a navigation by section, the sections,
and the runs' provenance last.  Tables sort by a click on a column; big
tables, and tables labelled by a player count, filter by the columns that
take few values (kind, verdict) and by player count.

The Markdown read here is the subset the report sections write: ``#``
headings, paragraphs, pipe tables, ``-`` and numbered lists, ``>`` quotes,
fenced code, figures (``![caption](figures/x.png)``) and inline code, bold,
italics and links.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pu_sim.report.document import HEADLINES, Document

__all__ = ["FILTER_ROWS", "anchor", "number", "to_html"]

FILTER_ROWS = 8
"""A table with at least this many rows gets filters on its few-valued columns."""

_MAX_CHOICES = 10  # a column with more distinct values is no filter
_PLAYERS = re.compile(r"^(?:\*\*|### )(\d) players?(?:\(s\))?(?:\*\*)?$")
_NUMBER = re.compile(r"^[^\d+\-.]*?([+\-]?\d[\d,]*(?:\.\d+)?(?:e[+\-]?\d+)?)")
_IMAGE = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)$")


def anchor(text: str) -> str:
    """A heading's text as an id (``Seat order`` -> ``seat-order``)."""
    plain = re.sub(r"[`*\[\]()]", "", text).lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-") or "section"


def number(cell: str) -> float | None:
    """The number a table cell leads with (its sort key), or None."""
    m = _NUMBER.match(re.sub(r"[*`]", "", cell).strip())
    if not m:
        return None
    try:
        return float(m.group(1).replace(",", ""))
    except ValueError:
        return None


def _inline(text: str) -> str:
    """Inline Markdown (code, links, bold, italics) as escaped HTML."""
    out = []
    for i, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if i % 2:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        s = html.escape(part, quote=True)
        s = re.sub(
            r"\[([^\]]+)\]\(([^)\s]+)\)",
            lambda m: f'<a href="{m.group(2)}">{m.group(1)}</a>',
            s,
        )
        s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
        s = re.sub(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])", r"<em>\1</em>", s)
        out.append(s)
    return "".join(out)


def _plain(text: str) -> str:
    """A cell's text without its Markdown marks (a filter's value)."""
    return re.sub(r"[*`]", "", text).strip()


def _cells(line: str) -> list[str]:
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") else row
    return [c.strip() for c in row.split("|")]


@dataclass
class _Ids:
    """Unique ids for the page's headings, in order."""

    used: set[str] = field(default_factory=set)

    def new(self, text: str) -> str:
        base = anchor(text)
        name, k = base, 2
        while name in self.used:
            name, k = f"{base}-{k}", k + 1
        self.used.add(name)
        return name


def _table(lines: list[str], players: str | None, label: str) -> str:
    header = _cells(lines[0])
    rows = [_cells(line) for line in lines[2:]]
    keys = [anchor(h) for h in header]
    filters = []
    if len(rows) >= FILTER_ROWS or players:
        for j, key in enumerate(keys):
            values = {_plain(r[j]) for r in rows if j < len(r)}
            if 2 <= len(values) <= _MAX_CHOICES and len(values) < len(rows):
                filled = [v for v in values if v not in ("", "–", "-")]
                if all(number(v) is not None for v in filled) and key != "players":
                    continue  # numbers are sorted, not filtered
                filters.append(j)
    attrs = ' class="data"'
    if filters:
        attrs += f' data-filters="{" ".join(keys[j] for j in filters)}"'
    head = "".join(
        f'<th data-key="{k}" title="sort">{_inline(h)}</th>'
        for k, h in zip(keys, header, strict=True)
    )
    body = []
    for r in rows:
        row_attrs = "".join(
            f' data-f-{keys[j]}="{html.escape(_plain(r[j]))}"'
            for j in filters
            if j < len(r)
        )
        tds = []
        for c in r:
            v = number(c)
            value = f' data-v="{v:g}"' if v is not None else ""
            tds.append(f"<td{value}>{_inline(c)}</td>")
        body.append(f"<tr{row_attrs}>{''.join(tds)}</tr>")
    table = (
        f"<table{attrs}><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table>"
    )
    wrap = f' data-players="{players}"' if players else ""
    return f'<div class="table"{wrap}>{label}{table}</div>'


def _figure(src: str, caption: str, folder: Path) -> str:
    path = folder / src
    if src.startswith(("http:", "https:", "//")) or not path.is_file():
        return f'<p class="missing">figure missing: {html.escape(src)}</p>'
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return (
        f'<figure><img src="data:image/png;base64,{data}" '
        f'alt="{html.escape(caption)}" data-file="{html.escape(src)}"></figure>'
    )


def _lines(markdown: str) -> Iterator[tuple[str, list[str]]]:
    """The blocks of a piece of Markdown: (kind, its lines)."""
    lines = markdown.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.startswith("```"):
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield "code", lines[i + 1 : j]
            i = j + 1
            continue
        if re.match(r"^#{1,6} ", line):
            yield "heading", [line]
            i += 1
            continue
        kind = (
            "table" if line.lstrip().startswith("|")
            else "ul" if re.match(r"^[-*] ", line)
            else "ol" if re.match(r"^\d+\. ", line)
            else "quote" if line.startswith(">")
            else "p"
        )  # fmt: skip
        j = i + 1
        while j < len(lines) and lines[j].strip():
            nxt = lines[j]
            if kind == "table" and not nxt.lstrip().startswith("|"):
                break
            if kind != "table" and (
                nxt.startswith(("#", "```", "|")) or _IMAGE.match(nxt)
            ):
                break
            if kind == "p" and re.match(r"^([-*] |\d+\. |>)", nxt):
                break
            j += 1
        yield kind, lines[i:j]
        i = j


def _items(lines: list[str], pattern: str) -> list[str]:
    """List items, a continuation line (indented) joined to its item."""
    items: list[str] = []
    for line in lines:
        m = re.match(pattern, line)
        if m or not items:
            items.append(line[m.end() :] if m else line)
        else:
            items[-1] += "<br>" + line.strip() if line.startswith("   ") else line
    return items


def _blocks(markdown: str, ids: _Ids, folder: Path) -> str:
    """A piece of Markdown as HTML; ``##`` headings open sections."""
    out: list[str] = []
    players: str | None = None  # the player count of a "### N players" heading
    label: tuple[str, str] | None = None  # a "**N players**" paragraph, its count
    for kind, lines in _lines(markdown):
        if label is not None and kind != "table":
            out.append(f"<p>{_inline(label[0])}</p>")
            label = None
        if kind == "heading":
            level = len(lines[0]) - len(lines[0].lstrip("#"))
            text = lines[0][level:].strip()
            m = _PLAYERS.match(lines[0])
            players = m.group(1) if m else None
            tag = f"h{min(level, 6)}"
            out.append(f'<{tag} id="{ids.new(text)}">{_inline(text)}</{tag}>')
        elif kind == "table":
            if label is None:
                out.append(_table(lines, players, ""))
            else:  # the label goes into the table's box, filtered with it
                out.append(_table(lines, label[1], f"<p>{_inline(label[0])}</p>"))
                label = None
        elif kind in ("ul", "ol"):
            pattern = r"^[-*] " if kind == "ul" else r"^\d+\. "
            items = "".join(f"<li>{_inline(t)}</li>" for t in _items(lines, pattern))
            out.append(f"<{kind}>{items}</{kind}>")
        elif kind == "quote":
            text = " ".join(line.lstrip(">").strip() for line in lines)
            out.append(f"<blockquote><p>{_inline(text)}</p></blockquote>")
        elif kind == "code":
            out.append(f"<pre><code>{html.escape(chr(10).join(lines))}</code></pre>")
        else:
            text = "\n".join(lines).strip()
            image = _IMAGE.match(text)
            count = _PLAYERS.match(text)
            if image:
                out.append(_figure(image.group(2), image.group(1), folder))
            elif count:
                label = (text, count.group(1))
            else:
                out.append(f"<p>{_inline(text)}</p>")
    if label is not None:
        out.append(f"<p>{_inline(label[0])}</p>")
    return "\n".join(out)


def _sectioned(markdown: str, ids: _Ids, folder: Path) -> tuple[str, str | None]:
    """A block as a ``<section>`` (when it opens with ``##``); its first id."""
    inner = _blocks(markdown, ids, folder)
    m = re.match(r'<h2 id="([^"]+)">', inner)
    if m:
        return f'<section id="s-{m.group(1)}">{inner}</section>', m.group(1)
    first = re.search(r' id="([^"]+)"', inner)
    return f"<div>{inner}</div>", first.group(1) if first else None


def to_html(doc: Document, folder: Path) -> str:
    """The document as one self-contained page; figures are read from ``folder``."""
    ids = _Ids({"summary", "contents", "provenance"})
    title = html.escape(doc.title)
    intro = "\n".join(_blocks(b, ids, folder) for b in doc.intro)
    body, targets = [], []
    for block in doc.body:
        text, first = _sectioned(block, ids, folder)
        body.append(text)
        targets.append(first)
    closing = [_sectioned(b, ids, folder) for b in doc.provenance]
    summary = ""
    if doc.with_headlines:
        items = []
        for i, h in enumerate(doc.headlines):
            t = doc.target(i)
            link = targets[t] if t is not None and t < len(targets) else None
            more = f' <a class="to" href="#{link}">more</a>' if link else ""
            items.append(f"<li>{_inline(h)}{more}</li>")
        summary = (
            f'<section id="summary"><h2>{HEADLINES}</h2>'
            f"<ul>{''.join(items) or '<li>(no analysable games)</li>'}</ul></section>"
        )
    nav = []
    for part in [*body, *(c for c, _ in closing)]:
        for m in re.finditer(r'<h2 id="([^"]+)">(.*?)</h2>', part):
            nav.append(f'<li><a href="#{m.group(1)}">{m.group(2)}</a></li>')
    if summary:
        nav.insert(0, f'<li><a href="#summary">{HEADLINES}</a></li>')
    contents = f'<nav id="contents"><h2>Contents</h2><ul>{"".join(nav)}</ul></nav>'
    footer = "\n".join(c for c, _ in closing)
    return _PAGE.format(
        title=title,
        style=_STYLE,
        script=_SCRIPT,
        contents=contents,
        intro=intro,
        summary=summary,
        body="\n".join(body),
        footer=f'<footer id="provenance">{footer}</footer>' if footer else "",
    )


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
{contents}
<main>
<header><h1 id="top">{title}</h1>
{intro}
</header>
{summary}
{body}
{footer}
</main>
<script>{script}</script>
</body>
</html>
"""

_STYLE = """
:root { --ink: #1d232a; --muted: #5b6570; --line: #d7dce1; --accent: #1f5fa8;
  --band: #f3f5f7; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--ink); display: flex; }
nav#contents { position: sticky; top: 0; align-self: flex-start; width: 16rem;
  height: 100vh; overflow-y: auto; padding: 1rem; border-right: 1px solid var(--line);
  background: var(--band); font-size: 13px; flex: none; }
nav#contents h2 { font-size: 14px; margin: 0 0 .5rem; }
nav#contents ul { list-style: none; padding: 0; margin: 0; }
nav#contents li { margin: .25rem 0; }
main { flex: 1; min-width: 0; padding: 1rem 2rem 4rem; max-width: 84rem; }
h1 { font-size: 26px; margin: .5rem 0 1rem; }
h2 { font-size: 20px; margin: 2rem 0 .75rem; padding-top: .5rem;
  border-top: 2px solid var(--line); }
h3 { font-size: 16px; margin: 1.5rem 0 .5rem; }
a { color: var(--accent); }
a.to { font-size: 12px; white-space: nowrap; }
#summary { background: #eef4fb; border: 1px solid #c9dcf0; border-radius: 6px;
  padding: 0 1rem .5rem; }
#summary h2 { border: 0; }
#summary li { margin: .35rem 0; }
code { font-size: 13px; background: var(--band); padding: 0 .2em; border-radius: 3px; }
pre { background: var(--band); padding: .75rem; overflow-x: auto; }
blockquote { margin: 1rem 0; padding: .25rem 1rem; border-left: 4px solid #e0a800;
  background: #fff8e1; }
.table { overflow-x: auto; margin: .75rem 0; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: .2rem .5rem; text-align: left;
  vertical-align: top; }
th { background: var(--band); cursor: pointer; user-select: none; position: sticky;
  top: 0; }
th[aria-sort=ascending]::after { content: " \\25B2"; }
th[aria-sort=descending]::after { content: " \\25BC"; }
tbody tr:nth-child(even) { background: #fafbfc; }
td[data-v] { white-space: nowrap; }
figure { margin: 1rem 0 .25rem; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line);
  cursor: zoom-in; }
figure.full { overflow-x: auto; }
figure.full img { max-width: none; cursor: zoom-out; }
.filters { display: flex; flex-wrap: wrap; gap: .75rem; margin: .5rem 0;
  padding: .4rem .6rem; background: var(--band); border-radius: 4px; font-size: 13px; }
.filters label { display: flex; gap: .3rem; align-items: center; }
.missing { color: #b00020; }
footer { margin-top: 3rem; color: var(--muted); font-size: 13px; }
@media (max-width: 60rem) { body { display: block; }
  nav#contents { position: static; width: auto; height: auto; } }
@media print { nav#contents, .filters { display: none; } }
"""

_SCRIPT = """
(function () {
  "use strict";
  function key(cell) {
    var v = cell.getAttribute("data-v");
    return v === null ? null : parseFloat(v);
  }
  function sortBy(table, th, col) {
    var desc = th.getAttribute("aria-sort") === "ascending";
    table.querySelectorAll("th").forEach(function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = rows.every(function (r) {
      var c = r.cells[col];
      return !c || key(c) !== null || c.textContent.trim() === "" ||
        c.textContent.trim() === "\\u2013";
    });
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col], r;
      if (numeric) {
        var p = x ? key(x) : null, q = y ? key(y) : null;
        if (p === null && q === null) { r = 0; }
        else if (p === null) { return 1; }
        else if (q === null) { return -1; }
        else { r = p - q; }
      } else {
        r = (x ? x.textContent : "").localeCompare(y ? y.textContent : "");
      }
      return desc ? -r : r;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll("figure img").forEach(function (img) {
    img.addEventListener("click", function () {  // a wide figure at full size
      img.parentNode.classList.toggle("full");
    });
  });
  document.querySelectorAll("table.data").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, col) {
      th.addEventListener("click", function () { sortBy(table, th, col); });
    });
  });
  function apply(section, selects) {
    section.querySelectorAll("div.table").forEach(function (box) {
      var show = true;
      selects.forEach(function (s) {
        if (s.value && s.dataset.key === "players" && box.dataset.players &&
            box.dataset.players !== s.value) { show = false; }
      });
      box.hidden = !show;
      box.querySelectorAll("tbody tr").forEach(function (tr) {
        var ok = true;
        selects.forEach(function (s) {
          var v = tr.getAttribute("data-f-" + s.dataset.key);
          if (s.value && v !== null && v !== s.value) { ok = false; }
        });
        tr.hidden = !ok;
      });
    });
  }
  document.querySelectorAll("main > section, main > div").forEach(function (section) {
    var boxes = section.querySelectorAll("div.table");
    var choices = {}, order = [];
    function add(k, v) {
      if (!(k in choices)) { choices[k] = []; order.push(k); }
      if (choices[k].indexOf(v) < 0) { choices[k].push(v); }
    }
    boxes.forEach(function (box) {
      if (box.dataset.players) { add("players", box.dataset.players); }
      var table = box.querySelector("table.data");
      var keys = table && table.dataset.filters ? table.dataset.filters.split(" ") : [];
      keys.forEach(function (k) {
        table.querySelectorAll("tbody tr").forEach(function (tr) {
          add(k, tr.getAttribute("data-f-" + k));
        });
      });
    });
    var useful = order.filter(function (k) { return choices[k].length > 1; });
    if (!useful.length) { return; }
    var bar = document.createElement("div");
    bar.className = "filters";
    var selects = [];
    useful.forEach(function (k) {
      var label = document.createElement("label");
      label.textContent = k.replace(/-/g, " ");
      var select = document.createElement("select");
      select.dataset.key = k;
      var all = document.createElement("option");
      all.value = ""; all.textContent = "all";
      select.appendChild(all);
      choices[k].forEach(function (v) {
        var o = document.createElement("option");
        o.value = v; o.textContent = v;
        select.appendChild(o);
      });
      select.addEventListener("change", function () { apply(section, selects); });
      label.appendChild(select);
      bar.appendChild(label);
      selects.push(select);
    });
    boxes[0].parentNode.insertBefore(bar, boxes[0]);
  });
})();
"""
