"""Server commands (``workspace/executeCommand``); clients may call every one of them.

Arguments arrive as plain JSON (annotated ``Any``, so pygls does not coerce them: it would take a
string as a list of letters) and are checked here; a wrong one is answered with InvalidParams.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from .code_actions import fix_edit
from .report import report_for


def _uri(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise JsonRpcInvalidParams(f"{what} must be a URI string, not {value!r:.80}")
    return value


def _uris(value: Any, what: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise JsonRpcInvalidParams(f"{what} must be a list of URIs, not {value!r:.80}")
    return tuple(value)


def register(server) -> None:
    @server.command("scorelens.pair")
    async def pair(ls, hypothesis: Any, references: Any) -> dict:
        hypothesis = _uri(hypothesis, "hypothesis")
        references = _uris(references, "references")
        if not references:
            raise JsonRpcInvalidParams("scorelens.pair needs at least one reference")
        ls.pairings.explicit[hypothesis] = references
        if hypothesis in ls.documents.open:
            await ls.track(hypothesis)
        return {"hypothesis": hypothesis, "references": list(references)}

    @server.command("scorelens.unpair")
    async def unpair(ls, hypothesis: Any) -> None:
        hypothesis = _uri(hypothesis, "hypothesis")
        ls.pairings.explicit.pop(hypothesis, None)
        if hypothesis in ls.documents.open:
            await ls.track(hypothesis)

    @server.command("scorelens.report")
    async def report(ls, hypothesis: Any) -> dict | None:
        return await report_for(ls, _uri(hypothesis, "hypothesis"))

    @server.command("scorelens.openReference")
    async def open_reference(ls, hypothesis: Any) -> bool:
        review = ls.reviews.get(_uri(hypothesis, "hypothesis"))
        if review is None:
            raise JsonRpcInvalidParams(f"{hypothesis} is not a paired hypothesis")
        result = await ls.window_show_document_async(
            types.ShowDocumentParams(uri=review.pairing.references[0], take_focus=False)
        )
        return bool(result and result.success)

    @server.command("scorelens.applyFix")
    async def apply_fix(ls, data: Any) -> bool:
        try:
            edit = fix_edit(data)
        except ValueError as exc:
            raise JsonRpcInvalidParams(str(exc)) from None
        result = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label="ScoreLens fix"))
        return bool(result and result.applied)

    @server.command("scorelens.setRougeTokenizer")
    async def set_rouge_tokenizer(ls, tokenizer: Any) -> str:
        if tokenizer not in ("rouge-score", "unicode"):
            raise JsonRpcInvalidParams(f"unknown ROUGE tokenizer {tokenizer!r:.80}; rouge-score or unicode")
        ls.overrides.setdefault("rouge", {})["tokenizer"] = tokenizer
        await ls.refresh_all(reuse=True)
        return tokenizer
