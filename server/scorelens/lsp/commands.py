"""Server commands (``workspace/executeCommand``); clients may call every one of them."""

from __future__ import annotations

from lsprotocol import types

from .code_actions import fix_edit
from .report import report_for


def register(server) -> None:
    @server.command("scorelens.pair")
    async def pair(ls, hypothesis: str, references: list[str]) -> dict:
        if not references:
            raise ValueError("scorelens.pair needs at least one reference")
        ls.pairings.explicit[hypothesis] = tuple(references)
        if hypothesis in ls.documents.open:
            await ls.track(hypothesis)
        return {"hypothesis": hypothesis, "references": list(references)}

    @server.command("scorelens.unpair")
    async def unpair(ls, hypothesis: str) -> None:
        ls.pairings.explicit.pop(hypothesis, None)
        if hypothesis in ls.documents.open:
            await ls.track(hypothesis)

    @server.command("scorelens.report")
    async def report(ls, hypothesis: str) -> dict | None:
        return await report_for(ls, hypothesis)

    @server.command("scorelens.openReference")
    async def open_reference(ls, hypothesis: str) -> bool:
        review = ls.reviews.get(hypothesis)
        if review is None:
            raise ValueError(f"{hypothesis} is not a paired hypothesis")
        result = await ls.window_show_document_async(
            types.ShowDocumentParams(uri=review.pairing.references[0], take_focus=False)
        )
        return bool(result and result.success)

    @server.command("scorelens.applyFix")
    async def apply_fix(ls, data: dict) -> bool:
        result = await ls.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=fix_edit(data), label="ScoreLens fix"))
        return bool(result and result.applied)

    @server.command("scorelens.setRougeTokenizer")
    async def set_rouge_tokenizer(ls, tokenizer: str) -> str:
        if tokenizer not in ("rouge-score", "unicode"):
            raise ValueError(f"unknown ROUGE tokenizer {tokenizer!r}; rouge-score or unicode")
        ls.overrides.setdefault("rouge", {})["tokenizer"] = tokenizer
        await ls.refresh_all(reuse=True)
        return tokenizer
