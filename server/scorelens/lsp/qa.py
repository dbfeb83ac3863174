"""The source-aware checks (``qa.*`` findings) in the server.

A review whose hypothesis has a source (a ``NAME.src.LANG`` document, a ``source`` template of a
``[[pair]]``, or the sources its records hold: XLIFF, PO and TMX units, a JSONL/TSV/CSV source
field) keeps a :class:`~scorelens.core.qa.QADocument` of (source, hypothesis) pairs in step with
its corpus: an edit re-checks the segments the corpus says it changed (``Corpus.edited``), a
change of the source document those whose source changed. Segment i of a plain-text hypothesis
translates line i of its source, lines as ``scorelens check`` reads them (sacreBLEU's: a bare
``\r`` is text in a line, and trailing whitespace is kept).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path

from pygls.uris import to_fs_path

from ..core.corpus import LONG_SEGMENT_CHARS
from ..core.text import common_ends
from ..formats import FormatError, format_of
from ..formats.segments import line_starts
from ..textfile import UnreadableText
from .documents import split_breaks
from .fluency import model_path
from .reviews import Problem
from .worker import WorkerDied

FOLLOWER = "qa"  # of the corpus's texts (Corpus.edited)


@dataclass
class Qa:
    """A review's QA: the checked pairs, and where each segment's source comes from."""

    document: object  # core.qa.QADocument (None until the source is read: it may declare the languages)
    source_uri: str | None  # the source document; None: the hypothesis's records hold their sources
    source_lines: list[str] = field(default_factory=list)  # the source document's LSP lines
    source_text: str = ""
    source_texts: list[str] = field(default_factory=list)  # a plain source's lines, as check reads them
    source_aligned: bool = True  # no bare "\r" in a plain source: its line i is the editor's line i
    source_language: str | None = None  # the one a formatted source document declares
    # what the documents declared when the checks' configuration was made (:func:`_declared`)
    declared: tuple | None = None
    # made when first asked, for the source's text: where each of those lines is
    # (formats.plain.scored_lines), where each LSP line starts
    source_spans: list | None = None
    source_starts: list[int] | None = None
    # a formatted hypothesis's source document read by its format's reader: its sources, and per
    # segment the one its record pairs with (by id, else position; None where there is none)
    stream: list | None = None
    partners: list | None = None
    sources: list[str] = field(default_factory=list)  # each segment's source, as last checked
    codes: list = field(default_factory=list)  # and its record's inline codes (Entry.codes)
    layout: object = None  # the hypothesis's layout those sources were read from (formatted)
    stale: bool = True  # the source document changed since
    flagged: list[int] = field(default_factory=list)  # segments with findings, ascending
    flagged_set: frozenset[int] = frozenset()


def attach(ls, review) -> None:
    """Give a review whose hypothesis has a source its :class:`Qa` (after its corpus is built);
    what stands in the way is a problem on the hypothesis's first line."""
    review.qa = None
    settings = review.settings.qa
    corpus = review.corpus
    if not settings.enabled or corpus is None:
        return
    held = review.layouts is not None and review.layout(0).sources() is not None
    source = None if held else review.pairing.source
    if source is None and not held:
        return
    if review.layouts is None and review.config.segmentation != "line":
        review.problems.append(Problem("pairing.qa-segmentation", "the QA checks pair each hypothesis line with its source line: they need scorelens.segmentation \"line\""))
        return
    text = ""
    if source is not None:
        if source in review.pairing.outside and not review.settings.allow_outside_workspace:
            review.problems.append(
                Problem("pairing.outside-workspace", f"source {to_fs_path(source)} is outside the workspace folders; set scorelens.allowOutsideWorkspace to check against it", source)
            )
            return
        try:
            text = ls.documents.text(source, review.settings.max_file_bytes)
        except UnreadableText as exc:
            review.problems.append(Problem("pairing.unreadable-source", f"source {exc}", source))
            return
    review.qa = Qa(None, source)
    if source is not None:  # read first: the language it declares is the checks'
        try:
            _read_source(review, text)
        except FormatError as exc:
            review.problems.append(Problem("pairing.unreadable-source", f"source {exc}", source))
            review.qa = None
            return
    _start_checks(ls, review)


def _declared(review) -> tuple:
    """The languages the documents declare: the formatted hypothesis's (source, target) and its
    source document's source language."""
    return review.last_read.languages if review.layouts is not None else (None, None), review.qa.source_language


def _start_checks(ls, review) -> None:
    """A new QA document, with the languages the documents declare now: every segment is checked
    again. A glossary that cannot be read is a problem, and there are no checks."""
    from ..core.qa import QADocument

    qa = review.qa
    qa.declared = _declared(review)
    try:
        qa.document = QADocument(_config(ls, review, qa.source_uri))
    except ValueError as exc:
        review.problems.append(Problem("pairing.unreadable-glossary", str(exc)))
        review.qa = None
        return
    qa.sources, qa.codes, qa.stale = [], [], True


def _read_source(review, text: str) -> None:
    """Take the source document's text: its lines, and for a formatted hypothesis its records
    paired with the hypothesis's (FormatError if it cannot be read)."""
    qa = review.qa
    qa.source_text, qa.source_lines = text, split_breaks(text)[0]
    qa.source_spans = qa.source_starts = None
    qa.stale = True
    if review.layouts is None:  # plain text: segment i's source is line i
        from ..formats.plain import scored_texts

        qa.source_texts = scored_texts(text)
        qa.source_aligned = text.count("\r") == text.count("\r\n")
        return
    from ..formats import Fields, read
    from ..formats.pairing import source_stream

    path = to_fs_path(qa.source_uri) or qa.source_uri
    reading = read(text, format_of(path), Fields(sources_only=True))
    qa.stream, qa.source_language = source_stream(reading), reading.languages[0]


def _config(ls, review, source: str | None):
    """The checks' configuration: the enabled checks, the languages (the setting's, else the
    documents' or their names': :func:`~scorelens.pairing_rules.qa_languages`), the glossary;
    ValueError for a glossary that cannot be read."""
    from ..core.qa import CHECKS, QAConfig
    from ..glossary_file import read_glossary
    from ..pairing_rules import qa_languages

    settings = review.settings.qa
    declared, source_declared = review.qa.declared
    source_path = Path(to_fs_path(source) or source) if source is not None else None
    languages = qa_languages(settings.language, declared, source_declared, source_path, Path(to_fs_path(review.uri) or review.uri))
    glossary = None
    if settings.glossary:
        path = model_path(ls, review.uri, settings.glossary)
        read = read_glossary(path, languages, review.settings.max_file_bytes, "scorelens.maxFileBytes")
        for line in read.errors:
            ls.log(line)
        glossary = read.glossary
    checks = frozenset(name for name in CHECKS if settings.checks.get(name, CHECKS[name]) != "off")
    return QAConfig(*languages, checks, glossary)


async def check_long_lines(ls, review) -> None:
    """Check in the worker process the long lines of a plain-text hypothesis that :func:`refresh`
    is about to check, leaving their findings where it takes them: a line of a million characters
    (a file whose lines end in a bare ``\r`` is one) takes the checks seconds, the loop's otherwise.
    If the worker fails, :func:`refresh` checks them itself."""
    qa, corpus = review.qa, review.corpus
    if qa is None or review.layouts is not None or qa.source_uri is None:
        return
    texts = corpus.texts_of(0)
    ends = (0, 0) if qa.stale else corpus.edited(0, FOLLOWER)  # (lines before and after the edit)
    if ends is None:
        return  # no line changed
    first, stop = ends[0], len(texts) - ends[1]
    layout = review.layout(0)
    pairs = qa.document.unchecked(
        (qa.source_texts[i] if i < len(qa.source_texts) else "", layout.written_text(i))
        for i in range(first, stop)
        if len(texts[i]) > LONG_SEGMENT_CHARS or (i < len(qa.source_texts) and len(qa.source_texts[i]) > LONG_SEGMENT_CHARS)
    )
    if not pairs:
        return
    from ..core.qa.segment import check_pairs

    try:
        findings = await ls.worker.run(check_pairs, pairs, qa.document.config)
    except WorkerDied:
        return
    qa.document.remember(pairs, findings)


def refresh(ls, review) -> None:
    """Bring the checked pairs up to the corpus's texts and the source's (cheap when an edit
    changed a segment or two: only those are checked again). An edit of the languages a document
    declares (an XLIFF's ``target-language``, a PO's ``Language:``), read with the rest of it
    again, makes the checks anew in those languages."""
    if _declared(review) != review.qa.declared:
        _start_checks(ls, review)
        if review.qa is None:
            return
    qa, corpus = review.qa, review.corpus
    targets = corpus.texts_of(0)
    n, before = len(targets), len(qa.document)
    ends = corpus.take_edited(0, FOLLOWER)
    layout = review.layouts[0] if review.layouts is not None else None
    edited = layout.take_edited_sources() if layout is not None else set()
    if qa.stale or n != before or layout is not qa.layout:
        sources, codes = _sources(review, n), _codes(layout, n)
        # an inline code removed leaves the texts as they were: the pair is checked again all the same
        same_head, same_tail = common_ends([*zip(qa.sources, qa.codes)], [*zip(sources, codes)])
        qa.layout = layout
    else:  # the same records, read again where edited: only their sources can have changed
        sources, codes, same_head, same_tail = qa.sources, qa.codes, n, n
        if edited and qa.source_uri is None:
            for segment in edited:
                held = layout.entry(segment).source
                sources[segment] = held.text if held is not None else ""
            same_head, same_tail = min(edited), n - 1 - max(edited)
    if ends is None and same_head == n == before:
        return
    start = min(ends[0] if ends is not None else n, same_head)
    if n == before:
        stop = new_stop = n - min(ends[1] if ends is not None else n, same_tail)
    else:  # the segments after the edit moved: each now pairs with another source
        stop, new_stop = before, n
    if start < max(stop, new_stop):
        if layout is None:  # plain text: the lines as written, not the corpus's right-stripped ones
            checked = [review.layout(0).written_text(i) for i in range(start, new_stop)]
        else:
            checked = targets[start:new_stop]
        qa.document.replace(start, stop, sources[start:new_stop], checked, codes[start:new_stop] if layout is not None else None)
    qa.sources, qa.codes, qa.stale = sources, codes, False
    qa.flagged = qa.document.flagged()
    qa.flagged_set = frozenset(qa.flagged)


def _codes(layout, n: int) -> list:
    """Each of the corpus's ``n`` segments' inline codes (none where its record has none)."""
    held = [e.codes for e in layout.entries[:n]] if layout is not None else []
    return held + [((), ())] * (n - len(held))


def _sources(review, n: int) -> list[str]:
    """Each of the corpus's ``n`` segments' source ("" where there is none)."""
    qa = review.qa
    if qa.source_uri is None:
        held = review.layout(0).sources() or []
    elif qa.stream is not None:
        from ..formats.pairing import partners

        # the hypothesis's records may have been read again since: paired anew
        qa.partners = partners(review.layout(0).entries, qa.stream, review.pairing.read.pair_by)
        held = [e.segment.text if e is not None else "" for e in qa.partners]
    else:
        held = qa.source_texts[:n]
    return held[:n] + [""] * (n - len(held))


def source_changed(review, uri: str, text: str) -> bool:
    """The document at ``uri`` changed (``text`` now): whether it is the review's source, taken
    (False too for a source that no longer reads: the review is to be loaded again)."""
    qa = review.qa
    if qa is None or qa.source_uri != uri:
        return False
    try:
        _read_source(review, text)
    except FormatError:
        return False
    return True


def findings(review, segment: int) -> list:
    qa = review.qa
    if qa is None or segment not in qa.flagged_set:
        return []
    return qa.document.findings(segment)


def severity(review, code: str) -> str:
    """A check's severity: the setting's, else the check's own default ("off": not shown)."""
    from ..core.qa import CHECKS

    name = code.removeprefix("qa.")
    return review.settings.qa.checks.get(name, CHECKS.get(name, "warning"))


def source_place(review, finding) -> tuple[str, int, int] | None:
    """(uri, line, column in code points) in the source of a finding's matching place."""
    qa = review.qa
    if finding.source_start is None:
        return None
    if qa.source_uri is None:
        line, column = review.layout(0).source_position(finding.segment, finding.source_start)
        return review.uri, line, column
    if qa.stream is not None:
        entry = qa.partners[finding.segment]
        m = entry.segment.map
        if not m.pieces:
            return qa.source_uri, entry.line - 1, 0
        offset = m.offset(finding.source_start)
    elif qa.source_aligned:
        return qa.source_uri, finding.segment, finding.source_start
    else:
        if qa.source_spans is None:
            from ..formats.plain import scored_lines

            qa.source_spans = scored_lines(qa.source_text)
        offset = qa.source_spans[finding.segment][0] + finding.source_start
    if qa.source_starts is None:
        qa.source_starts = line_starts(qa.source_text)
    line = bisect.bisect_right(qa.source_starts, offset) - 1
    return qa.source_uri, line, offset - qa.source_starts[line]


def lines_of(review, uri: str) -> list[str]:
    """A document's lines, for columns in the client's units."""
    qa = review.qa
    if uri == review.uri:
        return review.layout(0).lines
    return qa.source_lines if qa is not None else []


def counts(review) -> dict:
    """``{"findings", "errors"}`` shown (checks not "off"), for scorelens/scores and the code lens."""
    by_code = review.qa.document.counts()
    shown = {code: n for code, n in by_code.items() if severity(review, code) != "off"}
    return {"findings": sum(shown.values()), "errors": sum(n for code, n in shown.items() if severity(review, code) == "error")}


def label(review) -> str:
    """``QA 3 findings, 1 error``: the code lens's part, for a review with a source."""
    if review.qa is None:
        return ""
    c = counts(review)
    errors = f", {c['errors']} error{'s' if c['errors'] != 1 else ''}" if c["errors"] else ""
    return f"QA {c['findings']} finding{'s' if c['findings'] != 1 else ''}{errors}"


def description(review, segment: int, markdown: bool, escape) -> list[str]:
    """A hover's QA part: the segment's source, and each check it fails with its glossary entry
    (texts through ``escape``: Markdown's, or none for plain text)."""
    qa = review.qa
    if qa is None or segment >= len(qa.sources) or not qa.sources[segment]:
        return []
    strong = "**" if markdown else ""
    item = "- " if markdown else "  "
    lines = ["", f"Source: {escape(qa.sources[segment])}"]
    found = [f for f in findings(review, segment) if severity(review, f.code) != "off"]
    if found:
        lines += ["", f"{strong}QA{strong}"]
        lines += [f"{item}{f.code}: {escape(f.message)}" + (f" — {escape(f.note)}" if f.note else "") for f in found]
    return lines
