"""Fluency (``ppl``) in the server: each review's documents scored by a KenLM model that a separate
process holds (kenlm holds the GIL while it loads and scores: a thread would block the loop).

A model is loaded once per file version and shared by every document; a document's
:class:`~scorelens.core.fluency.Fluency` is fed the process's results for the texts it has not
seen, so an edit sends only its segments: those the corpus says were edited since the last refresh
(:meth:`~scorelens.core.corpus.Corpus.edited`), spliced into each side's fluency by that range.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from lsprotocol import types
from pygls.uris import to_fs_path

from ..core.findings import Finding
from ..core.fluency import UNLIKELY, Fluency, FluencyConfig, SegmentFluency
from ..language_model import INSTALL_HINT, ModelUnavailable
from ..summary import fluency_dict
from .settings import PPL
from .worker import Worker, WorkerDied, load_model, score_fluency

FOLLOWER = "fluency"  # of the corpus's texts (Corpus.edited)
# Texts per call to the model process: a re-score cancelled by an edit keeps what was scored.
CHUNK = 2000
DIED = "the language model process ended unexpectedly (out of memory?); it starts again with the next edit"
NO_MODEL = (
    '"ppl" is in scorelens.metrics but scorelens.lm.model is not set: set it to a KenLM model file (ARPA or KenLM binary)'
)


@dataclass
class Lm:
    """A review's fluency: the model, and a :class:`Fluency` per side (0 the hypothesis)."""

    path: str  # resolved
    sides: dict[int, Fluency]
    scored: dict[str, SegmentFluency] = field(default_factory=dict)  # from the process, not yet taken
    flagged: set[int] = field(default_factory=set)  # segments with a finding on some side
    unlikely: dict[int, set[int]] = field(default_factory=dict)  # per side, the outlier segments
    ready: bool = False  # every side scored once


class Models:
    """The language-model process, the loads under way or done, and the problems told."""

    def __init__(self) -> None:
        self._loads: dict[tuple, asyncio.Task] = {}
        # a new process has none of the models loaded
        self.worker = Worker(stop_on_cancel=False, on_died=self._loads.clear)
        self.told: set[str] = set()
        self._tokens = itertools.count()  # a progress token is never used twice, loads forgotten or not

    def load(self, ls, path: str) -> asyncio.Task:
        """The load of the file's current version, shared by every document that asks."""
        try:
            st = os.stat(path)
            key = (path, st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            key = (path,)  # the process says what is wrong
        task = self._loads.get(key)
        if task is None:
            task = self._loads[key] = asyncio.ensure_future(self._load(ls, path))
        return task

    async def _load(self, ls, path: str) -> int:
        token = None
        if ls.client_supports("window", "work_done_progress"):
            token = f"scorelens-lm-{id(self)}-{next(self._tokens)}"
            ls.work_done_progress.create(token)
            begin = types.WorkDoneProgressBegin(title="ScoreLens: loading language model", message=Path(path).name, cancellable=False)
            ls.work_done_progress.begin(token, begin)
        try:
            return await self.worker.run(load_model, path)
        finally:
            if token is not None:
                ls.work_done_progress.end(token, types.WorkDoneProgressEnd())

    def tell(self, ls, message: str) -> None:
        if message not in self.told:
            self.told.add(message)
            ls.tell(message)


def model_path(ls, uri: str, setting: str) -> str:
    """``scorelens.lm.model`` for a document: ``${workspaceFolder}`` and ``~`` expanded, relative to its folder."""
    document = Path(to_fs_path(uri) or uri)
    folders = ls.pairings.folders
    folder = next((f for f in folders if document.is_relative_to(f)), folders[0] if folders else document.parent)
    path = os.path.expanduser(setting.replace("${workspaceFolder}", str(folder)))
    return os.path.realpath(os.path.join(folder, path))


def attach(ls, review) -> None:
    """Give a review with ``ppl`` on its :class:`Lm` (after its corpus is built), or say what is missing."""
    review.lm = None
    settings = review.settings
    if PPL not in settings.metrics or review.corpus is None:
        return
    if not settings.lm.model:
        ls.models.tell(ls, NO_MODEL)
        return
    config = FluencyConfig(settings.lm.tokenize, settings.lm.outlier_z)
    scored: dict[str, SegmentFluency] = {}
    sides = {side: Fluency(scored.__getitem__, config) for side in range(review.corpus.references + 1)}
    review.lm = Lm(model_path(ls, review.uri, settings.lm.model), sides, scored)


def _edited_texts(corpus, side: int) -> Sequence[str]:
    ends = corpus.edited(side, FOLLOWER)
    if ends is None:
        return ()
    texts = corpus.texts_of(side)
    return texts[ends[0] : len(texts) - ends[1]]


async def refresh(ls, review, publish: Callable[[], Awaitable[None]] | None = None) -> None:
    """Bring each side's fluency up to the corpus's texts; ``publish()`` first if the model
    process must be waited for long: a model to load, or many texts (the other metrics do not
    wait for that; an edit's few texts are a round trip, not worth a publish more)."""
    import numpy as np  # here: the server starts without it
    lm, corpus = review.lm, review.corpus
    published = False
    while True:
        missing = {t for side, f in lm.sides.items() for t in _edited_texts(corpus, side) if not f.known(t) and t not in lm.scored}
        if not missing:
            break
        loading = ls.models.load(ls, lm.path)
        if publish is not None and not published and (not loading.done() or len(missing) > CHUNK):
            await publish()
            published = True
        try:
            await loading
            missing = list(missing)
            for i in range(0, len(missing), CHUNK):
                chunk = missing[i : i + CHUNK]
                lm.scored.update(zip(chunk, await ls.models.worker.run(score_fluency, lm.path, review.settings.lm.tokenize, chunk)))
        except ModelUnavailable as exc:
            reason = str(exc)
            ls.models.tell(ls, reason if reason == INSTALL_HINT else f"language model {reason}; set scorelens.lm.model to a KenLM model file")
            review.lm = None
            return
        except WorkerDied:
            ls.models.tell(ls, DIED)
            return  # what is left stays edited: the next refresh asks again
        if review.lm is not lm:
            return  # reloaded meanwhile
    for side, f in lm.sides.items():
        ends = corpus.take_edited(side, FOLLOWER)
        if ends is not None:
            texts = corpus.texts_of(side)
            f.replace(ends[0], len(f) - ends[1], texts[ends[0] : len(texts) - ends[1]])
    lm.scored.clear()
    lm.unlikely = {side: set(f.outliers().segments) for side, f in lm.sides.items()}
    flagged = np.zeros(max(len(f) for f in lm.sides.values()), dtype=bool)
    for f in lm.sides.values():
        flagged[: len(f)] |= f.flagged()
    lm.flagged = set(np.flatnonzero(flagged).tolist())
    lm.ready = True
    if published:  # hints and lenses shown meanwhile lack the perplexities (a hint text's cache
        review.views_stale = True  # key holds its perplexity label: those are rebuilt when asked)


def current(review) -> bool:
    """Whether the review's fluency is of its corpus's current texts."""
    lm = review.lm
    return lm is not None and lm.ready and all(review.corpus.edited(side, FOLLOWER) is None for side in lm.sides)


async def settled(ls, review) -> None:
    """For a request: a fluency behind the latest edits (its model loaded) brought up to them."""
    if review.lm is not None and review.lm.ready and not current(review):
        await refresh(ls, review)


def _side(review, side: int, segment: int) -> Fluency | None:
    """A side's fluency if it has the segment's current text (between an edit and the model's
    answer it may lag, or number the segments otherwise)."""
    lm = review.lm
    if lm is None or not lm.ready or side not in lm.sides:
        return None
    f = lm.sides[side]
    return f if segment < len(f) and f[segment].text == review.corpus.text(side, segment) else None


def findings(review, segment: int) -> list[Finding]:
    lm = review.lm
    if lm is None or segment not in lm.flagged:
        return []
    return [x for side in lm.sides if (f := _side(review, side, segment)) is not None for x in f.findings(segment, side)]


def message(review, finding: Finding) -> str:
    f = review.lm.sides[finding.side][finding.segment]
    if finding.code == UNLIKELY:
        threshold = review.settings.lm.outlier_z
        return f"perplexity {f.perplexity:.1f} under the language model, far above the rest of this document (robust z-score over {threshold:g})"
    return f'"{finding.text}" is not in the language model\'s vocabulary (out of vocabulary)'


def scores(review) -> dict:
    """``{"ppl": …}`` for scorelens/scores, once the hypothesis is scored."""
    lm = review.lm
    return {PPL: fluency_dict(lm.sides[0].score(), lm.path)} if lm is not None and lm.ready else {}


def label(review, side: int, segment: int | None = None) -> str:
    """``PPL 123.4``: a segment's perplexity, or the document's; empty before the model answered."""
    lm = review.lm
    f = lm.sides[side] if lm is not None and lm.ready and segment is None else _side(review, side, segment)
    if f is None:
        return ""
    perplexity = f[segment].perplexity if segment is not None else f.score().perplexity
    return f"PPL {perplexity:.1f}" if perplexity is not None else ""


def description(review, side: int, segment: int, markdown: bool) -> list[str]:
    """A hover's fluency part: perplexity, log10 probability, tokens and the least likely words."""
    f = _side(review, side, segment)
    if f is None:
        return []
    s = f[segment]
    strong = "**" if markdown else ""
    words = ", ".join(
        (f"`{t.token}`" if markdown else f'"{t.token}"') + f" {t.log10_prob:.2f}" + (" (OOV)" if t.oov else "")
        for t in f.least_likely(segment)
    )
    item = "- " if markdown else "  "
    lines = ["", f"{strong}Fluency{strong} ({Path(review.lm.path).name})"]
    end = "`</s>`" if markdown else "</s>"  # bare, Markdown takes it for an HTML tag
    lines.append(f"{item}{strong}perplexity {s.perplexity:.1f}{strong} — log10 probability {s.log10_prob:.2f} over {s.words + 1} tokens (words + {end})")
    if words:
        lines.append(f"{item}least likely words (log10 probability): {words}")
    return lines
