"""Quick fixes from ScoreLens diagnostics: each one an edit, and the same fix as a command."""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter

from . import diagnostics

_CONVERTER = default_converter()

_TITLES = {
    "replace": "Replace with “{text}”",
    "insert": "Insert “{text}”",
    "delete": "Delete “{old}”",
    "move": "Move “{old}” to where the reference has it",
}


def fix_edit(data: Any) -> types.WorkspaceEdit:
    """The edit a fix's ``data`` describes; ValueError for anything else (a client sends it back)."""
    try:
        edit_range = _CONVERTER.structure(data["range"], types.Range)
        uri, text = data["uri"], data["text"]
    except Exception:  # not a mapping, a key missing, a range that is not one
        raise ValueError("not a fix's data: {uri, range, text} as in a ScoreLens diagnostic") from None
    if not isinstance(uri, str) or not isinstance(text, str):
        raise ValueError("not a fix's data: uri and text must be strings")
    return types.WorkspaceEdit(changes={uri: [types.TextEdit(edit_range, text)]})


def _take_line(ls, review, line: int) -> types.CodeAction | None:
    """Replace the hypothesis segment on this line with the first reference's segment: written
    where its first run of characters is, the others emptied, so that markup between them (an
    XLIFF tag, a subtitle's italics) stays; none if the document cannot hold the text there."""
    corpus, layout = review.corpus, review.layout(0)
    segment = layout.segment_at(line)
    if segment is None or corpus.text(0, segment) == corpus.text(1, segment) or not layout.editable(segment):
        return None
    try:
        new = layout.escape(segment, corpus.text(1, segment))
    except ValueError:
        return None
    lines = layout.lines
    edits = [
        types.TextEdit(types.Range(ls.columns.position(lines, *a), ls.columns.position(lines, *b)), "" if k else new)
        for k, (a, b) in enumerate(layout.runs(segment, 0, len(corpus.text(0, segment))))
    ]
    return types.CodeAction(
        title="Take the whole reference line",
        kind=types.CodeActionKind.QuickFix,
        edit=types.WorkspaceEdit(changes={review.uri: edits}),
    )


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (b.start.line, b.start.character) <= (
        a.end.line,
        a.end.character,
    )


def register(server) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])
    )
    def code_actions(ls, params: types.CodeActionParams):
        # From the server's own findings at the requested range: clients echo diagnostics back in
        # part only (Vim ALE sends {code, message, range}, without source or data).
        uri, wanted = params.text_document.uri, params.range
        review = ls.reviews.get(uri)
        if review is None:
            return []
        yield from ls.scheduler.settling(review)
        actions: list[types.CodeAction] = []
        lines_with_findings = set()
        for diag in diagnostics.on_lines(ls, review, wanted.start.line, wanted.end.line):
            data = diag.data if isinstance(diag.data, dict) else {}
            if data.get("fix") == "rouge-tokenizer":  # about the whole document, shown on its first line
                actions.append(
                    types.CodeAction(
                        title="Switch the ROUGE tokenizer to “unicode” (keeps non-ASCII letters)",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diag],
                        command=types.Command(title="Switch ROUGE tokenizer", command="scorelens.setRougeTokenizer", arguments=[data["tokenizer"]]),
                    )
                )
                continue
            if diag.code.startswith("pairing.") or not _overlaps(diag.range, wanted):
                continue
            lines_with_findings.add(diag.range.start.line)
            if data.get("fix") in _TITLES or data.get("fix") == "qa":
                words = data.get("words", data["text"])
                if data["fix"] == "qa":  # a QA check's fix names itself
                    title = str(data.get("title", "Fix"))
                else:
                    title = _TITLES[data["fix"]].format(text=str(words).strip(), old=_quoted(diag.message))
                actions.append(
                    types.CodeAction(
                        title=title,
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diag],
                        is_preferred=True,
                        edit=fix_edit(data),
                    )
                )
        if review.corpus is not None and review.corpus.references:  # (checked against a source alone: no reference line)
            for line in sorted(lines_with_findings):
                action = _take_line(ls, review, line)
                if action is not None:
                    actions.append(action)
        return actions


def _quoted(message: str) -> str:
    """The first quoted words of a diagnostic message."""
    parts = message.split('"')
    return parts[1] if len(parts) > 2 else message
