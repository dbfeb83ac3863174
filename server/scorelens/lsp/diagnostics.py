"""Findings as diagnostics, pushed after each re-score or answered to a pull.

Per segment, diagnostics are cached as JSON text, keyed by the segment's texts and first lines
(all they are made from): a keystroke changes one segment, so only its diagnostics are rebuilt,
and a push joins cached text instead of encoding up to ``maxProblems`` diagnostics again. At
most ``maxProblems`` are sent per file, spent where the user is: around the lines the client
shows (``scorelens/visibleRanges``), then around the last places edited (once the user stays
there: see :meth:`Review.edited`), then from the top. One more diagnostic, where the user looks,
says how many were left out and how to see them. They are built a slice at a time
(:func:`gathered`): a new place's ``maxProblems`` take tens of ms.
"""

from __future__ import annotations

import itertools
import json
import secrets
import time
from collections.abc import Iterator

import attrs
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import to_fs_path

from ..core import Finding
from ..core import findings as codes
from ..core.flavours import ROUGE_UNMATCHED
from ..core.fluency import OOV, UNLIKELY
from ..textfile import BOM, BOM_NOTE
from . import fluency, qa
from .reviews import SLICE_SECONDS, Review
from .writer import RawResult

SOURCE = "scorelens"
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
_CATEGORY = {"bleu": "bleu", "wer": "wer", "rouge": "rouge", "ter": "ter", "lm": "lm", "pairing": "pairing", "format": "pairing", "scorelens": "pairing"}
DROPPED_TEXT = "rouge.tokenizer-dropped-text"
LINE_COUNTS = "pairing.line-count-mismatch"
BYTE_ORDER_MARK = "pairing.byte-order-mark"
TRUNCATED = "scorelens.truncated"
VISIBLE_RANGES = "scorelens/visibleRanges"
# The budget goes first to the visible lines and as many again above and below them, so a scroll
# of up to a page finds its diagnostics before the client's next visible ranges arrive (see
# _windows); then to this many lines either side of each of the last edits.
EDIT_REACH = 20
# Visible ranges kept per document: an editor shows a few (folded regions split them); a client
# sending thousands would have every re-score walk them all.
MAX_VISIBLE_RANGES = 16
_CONVERTER = default_converter()
# A pull's resultId: this process's mark, so an id a client kept from an earlier server is not
# taken for one of this server's, and a number per distinct answer.
RESULT_ID_PREFIX = secrets.token_hex(4)
_result_numbers = itertools.count(1)


@attrs.define
class VisibleRangesParams:
    uri: str
    ranges: list[types.Range]


@attrs.define
class VisibleRangesNotification:
    """Typed, so malformed params are dropped at the edge as LSP's own (:mod:`.wire`)."""

    params: VisibleRangesParams
    method: str = VISIBLE_RANGES
    jsonrpc: str = "2.0"


def severity(review: Review, code: str) -> types.DiagnosticSeverity | None:
    if code.startswith("qa."):
        return _SEVERITY.get(qa.severity(review, code))  # each check has its own
    category = _CATEGORY[code.split(".")[0]]
    if code == DROPPED_TEXT:
        category = "pairing"
    return _SEVERITY.get(getattr(review.settings.severity, category))


def _range(ls, review: Review, side: int, segment: int, start: int, end: int) -> dict:
    """An LSP range as JSON: a finding's diagnostic is built as the JSON it is sent as (lsprotocol
    objects and their unstructuring cost three times as much, paid for each diagnostic near a
    new edit)."""
    layout = review.layout(side)
    lines = layout.lines
    to_client = ls.columns.to_client
    (a, a_col), (b, b_col) = layout.span(segment, start, end)
    return {
        "start": {"line": a, "character": to_client(lines[a] if a < len(lines) else "", a_col)},
        "end": {"line": b, "character": to_client(lines[b] if b < len(lines) else "", b_col)},
    }


def side_uri(review: Review, side: int) -> str:
    return review.uri if side == 0 else review.pairing.references[side - 1]


def _message(finding: Finding, nrefs: int) -> str:
    if finding.code == codes.UNMATCHED:
        where = "any reference" if nrefs > 1 else "the reference"
        return f'"{finding.text}" is not in {where} (BLEU: unmatched after clipping)'
    if finding.code == codes.SUBSTITUTION:
        return f'"{finding.text}" where the reference has "{finding.other_text}" (WER: substitution)'
    if finding.code == codes.INSERTION:
        return f'"{finding.text}" is not in the reference (WER: insertion)'
    if finding.code == codes.DELETION:
        return f'"{finding.text}" is missing from the hypothesis (WER: deletion)'
    if finding.code == codes.SHIFT:
        return f'"{finding.text}" is in another place in the reference (TER: shift)'
    if finding.code == ROUGE_UNMATCHED:
        where = "any reference" if nrefs > 1 else "the reference"
        return f'"{finding.text}" is not in {where} (ROUGE: unmatched word)'
    return f'"{finding.text}" is outside the longest common subsequence (ROUGE-L)'


def _fix(ls, review: Review, finding: Finding, where: dict) -> dict | None:
    """What a quick fix needs, in the hypothesis's coordinates, its text written as the document
    writes text (escaped inside a JSON string, say). None where the edit would take markup
    between the words along (an XLIFF tag, a subtitle's italics) or the document cannot hold
    the text there (a comma in an unquoted CSV field)."""
    corpus, layout, segment = review.corpus, review.layout(0), finding.segment
    if not layout.editable(segment):
        return None

    def whole(a: int, b: int) -> bool:
        return len(layout.runs(segment, a, b)) == 1

    def escape(text: str) -> str:
        return layout.escape(segment, text)

    try:
        if finding.code == codes.SUBSTITUTION and whole(finding.start, finding.end):
            # "words": the fix's title shows them as they read, not as the document escapes them
            return {"fix": "replace", "uri": review.uri, "range": where, "text": escape(finding.other_text), "words": finding.other_text}
        if finding.code == codes.INSERTION:
            text = corpus.text(0, segment)
            a, b = finding.start, finding.end
            # take one neighbouring space along, so no double space is left behind
            spaced = [(a, b + 1)] if b < len(text) and text[b] == " " else []
            spaced += [(a - 1, b)] if a > 0 and text[a - 1] == " " else []
            found = next(((x, y) for x, y in (*spaced, (a, b)) if whole(x, y)), None)
            if found is not None:
                # the empty text too is the format's to allow (a CTM line cannot lose its word)
                return {"fix": "delete", "uri": review.uri, "range": _range(ls, review, 0, segment, *found), "text": escape("")}
        if finding.code == codes.DELETION:
            text = corpus.text(0, segment)
            p = finding.other_start
            words = finding.text
            insert = f" {words}" if p > 0 else (f"{words} " if text.strip() else words)
            return {
                "fix": "insert",
                "uri": review.uri,
                "range": _range(ls, review, 0, segment, p, p),
                "text": escape(insert),
                "words": words,
            }
        if finding.code == codes.SHIFT and finding.target is not None:
            a, b, new = moved(corpus.text(0, segment), finding.start, finding.end, finding.target)
            if whole(a, b):
                return {"fix": "move", "uri": review.uri, "range": _range(ls, review, 0, segment, a, b), "text": escape(new)}
    except ValueError:
        pass
    return None


def moved(text: str, start: int, end: int, target: int) -> tuple[int, int, str]:
    """``text[start:end]`` moved to offset ``target`` as one replacement ``(a, b, new)`` of
    ``text[a:b]``: one neighbouring space goes with the words, one comes at their new place."""
    a, b = start, end
    if b < len(text) and text[b] == " ":
        b += 1
    elif a > 0 and text[a - 1] == " ":
        a -= 1
    rest = text[:a] + text[b:]
    at = target - (b - a) if target >= b else target
    piece = text[start:end] + " " if at == 0 or rest[at - 1] == " " else " " + text[start:end]
    new = rest[:at] + piece + rest[at:]
    lo, hi = min(a, target), max(b, target)  # from the words' old place to their new one
    return lo, hi, new[lo : len(new) - (len(text) - hi)]


def _diagnostic(ls, review: Review, finding: Finding, side: int) -> dict | None:
    """A finding's diagnostic on one side, as the JSON of an LSP ``Diagnostic``."""
    sev = severity(review, finding.code)
    if sev is None:
        return None
    nrefs = len(review.pairing.references)
    related = None
    if finding.code == codes.DELETION and side == 0:
        # shown on the hypothesis at the gap where the reference words belong
        where = _range(ls, review, 0, finding.segment, finding.other_start, finding.other_end)
        other = _range(ls, review, finding.side, finding.segment, finding.start, finding.end)
        related = [_related(side_uri(review, finding.side), other, "in the reference")]
        message = f'missing "{finding.text}" here (WER: deletion)'
    else:
        where = _range(ls, review, finding.side, finding.segment, finding.start, finding.end)
        message = fluency.message(review, finding) if finding.code in (UNLIKELY, OOV) else _message(finding, nrefs)
        if finding.other_side is not None:
            other = _range(ls, review, finding.other_side, finding.segment, finding.other_start, finding.other_end)
            label = "in the hypothesis" if finding.other_side == 0 else "in the reference"
            related = [_related(side_uri(review, finding.other_side), other, label)]
        elif finding.code == codes.UNMATCHED:
            related = [
                _related(ref, _line_range(ls, review, k + 1, finding.segment), "reference segment")
                for k, ref in enumerate(review.pairing.references)
            ]
    diagnostic = {"range": where, "severity": int(sev), "code": finding.code, "source": SOURCE, "message": message}
    if related is not None:
        diagnostic["relatedInformation"] = related
    if side == 0:
        data = _fix(ls, review, finding, where)
        if data is not None:
            diagnostic["data"] = data
    return diagnostic


def _qa_diagnostic(ls, review: Review, finding) -> dict | None:
    """A QA finding's diagnostic on the hypothesis: related to its source's matching place, or
    to the segment translated otherwise; with its fix, where it has one."""
    sev = severity(review, finding.code)
    if sev is None:
        return None
    where = _range(ls, review, 0, finding.segment, finding.start, finding.end)
    diagnostic = {"range": where, "severity": int(sev), "code": finding.code, "source": SOURCE, "message": finding.message}
    place = qa.source_place(review, finding)
    if finding.other_segment is not None:
        other = _line_range(ls, review, 0, finding.other_segment)
        diagnostic["relatedInformation"] = [_related(review.uri, other, "translated otherwise here")]
    elif place is not None:
        uri, line, column = place
        lines = qa.lines_of(review, uri)
        text = lines[line] if line < len(lines) else ""
        point = {"line": line, "character": ls.columns.to_client(text, column)}
        diagnostic["relatedInformation"] = [_related(uri, {"start": point, "end": point}, "in the source")]
    fix, layout = finding.fix, review.layout(0)
    # (as a word error's fix: not across markup, nor a text the document cannot hold there)
    if fix is not None and layout.editable(finding.segment) and len(layout.runs(finding.segment, fix.start, fix.end)) == 1:
        try:
            text = layout.escape(finding.segment, fix.text)
        except ValueError:
            return diagnostic
        diagnostic["data"] = {
            "fix": "qa",
            "title": fix.title,
            "uri": review.uri,
            "range": _range(ls, review, 0, finding.segment, fix.start, fix.end),
            "text": text,
            "words": fix.text,
        }
    return diagnostic


def _related(uri: str, where: dict, message: str) -> dict:
    return {"location": {"uri": uri, "range": where}, "message": message}


def _line_range(ls, review: Review, side: int, segment: int) -> dict:
    text = review.corpus.text(side, segment)
    return _range(ls, review, side, segment, 0, len(text))


def _segment(ls, review: Review, segment: int) -> tuple[dict[int, list[str]], dict[int, int], bool]:
    """JSON of one differing segment's diagnostics per side, rebuilt only when it changed, per
    side how many more there are (at most ``maxProblems`` are built: a huge segment can have
    tens of thousands, and no more than that many are ever sent), and whether it was built now."""
    corpus = review.corpus
    sides = range(corpus.references + 1)
    # an lm.unlikely finding depends on the rest of the document: whether the segment is one is in the key
    unlikely = tuple(segment in u for u in review.lm.unlikely.values()) if review.lm is not None else ()
    # a QA finding depends on the source and on the rest of the document (inconsistent, length ratio)
    checked = tuple(qa.findings(review, segment)) if review.qa is not None else ()
    layouts = [review.layout(side) for side in sides]
    key = (corpus.texts(segment), tuple((lay.first_line(segment), lay.shape(segment)) for lay in layouts), unlikely, checked)
    cached = review.cache.get(segment)
    if cached is not None and cached[0] == key:
        return cached[1], cached[2], False
    cap = review.settings.max_problems
    per_side: dict[int, list[str]] = {}
    more: dict[int, int] = {}
    for finding in corpus.findings(segment) + fluency.findings(review, segment):
        if severity(review, finding.code) is None:
            continue
        shown_on = [finding.side]
        if finding.code == codes.DELETION:
            shown_on.append(0)
        for side in shown_on:
            diags = per_side.setdefault(side, [])
            if len(diags) < cap:
                diags.append(json.dumps(_diagnostic(ls, review, finding, side)))
            else:
                more[side] = more.get(side, 0) + 1
    for finding in checked:
        diags = per_side.setdefault(0, [])
        if len(diags) >= cap:
            more[0] = more.get(0, 0) + 1
        elif (d := _qa_diagnostic(ls, review, finding)) is not None:
            diags.append(json.dumps(d))
    review.cache[segment] = (key, per_side, more)
    return per_side, more, True


def _json(diagnostic: types.Diagnostic) -> str:
    return json.dumps(_CONVERTER.unstructure(diagnostic))


def _document_problems(ls, review: Review) -> list[types.Diagnostic]:
    """Problems of the pairing as a whole, on the hypothesis's first line (or where one is)."""
    found = []
    first_line = types.Range(types.Position(0, 0), types.Position(0, 0))
    sev = severity(review, "pairing.x")
    if sev is None:
        return []
    for p in review.problems:
        where = first_line if p.at is None else types.Range(types.Position(*p.at), types.Position(*p.at))
        found.append(types.Diagnostic(where, p.message, sev, code=p.code, source=SOURCE))
    corpus = review.corpus
    if corpus is None:
        return found
    counts = corpus.segment_counts()
    if len(set(counts)) > 1:
        names = ["hypothesis"] + [to_fs_path(r).rsplit("/", 1)[-1] for r in review.pairing.references]
        detail = ", ".join(f"{name}: {n}" for name, n in zip(names, counts))
        found.append(
            types.Diagnostic(
                first_line,
                f"segment counts differ ({detail}); missing segments are scored as empty",
                sev,
                code=LINE_COUNTS,
                source=SOURCE,
            )
        )
    dropped = corpus.totals().dropped
    if dropped and review.config.metrics & {"rougeL", "rougeLsum"}:
        found.append(
            types.Diagnostic(
                first_line,
                f"rouge-score's tokenizer drops every non-ASCII letter; text was dropped in {dropped} "
                "segment(s), so ROUGE ignores it. Switch scorelens.rouge.tokenizer to \"unicode\" to keep it.",
                sev,
                code=DROPPED_TEXT,
                source=SOURCE,
                data={"fix": "rouge-tokenizer", "tokenizer": "unicode"},
            )
        )
    return found


def on_lines(ls, review: Review, first: int, last: int) -> list[types.Diagnostic]:
    """The hypothesis's diagnostics on these lines, as the server made them: code actions are
    computed from these, whatever part of them the client echoes back."""
    corpus = review.corpus
    found = _document_problems(ls, review) if first == 0 else []
    if corpus is None:
        return found
    layout = review.layout(0)
    # the first segment on these lines (a blank line between paragraphs belongs to none)
    segment = None
    for line in range(first, last + 1):
        segment = layout.segment_at(line)
        if segment is not None:
            break
    while segment is not None and segment < len(corpus) and layout.first_line(segment) <= last:
        for finding in corpus.findings(segment):
            if finding.side == 0 or finding.code == codes.DELETION:
                d = _diagnostic(ls, review, finding, 0)
                if d is not None:
                    found.append(_CONVERTER.structure(d, types.Diagnostic))
        for finding in qa.findings(review, segment):
            d = _qa_diagnostic(ls, review, finding)
            if d is not None:
                found.append(_CONVERTER.structure(d, types.Diagnostic))
        segment += 1
    return found


def _windows(ls, review: Review) -> list[tuple[int, int, int]]:
    """(side, line, reach) where the budget goes first, from that line outwards: the middle of
    each visible range of the review's documents, out to as many lines again above and below the
    range (a dense file's budget may not cover a screen: its middle, where Ctrl+G puts the line,
    comes first), then each of the last places edited that the user stayed at (see
    :meth:`Review.edited`), ``EDIT_REACH`` lines either side."""
    windows = []
    for uri in (review.uri, *review.pairing.references):
        for first, last in ls.visible.get(uri, ()):
            height = last - first + 1
            windows += [(side, (first + last) // 2, height // 2 + height) for side in review.sides(uri)]
    windows += [(side, line, EDIT_REACH) for side, line in review.followed]
    return windows


def _outward(inner: range, outer: range) -> Iterator[int]:
    """``inner``, then the rest of ``outer`` from the nearest to the farthest, below and above."""
    yield from inner
    for d in range(1, max(inner.start - outer.start, outer.stop - inner.stop) + 1):
        if inner.stop - 1 + d < outer.stop:
            yield inner.stop - 1 + d
        if inner.start - d >= outer.start:
            yield inner.start - d


def _in_order(ls, review: Review) -> Iterator[int]:
    """Each segment with differences once, in the order the ``maxProblems`` budget is spent."""
    corpus = review.corpus
    flagged = _flagged(review)
    seen: set[int] = set()
    for side, line, reach in _windows(ls, review):
        layout = review.layout(side)
        inner = layout.segments_on(line, line)
        outer = layout.segments_on(max(line - reach, 0), line + reach)
        for segment in _outward(inner, outer):
            if segment not in seen and (corpus.next_differing(segment) == segment or segment in flagged):
                seen.add(segment)
                yield segment
    for segment in _with_findings(review):
        if segment not in seen:
            yield segment


def _flagged(review: Review) -> set[int]:
    """Segments with findings that are not the corpus's: fluency's and the QA checks'."""
    found = set(review.lm.flagged) if review.lm is not None else set()
    if review.qa is not None:
        found = found | review.qa.flagged_set if found else review.qa.flagged_set
    return found


def _with_findings(review: Review) -> Iterator[int]:
    """The segments with findings, in order: those the corpus found, fluency's and the QA checks'."""
    corpus = review.corpus
    flagged = sorted(_flagged(review))
    k = 0
    segment = corpus.next_differing()
    while segment is not None or k < len(flagged):
        if segment is None or (k < len(flagged) and flagged[k] < segment):
            yield flagged[k]
            k += 1
            continue
        yield segment
        if k < len(flagged) and flagged[k] == segment:
            k += 1
        segment = corpus.next_differing(segment + 1)


def _byte_order_marks(ls, review: Review, open_refs: dict[int, str]) -> dict[str, list[str]]:
    """A leading U+FEFF is scored as part of the first word: said on that character, or on the
    hypothesis's first line for a reference that is not open."""
    sev = severity(review, BYTE_ORDER_MARK)
    found: dict[str, list[str]] = {}
    if sev is None:
        return found
    for side in range(review.corpus.references + 1):
        layout = review.layout(side)
        # a mark the reader kept in the first text, at the document's very start
        if not review.corpus.text(side, 0).startswith(BOM) or layout.position(0, 0) != (0, 0):
            continue
        lines = layout.lines
        uri = review.uri if side == 0 else open_refs.get(side)
        if uri is None:
            where = types.Range(types.Position(0, 0), types.Position(0, 0))
            message = f"reference {to_fs_path(side_uri(review, side))}: {BOM_NOTE}"
            uri = review.uri
        else:
            where = types.Range(ls.columns.position(lines, 0, 0), ls.columns.position(lines, 0, 1))
            message = BOM_NOTE
        found.setdefault(uri, []).append(_json(types.Diagnostic(where, message, sev, code=BYTE_ORDER_MARK, source=SOURCE)))
    return found


def _record_problems(ls, review: Review) -> dict[str, list[str]]:
    """Records of a formatted document that could not be read or found no partner, each on its
    line; those of a reference that is not open on the hypothesis's first line, named."""
    found: dict[str, list[str]] = {}
    if not review.record_problems:
        return found
    lines_of = {review.uri: review.layout(0).lines}
    for k, ref in enumerate(review.pairing.references, 1):
        if ref in ls.documents.open:
            lines_of.setdefault(ref, review.layout(k).lines)
    for p in review.record_problems:
        sev = severity(review, p.code)
        if sev is None:
            continue
        lines = lines_of.get(p.uri)
        if lines is None:
            where = types.Range(types.Position(0, 0), types.Position(0, 0))
            diagnostic = types.Diagnostic(where, f"{to_fs_path(p.uri)}:{p.line + 1}: {p.message}", sev, code=p.code, source=SOURCE)
            found.setdefault(review.uri, []).append(_json(diagnostic))
            continue
        text = lines[p.line] if p.line < len(lines) else ""
        where = types.Range(types.Position(p.line, 0), ls.columns.position(lines, p.line, len(text)))
        found.setdefault(p.uri, []).append(_json(types.Diagnostic(where, p.message, sev, code=p.code, source=SOURCE)))
    return found


def collect(ls, review: Review, until: float | None = None) -> dict[str, list[str]] | None:
    """Every document's diagnostics (as JSON) from this review: the hypothesis and its open
    references. Segments whose diagnostics are not built yet are built until ``until`` (a
    ``time.perf_counter()``); None if it came first: what was built is kept, so a call after the
    event loop has had its turn goes on from there (see :func:`gathered`)."""
    hyp = [_json(d) for d in _document_problems(ls, review)]
    out: dict[str, list[str]] = {review.uri: hyp}
    corpus = review.corpus
    if corpus is None:
        return out
    cap = review.settings.max_problems
    open_refs = {k + 1: ref for k, ref in enumerate(review.pairing.references) if ref in ls.documents.open}
    for ref in open_refs.values():
        out.setdefault(ref, [])
    for uri, diags in _byte_order_marks(ls, review, open_refs).items():
        out[uri].extend(diags)
    for uri, diags in _record_problems(ls, review).items():
        out[uri].extend(diags)
    not_built = dict.fromkeys(out, 0)
    # per document, each chosen segment's diagnostics in the order the budget is spent
    pieces: dict[str, list[tuple[int, list[str]]]] = {uri: [] for uri in out}
    shown = len(hyp)
    chosen: list[int] = []
    built = False  # at least one segment per call, so a call after a yield always gets further
    for segment in _in_order(ls, review):
        if shown >= cap:
            break
        if built and until is not None and time.perf_counter() > until:
            return None
        chosen.append(segment)
        per_side, more, fresh = _segment(ls, review, segment)
        built |= fresh
        shown += len(per_side.get(0, ()))
        for side, diags in per_side.items():
            uri = review.uri if side == 0 else open_refs.get(side)
            if uri is not None:
                pieces[uri].append((segment, diags))
                not_built[uri] += more.get(side, 0)
    # The cache keeps what this push shows (at most maxProblems' worth): as the user edits and looks
    # around, the segments shown before would otherwise pile up until the whole document is held.
    if len(review.cache) > len(chosen):
        review.cache = {segment: review.cache[segment] for segment in chosen if segment in review.cache}
    left = corpus.totals().differing + _flagged_only(review) - len(chosen)
    for uri, diags in out.items():
        total = len(diags) + sum(len(d) for _, d in pieces[uri])
        cutting = total > cap or left or not_built[uri]
        # room for the note; what does not fit is cut from the segments chosen last
        room = cap - 1 - len(diags) if cutting else total
        kept = []
        for segment, d in pieces[uri]:
            kept.append((segment, d[: max(room, 0)]))
            room -= len(d)
        # Cut: nearest the user first, as VS Code draws squiggles for a file's first 500 only.
        # Whole: in document order, so a scroll that changes nothing sends the same message.
        for _, d in kept if cutting else sorted(kept, key=lambda piece: piece[0]):
            diags.extend(d)
        if not cutting:
            continue
        del diags[cap - 1 :]
        cut = total - len(diags) + not_built[uri]
        parts = [f"{cut} more findings"] if cut else []
        if left:
            parts.append(f"{left} more segments with differences")
        line = _note_line(ls, review, uri, [segment for segment, d in kept if d])
        summary = types.Diagnostic(
            types.Range(types.Position(line, 0), types.Position(line, 0)),
            " and ".join(parts) + f" not shown (scorelens.maxProblems = {cap}): raise scorelens.maxProblems "
            "to see more of them here, or open the ScoreLens report (the code lens on line 1) for every segment",
            types.DiagnosticSeverity.Information,
            code=TRUNCATED,
            source=SOURCE,
        )
        diags.append(_json(summary))
    return out


def _flagged_only(review: Review) -> int:
    """Segments with fluency or QA findings only (the corpus counts those with its own)."""
    flagged = _flagged(review)
    if not flagged:
        return 0
    differs = review.corpus.next_differing
    return sum(1 for segment in flagged if differs(segment) != segment)


def _note_line(ls, review: Review, uri: str, shown: list[int]) -> int:
    """Where the "not shown" note goes: the first visible line; else near the last edit, on the
    nearest line that shows no diagnostics of its own and is not the edited line (on the line
    just fixed, the note would look like the fix did not take); else line 1."""
    visible = ls.visible.get(uri)
    if visible:
        return visible[0][0]
    sides = review.sides(uri)
    side, edited = next(((side, line) for side, line in review.followed if side in sides), (None, None))
    if edited is None:
        return 0
    layout = review.layout(side)
    busy = {edited}
    for segment in shown:
        first = layout.first_line(segment)
        busy.update(range(first, first + layout.line_count(segment)))
    last = len(layout.lines) - 1
    for line in _outward(range(edited, edited + 1), range(0, last + 1)):
        if line not in busy:
            return line
    return edited


async def gathered(ls, review: Review) -> dict[str, list[str]] | None:
    """:func:`collect`, a slice at a time: a new place's ``maxProblems`` diagnostics take tens of
    ms to build, and the event loop answers meanwhile. None if the review or its corpus changed
    in between (what is under way for the change publishes)."""
    corpus = review.corpus
    while (found := collect(ls, review, time.perf_counter() + SLICE_SECONDS)) is None:
        await ls.scheduler.next_slice()
        if ls.reviews.get(review.uri) is not review or review.corpus is not corpus or corpus.dirty:
            return None
    return found


async def publish(ls, review: Review) -> bool:
    """Push the review's diagnostics (ask a pulling client to pull); False if the corpus changed
    while they were built, so nothing was sent."""
    if ls.pull_diagnostics:
        ls.workspace_diagnostic_refresh(None)
        return True
    found = await gathered(ls, review)
    if found is None:
        return False
    _push(ls, review, found)
    return True


def _push(ls, review: Review, found: dict[str, list[str]]) -> None:
    hypothesis_open = review.uri in ls.documents.open
    for uri, diags in found.items():
        version = review.versions.get(uri) if hypothesis_open else None
        review.markers[uri] = len(diags)
        params = f'{{"uri":{json.dumps(uri)},"version":{json.dumps(version)},"diagnostics":[{",".join(diags)}]}}'
        if ls.published.get(uri) == params:
            continue  # e.g. a review rebuilt for settings that changed nothing shown
        ls.published[uri] = params
        ls.notify_json(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)


def clear(ls, review: Review) -> None:
    if ls.pull_diagnostics:
        return
    for uri in (review.uri, *review.pairing.references):
        ls.published.pop(uri, None)
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


def offer_pull(ls) -> None:
    """Called from ``initialize``: answer ``textDocument/diagnostic`` instead of pushing if the
    client can be told to re-pull, as a hypothesis's diagnostics also change when its
    reference or the settings do. Neovim 0.11 pulls but cannot be told to, so it gets pushes."""
    ls.pull_diagnostics = ls.client_supports("text_document", "diagnostic") and ls.client_supports(
        "workspace", "diagnostics", "refresh_support"
    )
    if not ls.pull_diagnostics:
        return

    @ls.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier=SOURCE, inter_file_dependencies=True, workspace_diagnostics=False),
    )
    async def pull(ls, params: types.DocumentDiagnosticParams) -> dict | RawResult:
        uri = params.text_document.uri
        items: list[str] = []
        for review in ls.reviews_of(uri):
            while True:
                await ls.scheduler.settled(review, pause=True)
                found = await gathered(ls, review)
                if found is not None:
                    break
            items.extend(found.get(uri, []))
            review.markers[uri] = len(found.get(uri, []))
        content = ",".join(items)
        if ls.published.get(uri) != content or uri not in ls.result_ids:
            ls.published[uri] = content  # what the client holds: a scroll re-pulls only if it changes
            ls.result_ids[uri] = f"{RESULT_ID_PREFIX}-{next(_result_numbers)}"
        result_id = ls.result_ids[uri]
        if params.previous_result_id == result_id:
            # VS Code pulls after each change and again when asked to refresh: the second answer
            # would replace every marker of the document with the same ones
            return {"kind": "unchanged", "resultId": result_id}
        head = f'{{"kind":"full","resultId":{json.dumps(result_id)},"items":['.encode()
        return RawResult([content.encode()] if content else [], head, b"]}")


async def looked_elsewhere(ls, review: Review) -> None:
    """The user looks or works elsewhere: send what changed for the budget's new place. A
    pulling client is asked to pull again only if some document's diagnostics would differ."""
    if review.corpus is None or review.corpus.dirty or (review.task is not None and not review.task.done()):
        return  # the re-score under way publishes for the new place
    found = await gathered(ls, review)
    if found is None:
        return
    if not ls.pull_diagnostics:
        _push(ls, review, found)
        return
    for uri, diags in found.items():
        if uri in ls.published and ls.published[uri] != ",".join(diags):
            ls.workspace_diagnostic_refresh(None)
            return


def register(server) -> None:
    server.protocol.message_types[VISIBLE_RANGES] = VisibleRangesNotification

    @server.feature(VISIBLE_RANGES)
    async def visible_ranges(ls, params: VisibleRangesParams) -> None:
        """``{"uri", "ranges": [Range]}``: the lines of a document the client shows (none when
        it no longer shows it)."""
        uri = params.uri
        ranges = [(r.start.line, r.end.line) for r in params.ranges[:MAX_VISIBLE_RANGES]]
        if ranges:
            ls.visible[uri] = ranges
        else:
            ls.visible.pop(uri, None)
        for review in ls.reviews_of(uri):
            await looked_elsewhere(ls, review)
