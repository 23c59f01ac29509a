"""A finished report as one model, rendered as Markdown and as a web page.

A :class:`Document` holds the report's blocks (each a piece of Markdown of
the subset the sections write: headings, paragraphs, tables, lists, figures,
quotes) in reading order, and which blocks the headline findings point to.
:func:`to_markdown` writes the ``README.md``; :func:`pu_sim.report.html.to_html`
writes ``index.html`` from the same blocks, so the two never say different
things.  :func:`write_pages` writes both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Document", "from_markdown", "to_markdown", "write_pages"]

HEADLINES = "Headline findings"


@dataclass
class Document:
    """A report's content, before either renderer.

    ``intro`` comes under the title (how the report was made, warnings);
    ``body`` is the report's blocks in order, the headline findings standing
    before ``body[headlines_at]`` in the Markdown (the web page shows them
    first, as its summary); ``targets[i]`` is the index in ``body`` of the
    block headline ``i`` sums up, or None; ``provenance`` closes the page
    (the runs and how to reproduce them, the files).
    """

    title: str
    intro: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    headlines: list[str] = field(default_factory=list)
    targets: list[int | None] = field(default_factory=list)
    headlines_at: int = 0
    provenance: list[str] = field(default_factory=list)
    with_headlines: bool = True

    def target(self, i: int) -> int | None:
        """The body block headline ``i`` points to (None: none known)."""
        return self.targets[i] if i < len(self.targets) else None


def to_markdown(doc: Document) -> str:
    """The report as Markdown (``README.md``)."""
    blocks = [f"# {doc.title}", *doc.intro, *doc.body[: doc.headlines_at]]
    if doc.with_headlines:
        blocks += [
            f"## {HEADLINES}",
            "\n".join(f"- {h}" for h in doc.headlines) or "- (no analysable games)",
        ]
    blocks += [*doc.body[doc.headlines_at :], *doc.provenance]
    return "\n\n".join(b.strip("\n") for b in blocks if b.strip()) + "\n"


PROVENANCE = ("Runs and reproducibility", "Reproducibility", "Provenance", "Files")
"""Sections of a hand-written page that close it, as the report's do."""


def from_markdown(text: str, *, provenance: tuple[str, ...] = PROVENANCE) -> Document:
    """A Markdown page written by hand (a comparison, a search) as a Document.

    The first ``# `` line is the title, what precedes the first ``## ``
    heading the intro, each ``## `` heading with what follows it one body
    block; sections whose title is in ``provenance`` close the page.  Such a
    page has no headline findings of its own.
    """
    title = ""
    intro: list[str] = []
    blocks: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if not title and line.startswith("# "):
            title = line[2:].strip()
        elif line.startswith("## "):
            current = [line]
            blocks.append(current)
        elif current is None:
            intro.append(line)
        else:
            current.append(line)
    body: list[str] = []
    closing: list[str] = []
    for block in blocks:
        (closing if block[0][3:].strip() in provenance else body).append(
            "\n".join(block).strip("\n")
        )
    return Document(
        title=title,
        intro=["\n".join(intro).strip("\n")] if "".join(intro).strip() else [],
        body=body,
        provenance=closing,
        with_headlines=False,
    )


def write_pages(doc: Document, out: Path, *, markdown: bool = True) -> Path:
    """Write ``README.md`` (unless ``markdown`` is False) and ``index.html``.

    Returns the path of ``index.html``.
    """
    from pu_sim.report.html import to_html

    out.mkdir(parents=True, exist_ok=True)
    if markdown:
        (out / "README.md").write_text(to_markdown(doc))
    page = out / "index.html"
    page.write_text(to_html(doc, out), encoding="utf-8")
    return page
