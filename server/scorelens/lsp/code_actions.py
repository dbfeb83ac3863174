"""Quick fixes from ScoreLens diagnostics: each one an edit, and the same fix as a command."""

from __future__ import annotations

from lsprotocol import types

from .diagnostics import SOURCE

_TITLES = {"replace": "Replace with “{text}”", "insert": "Insert “{text}”", "delete": "Delete “{old}”"}


def fix_edit(data: dict) -> types.WorkspaceEdit:
    r = data["range"]
    edit_range = types.Range(
        types.Position(r["start"]["line"], r["start"]["character"]), types.Position(r["end"]["line"], r["end"]["character"])
    )
    return types.WorkspaceEdit(changes={data["uri"]: [types.TextEdit(edit_range, data["text"])]})


def _take_line(ls, review, line: int) -> types.CodeAction | None:
    """Replace the hypothesis segment on this line with the first reference's segment."""
    corpus = review.corpus
    segment = corpus.segment_at(0, line)
    if segment is None or corpus.text(0, segment) == corpus.text(1, segment):
        return None
    text = corpus.text(0, segment)
    lines = corpus.lines(0)
    first = corpus.first_line(0, segment)
    end_line, end_col = corpus.position(0, segment, len(text))
    where = types.Range(types.Position(first, 0), ls.columns.position(lines, end_line, end_col))
    return types.CodeAction(
        title="Take the whole reference line",
        kind=types.CodeActionKind.QuickFix,
        edit=types.WorkspaceEdit(changes={review.uri: [types.TextEdit(where, corpus.text(1, segment))]}),
    )


def register(server) -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix])
    )
    def code_actions(ls, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        actions: list[types.CodeAction] = []
        lines_with_findings = set()
        for diag in params.context.diagnostics:
            if diag.source != SOURCE:
                continue
            data = diag.data if isinstance(diag.data, dict) else None
            lines_with_findings.add(diag.range.start.line)
            if data is None:
                continue
            if data.get("fix") == "rouge-tokenizer":
                actions.append(
                    types.CodeAction(
                        title="Switch the ROUGE tokenizer to “unicode” (keeps non-ASCII letters)",
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diag],
                        command=types.Command(title="Switch ROUGE tokenizer", command="scorelens.setRougeTokenizer", arguments=[data["tokenizer"]]),
                    )
                )
            elif data.get("fix") in _TITLES:
                title = _TITLES[data["fix"]].format(text=data["text"].strip(), old=_quoted(diag.message))
                actions.append(
                    types.CodeAction(
                        title=title,
                        kind=types.CodeActionKind.QuickFix,
                        diagnostics=[diag],
                        is_preferred=True,
                        edit=fix_edit(data),
                    )
                )
        review = ls.reviews.get(uri)
        if review is not None and review.corpus is not None:
            for line in sorted(lines_with_findings):
                action = _take_line(ls, review, line)
                if action is not None:
                    actions.append(action)
        return actions


def _quoted(message: str) -> str:
    """The first quoted words of a diagnostic message."""
    parts = message.split('"')
    return parts[1] if len(parts) > 2 else message
