"""The report's web page: same content as its README, self-contained, working.

The unit tests read ``index.html`` as text and as parsed HTML; the browser
tests load it in a headless Chromium (``tests/browser.py``) and check what a
reader sees: no console error, every figure decoded, the filters and the sort
working, the top of the page drawn.  Without a Chromium the browser tests are
skipped with the reason (under ``PU_SIM_CI=1`` a skip fails: ``.ci/run``
installs one).
"""

from __future__ import annotations

import base64
import re
import struct
import sys
import types
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

import numpy as np
import pytest
from browser import chromium, open_browser
from synthetic_games import multiplayer_frame, solo_frame, write_run

from pu_sim.report import html, reporting
from pu_sim.report.document import Document, from_markdown, to_markdown, write_pages
from pu_sim.simulation.manifest import read_report_manifest

ROOT = Path(__file__).resolve().parents[1]


class Parsed(HTMLParser):
    """The page's elements (tag, attributes) and its text, in order."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data):
        self.text.append(data)

    def all(self, tag: str) -> list[dict[str, str]]:
        return [a for t, a in self.elements if t == tag]

    def words(self) -> str:
        return " ".join("".join(self.text).split())


def plain(markdown: str) -> str:
    """Markdown text as the page shows it (marks and link targets dropped)."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    return " ".join(re.sub(r"[*`]", "", text).split())


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """A study report over solo runs and 3- and 4-player runs (synthetic)."""
    base = tmp_path_factory.mktemp("page")
    runs = [
        write_run(base / "runs" / "p4", multiplayer_frame(
            2000, 4, corp_effect={"Gamma Corp": 6.0}, seed=2)),
        write_run(base / "runs" / "p3", multiplayer_frame(1500, 3, seed=1),
                  group_size=3),
        write_run(base / "runs" / "solo", solo_frame(1500, lambda g, o, r: 40 + 0 * g, seed=3)),
    ]  # fmt: skip
    return reporting.write_study_report(runs, base / "report", title="A <page> & co")


@pytest.fixture(scope="module")
def page(report) -> str:
    return (report / "index.html").read_text(encoding="utf-8")


def test_every_headline_section_table_and_figure_of_the_readme_is_on_the_page(
    report, page
):
    readme = (report / "README.md").read_text()
    manifest = read_report_manifest(report).to_json()["results"]
    parsed = Parsed(page)
    words = parsed.words()
    assert manifest["headlines"]
    for headline in manifest["headlines"]:
        assert plain(headline) in words
    ids = {a["id"] for _, a in parsed.elements if "id" in a}
    nav = {a["href"] for a in parsed.all("a") if a.get("href", "").startswith("#")}
    for title in re.findall(r"^## (.+)$", readme, flags=re.M):
        if title == "Headline findings":
            continue
        assert plain(title) in words
        assert f"#{html.anchor(title)}" in nav  # the navigation names it
    assert nav <= {f"#{i}" for i in ids}  # every link lands
    images = {a["data-file"]: a["src"] for a in parsed.all("img")}
    assert set(images) == set(manifest["figures"])
    for rel, src in images.items():
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1]) == (report / rel).read_bytes()
    # as many tables and rows as the README's
    assert len(parsed.all("table")) == readme.count("\n|---")
    body_rows = sum(1 for line in readme.splitlines() if line.startswith("|")) - 2 * (
        readme.count("\n|---")
    )
    assert len(parsed.all("tr")) - len(parsed.all("thead")) == body_rows
    assert "figure missing" not in page


def test_every_headline_links_to_the_section_it_sums_up(report, page):
    summary = page.split('<section id="summary">', 1)[1].split("</section>", 1)[0]
    links = re.findall(r'<a class="to" href="#([^"]+)">', summary)
    headlines = read_report_manifest(report).to_json()["results"]["headlines"]
    assert len(links) == len(headlines)
    for link in links:
        assert f'<h2 id="{link}">' in page
    assert "verdicts-at-a-glance-greedy" in links  # the balance headline
    assert any(link.startswith("seat-order") for link in links)


def test_the_verdict_tables_carry_what_the_filters_need(page):
    section = page.split('id="s-verdicts-at-a-glance', 1)[1].split("</section>", 1)[0]
    boxes = re.findall(r'<div class="table" data-players="(\d)">', section)
    assert sorted(boxes) == ["3", "4"]  # one table per player count
    tables = re.findall(r'<table class="data" data-filters="([^"]+)">', section)
    assert tables and all("kind" in t.split() for t in tables)
    kinds = set(re.findall(r'<tr data-f-kind="([^"]+)"', section))
    assert kinds == {"corporation", "planet"}
    # cells holding numbers carry their sort key
    assert re.search(r'<td data-v="[-0-9.e+]+">[+-]?\d', section)


def test_the_page_is_self_contained(page):
    parsed = Parsed(page)
    for tag, attrs in parsed.elements:
        for name in ("src", "href"):
            value = attrs.get(name)
            if value is None:
                continue
            assert value.startswith(("#", "data:image/png;base64,")) or (
                ":" not in value.split("/")[0] and not value.startswith("//")
            ), f"<{tag} {name}={value[:80]}> reaches outside the page"
    assert not parsed.all("link")
    assert all("src" not in a for a in parsed.all("script"))
    assert "http://" not in page and "https://" not in page


def test_text_is_escaped(tmp_path):
    doc = Document(
        title="<script>alert(1)</script> & co",
        intro=["a <b>bold</b> claim & `code <i>`"],
        body=["## Odd <names>\n\n| kind | name |\n|---|---|\n| x | <img src=x> |"],
        headlines=['**A & B:** "quoted" <tag>'],
        targets=[0],
    )
    page = write_pages(doc, tmp_path).read_text()
    assert "<script>alert" not in page and "<img src=x>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page
    assert "<code>code &lt;i&gt;</code>" in page
    assert "<strong>A &amp; B:</strong>" in page
    assert (tmp_path / "README.md").read_text() == to_markdown(doc)


def test_sort_keys_are_the_numbers_cells_lead_with():
    assert html.number("+11.7 [+9.1, +14.4]") == 11.7
    assert html.number("**-3.0** [-6.4, +0.4]") == -3.0
    assert html.number("1,500") == 1500
    assert html.number("33.1%") == 33.1
    assert html.number("Gamma Corp") is None
    assert html.number("–") is None


def test_a_hand_written_page_keeps_its_sections_and_closes_with_provenance():
    text = (
        "# Title\n\nintro line\n\n## One\n\nbody\n\n## Files\n\nfiles\n\n## Two\n\nx\n"
    )
    doc = from_markdown(text)
    assert (doc.title, doc.intro) == ("Title", ["intro line"])
    assert [b.split("\n")[0] for b in doc.body] == ["## One", "## Two"]
    assert doc.provenance == ["## Files\n\nfiles"]


def test_compare_writes_the_page_too(tmp_path):
    from pu_sim.variants.compare_report import write_comparison

    assert "write_pages" in write_comparison.__code__.co_names


def test_pu_sim_report_open_opens_the_page(tmp_path, monkeypatch, capsys):
    from pu_sim.cli import main
    from pu_sim.simulation.runner import run

    run(2, out=tmp_path / "run", bots="random", seed=1)
    fake = types.ModuleType("pu_sim.report.reporting")
    fake.write_report = lambda run_dir, out_dir=None, allow_incomplete=False: out_dir  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pu_sim.report.reporting", fake)
    opened = []
    import webbrowser

    monkeypatch.setattr(webbrowser, "open", lambda url: opened.append(url) or True)
    args = ["report", str(tmp_path / "run"), "--out", str(tmp_path / "rep"), "--open"]
    assert main(args) == 0
    assert opened == [(tmp_path / "rep" / "index.html").resolve().as_uri()]
    assert f"page: {tmp_path / 'rep' / 'index.html'}" in capsys.readouterr().out


# --------------------------------------------------------------------------------
# In a real browser
# --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    executable = chromium()
    if executable is None:
        pytest.skip(
            "no Chromium on this machine (install the `chromium` package, as "
            ".ci/run does, or set PU_SIM_CHROMIUM): the page's browser tests "
            "need one"
        )
    with open_browser(executable) as b:
        yield b


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def check_loads(browser, page: Path, *, figures: bool = True) -> None:
    """No error, every figure decoded (and some figure, unless ``figures`` is off)."""
    browser.events.clear()
    browser.open(page.resolve().as_uri())
    assert browser.errors() == []
    images = browser.evaluate(
        "Array.from(document.images).map(i => [i.complete, i.naturalWidth])"
    )
    assert (images or not figures) and all(done and width > 0 for done, width in images)


def test_the_page_loads_in_a_browser_with_every_figure(browser, report):
    check_loads(browser, report / "index.html")
    n = len(read_report_manifest(report).to_json()["results"]["figures"])
    assert browser.evaluate("document.images.length") == n


def test_the_filters_hide_what_they_exclude(browser, report):
    check_loads(browser, report / "index.html")
    section = "document.querySelector('#s-verdicts-at-a-glance-greedy')"
    keys = browser.evaluate(
        f"Array.from({section}.querySelectorAll('.filters select'))"
        ".map(s => s.dataset.key)"
    )
    assert keys[:2] == ["players", "kind"]

    def choose(key: str, value: str) -> None:
        browser.evaluate(
            f"(() => {{ const s = {section}.querySelector('select[data-key={key}]');"
            f" s.value = {value!r}; s.dispatchEvent(new Event('change')); }})()"
        )

    def shown() -> list[list[str]]:
        return browser.evaluate(
            f"Array.from({section}.querySelectorAll('div.table'))"
            ".filter(b => !b.hidden).map(b => [b.dataset.players, "
            "...Array.from(b.querySelectorAll('tbody tr')).filter(r => !r.hidden)"
            ".map(r => r.dataset.fKind)])"
        )

    everything = shown()
    assert [t[0] for t in everything] == ["3", "4"]
    choose("players", "4")
    assert [t[0] for t in shown()] == ["4"]
    choose("kind", "planet")
    only = shown()
    assert len(only) == 1 and len(only[0]) > 1 and set(only[0][1:]) == {"planet"}
    choose("players", "")
    choose("kind", "")
    assert shown() == everything


def test_a_click_on_a_column_sorts_by_it(browser, report):
    check_loads(browser, report / "index.html")
    table = "document.querySelector('#s-verdicts-at-a-glance-greedy table.data')"

    def column(j: int) -> list[float]:
        return browser.evaluate(
            f"Array.from({table}.tBodies[0].rows)"
            f".map(r => parseFloat(r.cells[{j}].dataset.v))"
        )

    j = browser.evaluate(
        f"Array.from({table}.tHead.rows[0].cells).findIndex(c => "
        "c.textContent.startsWith('win'))"
    )
    assert j > 0
    click = f"{table}.tHead.rows[0].cells[{j}].click()"
    browser.evaluate(click)
    assert column(j) == sorted(column(j))
    assert browser.evaluate(
        f"{table}.tHead.rows[0].cells[{j}].getAttribute('aria-sort')"
    ) == "ascending"  # fmt: skip
    browser.evaluate(click)
    assert column(j) == sorted(column(j), reverse=True)
    names = f"Array.from({table}.tBodies[0].rows).map(r => r.cells[1].textContent)"
    browser.evaluate(f"{table}.tHead.rows[0].cells[1].click()")
    assert browser.evaluate(names) == sorted(browser.evaluate(names))


def test_a_click_on_a_figure_shows_it_at_full_size(browser, report):
    check_loads(browser, report / "index.html")
    first = "document.images[0]"
    width = browser.evaluate(f"{first}.width")
    natural = browser.evaluate(f"{first}.naturalWidth")
    assert width < natural  # shrunk to the column at first
    browser.evaluate(f"{first}.click()")
    assert browser.evaluate(f"{first}.width") == natural
    browser.evaluate(f"{first}.click()")
    assert browser.evaluate(f"{first}.width") == width


def test_the_top_of_the_page_is_drawn(browser, report):
    import matplotlib.image

    check_loads(browser, report / "index.html")
    shot = browser.screenshot()
    assert png_size(shot) == (1280, 900)
    pixels = matplotlib.image.imread(BytesIO(shot))[..., :3]
    ink = (pixels.mean(axis=2) < 0.5).mean()  # dark pixels: text
    assert 0.005 < ink < 0.5, f"the top of the page looks blank or black ({ink:.3f})"
    assert float(np.std(pixels)) > 0.05
    assert browser.evaluate(
        "document.querySelector('#summary').getBoundingClientRect().top"
    ) < 900  # fmt: skip  # the summary is in the first screen


def test_every_committed_report_page_loads(browser):
    """Each committed report's page (the reports get one when rebuilt)."""
    for page in sorted((ROOT / "reports").glob("**/index.html")):
        readme = (page.parent / "README.md").read_text()
        check_loads(browser, page, figures="![" in readme)


def committed_reports() -> list[Path]:
    """The committed report folders (a README beside a report manifest)."""
    return sorted(
        p.parent
        for p in (ROOT / "reports").glob("**/README.md")
        if (p.parent / "manifest.json").is_file()
    )


def rendered(folder: Path, out: Path) -> Path:
    """A committed report's README as a page (its figures read from its folder)."""
    page = out / (str(folder.relative_to(ROOT)).replace("/", "_") + ".html")
    text = (folder / "README.md").read_text()
    page.write_text(html.to_html(from_markdown(text), folder), encoding="utf-8")
    return page


def test_every_committed_readme_renders_whole(tmp_path):
    """The renderer reads every construct the committed reports use."""
    folders = committed_reports()
    assert folders
    for folder in folders:
        text = (folder / "README.md").read_text()
        page = rendered(folder, tmp_path).read_text()
        assert "figure missing" not in page, folder
        parsed = Parsed(page)
        assert len(parsed.all("table")) == text.count("\n|---"), folder
        figures = re.findall(r"^!\[[^\]]*\]\(([^)]+)\)$", text, flags=re.M)
        assert [a["data-file"] for a in parsed.all("img")] == figures, folder
        for title in re.findall(r"^#{2,3} (.+)$", text, flags=re.M):
            assert plain(title) in parsed.words(), (folder, title)


def test_every_committed_report_loads_in_a_browser(browser, tmp_path):
    for folder in committed_reports():
        page = rendered(folder, tmp_path)
        browser.events.clear()
        browser.open(page.as_uri())
        assert browser.errors() == [], folder
        images = browser.evaluate(
            "Array.from(document.images).map(i => [i.complete, i.naturalWidth])"
        )
        assert all(done and width > 0 for done, width in images), folder


def test_every_committed_report_has_its_page():
    """A designer opens index.html; a report rebuilt without one is a defect."""
    missing = [str(f) for f in committed_reports() if not (f / "index.html").is_file()]
    assert not missing


def test_page_only_makes_the_page_of_a_report_whose_runs_are_gone(tmp_path, capsys):
    from pu_sim.report.reporting import main

    (tmp_path / "README.md").write_text(
        "# A lab study\n\n## Headline findings\n\n- **Found:** +1.0 [0.5, 1.5].\n\n"
        "## Method\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    assert main([str(tmp_path), "--page-only"]) == 0
    page = (tmp_path / "index.html").read_text()
    assert "A lab study" in page and "<table" in page and "Method" in page
    assert main([str(tmp_path / "nothing"), "--page-only"]) == 2
    assert "has no README.md" in capsys.readouterr().err


DESIGNER_STUDIES = (
    "main",
    "corp_planet_balance",
    "seat_order",
    "solo_target_calibration",
)


def captions(readme: str) -> list[str]:
    return re.findall(r"^!\[([^\]]*)\]\(", readme, flags=re.M)


def test_every_caption_names_the_bots_that_played(report):
    """A figure is read apart from its section: its caption says whose games."""
    from pu_sim.bots import BOT_NAMES

    found = captions((report / "README.md").read_text())
    assert found
    for folder in committed_reports():
        if folder.relative_to(ROOT / "reports").parts[0] in DESIGNER_STUDIES:
            found += captions((folder / "README.md").read_text())
    unnamed = [c for c in found if not any(b in c for b in BOT_NAMES)]
    assert not unnamed
