"""Agreement between annotators in the editor, as ``scorelens agree`` measures it: the groups of
the open annotators' documents (see :mod:`.annotators`) kept up to date with their edits, the
``scorelens/agreement`` request (the matrices and the segments the annotators disagree on most) and
the ``scorelens/agreementChanged`` notification after edits. What the code lens and the hover show
of it is :mod:`.agreement_figures`'s.

A group keeps one :class:`~scorelens.core.Corpus` per directed pair of its annotators (annotator j
scored against annotator i as the reference): an edit to one annotator's document replaces its
lines in the corpora it is a side of, and only the segments it changed are scored again; each
matrix cell is the pair's corpus score, as ``scorelens agree`` gives it. Annotators disagreeing is
not a fault: there are no diagnostics.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from itertools import permutations
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcInvalidParams
from pygls.uris import to_fs_path

from ..core import Corpus, ScoringConfig
from ..core.config import AGREEMENT_METRICS
from ..core.flavours import BLEU_IMPLS, ROUGE_IMPLS
from ..formats import format_of
from ..summary import metric_label
from ..textfile import MissingFile, UnreadableText
from .agreement_figures import report, summary
from .annotators import Group
from .documents import LineEdit, segment_lines
from .reviews import refresh_corpus
from .scheduler import outlived
from .flavours import configured
from .settings import PPL, Settings, language_of
from .worker import Worker

AGREEMENT = "scorelens/agreement"
AGREEMENT_CHANGED = "scorelens/agreementChanged"
TOP = 10  # segments ranked, unless the request says
DEBOUNCE = 0.05  # seconds of quiet before a group is re-scored, unless scorelens.debounceMs says
SCORE_IN_REQUEST = 64  # dirty segments a request scores itself rather than wait for the re-score


def agreement_metrics(settings: Settings) -> list[str]:
    """What agreement is measured by: the metrics of ``scorelens.metrics`` that ``scorelens agree``
    measures, in their order, the first ranking the segments; WER if that leaves none."""
    return [m for m in settings.metrics if m in AGREEMENT_METRICS] or ["wer"]


def departures(settings: Settings) -> list[str]:
    """What agreement leaves out of the settings, as ``scorelens agree`` does (so that its figures
    are agree's): metrics it does not measure (but perplexity, which scores a text alone) and
    other implementations than the default ones."""
    found = []
    left_out = [metric_label(m) for m in settings.metrics if m not in AGREEMENT_METRICS and m != PPL]
    if left_out:
        found.append(f"{', '.join(left_out)} not measured: scorelens agree does not measure annotators by {'it' if len(left_out) == 1 else 'them'}")
    measured = agreement_metrics(settings)
    for family, impl, default in (("bleu", settings.bleu.impl, BLEU_IMPLS[0]), ("rouge", settings.rouge.impl, ROUGE_IMPLS[0])):
        if impl != default and any(m.startswith(family) for m in measured):
            found.append(
                f"{family.upper()} measured by {default}, not by scorelens.{family}.impl {impl}: scorelens agree measures by the default implementations only"
            )
    return found


@dataclass
class Annotators:
    """A group's live state: a corpus per directed pair of the annotators that could be read
    (``(i, j)``: j the hypothesis, i the reference), and what stood in the way of the others."""

    group: Group
    settings: Settings
    config: ScoringConfig
    corpora: dict[tuple[int, int], Corpus]
    unread: list[tuple[str, str]]  # (uri, why): the annotators that could not be read
    departed: list[str]  # what the settings ask that agreement does otherwise (:func:`departures`)
    task: asyncio.Task | None = None
    told: tuple | None = None  # the versions and matrices last told (scorelens/agreementChanged)

    @property
    def metrics(self) -> list[str]:
        return agreement_metrics(self.settings)

    @property
    def read(self) -> list[int]:
        """The annotators read, by index."""
        return sorted({i for pair in self.corpora for i in pair})

    def against(self, k: int) -> list[tuple[int, Corpus]]:
        """(i, corpus of annotator k against annotator i) for each other annotator read."""
        return [(i, self.corpora[i, k]) for i in self.read if i != k]


class Agreements:
    """The groups of the open annotators' documents."""

    def __init__(self) -> None:
        self.groups: dict[tuple[str, ...], Annotators] = {}
        self.documents: dict[str, tuple[str, ...]] = {}  # an open document's group
        self.worker = Worker()  # long segments, apart from the reviews' (an edit cancels its job)

    def of(self, uri: str) -> Annotators | None:
        key = self.documents.get(uri)
        return self.groups.get(key) if key is not None else None

    def containing(self, uri: str) -> list[Annotators]:
        return [a for a in self.groups.values() if uri in a.group.annotators]

    def drop_unused(self) -> None:
        used = set(self.documents.values())
        for key in [k for k in self.groups if k not in used]:
            annotators = self.groups.pop(key)
            if annotators.task is not None:
                annotators.task.cancel()


# -- following the documents ---------------------------------------------------------------------


async def track(ls, uri: str) -> None:
    """(Re)find an open document's group; build it if it is new or its settings changed."""
    agreements = ls.agreements
    group = ls.pairings.annotators(uri, ls.documents.open.keys())
    if group is None:
        agreements.documents.pop(uri, None)
        agreements.drop_unused()
        return
    settings = await ls.settings_for(uri)
    if uri not in ls.documents.open:
        return  # closed meanwhile
    key = group.annotators
    built = agreements.groups.get(key)
    if built is None or (built.group, built.settings) != (group, settings):
        if built is not None and built.task is not None:
            built.task.cancel()
        built = agreements.groups[key] = _load(ls, group, settings, uri)
        schedule(ls, built, 0)
    agreements.documents[uri] = key
    agreements.drop_unused()


def _scored_lines(ls, uri: str, max_bytes: int) -> list[str]:
    """A document's lines as ``scorelens agree`` reads its file (sacreBLEU's: ``\n`` ends a line,
    each right-stripped); the open document's live ones. Raises UnreadableText."""
    doc = ls.documents.read(uri, max_bytes)
    return segment_lines(doc.lines, doc.breaks)


def _load(ls, group: Group, settings: Settings, uri: str) -> Annotators:
    """Read the annotators' texts and build the corpora; what cannot be read is a problem."""
    unread: list[tuple[str, str]] = []
    texts: dict[int, list[str]] = {}
    for k, annotator in enumerate(group.annotators):
        path = to_fs_path(annotator) or annotator
        if not settings.allow_outside_workspace and ls.pairings.folders and not ls.pairings.inside(Path(path)):
            unread.append((annotator, "outside the workspace folders; set scorelens.allowOutsideWorkspace to compare it"))
            continue
        if format_of(path) != "text":
            unread.append((annotator, f"a {format_of(path)} file; the editor compares plain-text files (scorelens agree reads the others)"))
            continue
        try:
            texts[k] = _scored_lines(ls, annotator, settings.max_file_bytes)
        except UnreadableText as exc:
            unread.append((annotator, str(exc).removeprefix(f"{path}: ")))
    for annotator, why in unread:
        ls.log(f"{to_fs_path(uri)}: annotator {to_fs_path(annotator)} not compared: {why}", types.MessageType.Warning)
    doc = ls.documents.open.get(uri)
    # read as a review reads them: the WER transform's word maps (a config without them is refused)
    config, gave_way = configured(ls, uri, settings, language_of(to_fs_path(uri) or uri, doc.language_id if doc else None), 1)
    # scorelens agree's implementations, whatever the settings say: every figure is agree's
    config = replace(config, metrics=frozenset(agreement_metrics(settings)), bleu_impl=BLEU_IMPLS[0], rouge_impl=ROUGE_IMPLS[0])
    # each corpus its own copy of the lines: an edit replaces them in place
    corpora = {(i, j): Corpus(list(texts[j]), [list(texts[i])], config) for i, j in permutations(texts, 2)}
    return Annotators(group, settings, config, corpora, unread, departures(settings) + gave_way)


async def opened(ls, uri: str) -> None:
    """A document was opened: its live text replaces the file's in the groups it is in."""
    doc = ls.documents.open[uri]
    for annotators in ls.agreements.containing(uri):
        _set_lines(ls, annotators, uri, segment_lines(doc.lines, doc.breaks))
    await track(ls, uri)


def closed(ls, uri: str) -> None:
    """A document was closed: its file's text replaces the live one; a group none of whose
    documents is open is dropped."""
    agreements = ls.agreements
    agreements.documents.pop(uri, None)
    agreements.drop_unused()
    for annotators in agreements.containing(uri):
        try:
            lines = _scored_lines(ls, uri, annotators.settings.max_file_bytes)
        except MissingFile:
            # deleted while open: the groups found again, as for a file deleted while closed (a
            # NAME.annK.EXT group no longer has it; an [[agree]] entry names it as missing)
            task = asyncio.ensure_future(files_changed(ls, {uri}))
            task.add_done_callback(lambda task: _failed(ls, task, "agreement groups after a close"))
            return
        except UnreadableText:
            _reload(ls, annotators)
            continue
        _set_lines(ls, annotators, uri, lines)


def _set_lines(ls, annotators: Annotators, uri: str, lines: list[str]) -> None:
    k = annotators.group.annotators.index(uri)
    if k not in annotators.read:
        _reload(ls, annotators)  # it could not be read before
        return
    for (i, j), corpus in annotators.corpora.items():
        if k in (i, j):
            side = 0 if k == j else 1
            corpus.replace_lines(side, 0, len(corpus.lines(side)), lines)
    schedule(ls, annotators)


def _reload(ls, annotators: Annotators) -> None:
    if annotators.task is not None:
        annotators.task.cancel()
    key = annotators.group.annotators
    fresh = ls.agreements.groups[key] = _load(ls, annotators.group, annotators.settings, next(iter(key)))
    schedule(ls, fresh, 0)


def edited(ls, uri: str, edit: LineEdit) -> None:
    """An edit of an open document (of its scored lines, :meth:`.OpenDocument.apply_lines`): the
    lines replaced in every corpus it is a side of."""
    for annotators in ls.agreements.containing(uri):
        k = annotators.group.annotators.index(uri)
        for (i, j), corpus in annotators.corpora.items():
            if k in (i, j):
                corpus.replace_lines(0 if k == j else 1, edit.start, edit.end, edit.lines)


def changed(ls, uri: str) -> None:
    """A document's edits are applied: re-score the groups it is in, after the debounce."""
    for annotators in ls.agreements.containing(uri):
        if annotators.settings.run == "onType":
            schedule(ls, annotators)


def saved(ls, uri: str) -> None:
    for annotators in ls.agreements.containing(uri):
        if annotators.settings.run == "onSave":
            schedule(ls, annotators, 0)


async def rebuild(ls) -> None:
    """Settings or the configuration files changed: each open document's group found again, and
    built again if it or its settings changed."""
    for uri in list(ls.documents.open):
        await track(ls, uri)


async def files_changed(ls, touched: set[str]) -> None:
    """Files changed on disk: a group one of whose closed files changed is read again; a file
    created or deleted may make or unmake a group."""
    agreements = ls.agreements
    for uri in list(ls.documents.open):
        group = ls.pairings.annotators(uri, ls.documents.open.keys())
        key = agreements.documents.get(uri)
        if group is None and key is None:
            continue
        stale = group is None or group.annotators != key or any(t in group.annotators and t not in ls.documents.open for t in touched)
        if stale and key in agreements.groups:
            annotators = agreements.groups.pop(key)
            if annotators.task is not None:
                annotators.task.cancel()
        if stale:
            await track(ls, uri)


# -- scoring -------------------------------------------------------------------------------------


def schedule(ls, annotators: Annotators, delay: float | None = None) -> None:
    """Re-score the group after ``delay`` seconds (default: scorelens.debounceMs, else DEBOUNCE)."""
    if annotators.task is not None:
        annotators.task.cancel()
    if delay is None:
        fixed = annotators.settings.debounce_ms
        delay = fixed / 1000 if fixed is not None else DEBOUNCE
    annotators.task = asyncio.ensure_future(_rescore(ls, annotators, delay))
    annotators.task.add_done_callback(lambda task: _failed(ls, task))


def _failed(ls, task: asyncio.Task, what: str = "agreement re-score") -> None:
    if not task.cancelled() and task.exception() is not None:
        ls.report_server_error(task.exception(), what)


async def _rescore(ls, annotators: Annotators, delay: float) -> None:
    if delay:
        await asyncio.sleep(delay)
    for corpus in annotators.corpora.values():
        await refresh_corpus(corpus, worker=ls.agreements.worker, next_slice=ls.scheduler.next_slice)
    told = summary(ls, annotators)
    if (told["versions"], told["matrices"]) == annotators.told:
        return
    annotators.told = told["versions"], told["matrices"]
    ls.protocol.notify(AGREEMENT_CHANGED, told)
    if ls.client_supports("workspace", "code_lens", "refresh_support"):
        ls.workspace_code_lens_refresh(None)


def _settle_now(ls, annotators: Annotators) -> bool:
    """Score what is left of the group's latest edits here and now if it is little; whether
    nothing is left to wait for. ContentModified if the group was built again meanwhile."""
    if ls.agreements.groups.get(annotators.group.annotators) is not annotators:
        raise JsonRpcContentModified("the annotators' group or its settings changed; ask again")
    corpora = annotators.corpora.values()
    pending = sum(c.pending for c in corpora)
    task = annotators.task
    if (pending <= SCORE_IN_REQUEST and not any(c.long_pending() for c in corpora)) or task is None or task.done():
        for c in corpora:
            c.refresh()
        return True
    return False


async def settled(ls, annotators: Annotators) -> None:
    """Wait until the group's latest edits are scored, for a request to answer from."""
    while not _settle_now(ls, annotators):
        await outlived(annotators.task)


def settling(ls, annotators: Annotators):
    """:func:`settled` for a request handler written as a generator (see Scheduler.settling)."""
    if not _settle_now(ls, annotators):
        yield settled, (ls, annotators), {}


def _uri(params) -> str:
    uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
    if not isinstance(uri, str):
        raise JsonRpcInvalidParams('scorelens/agreement needs {"uri": "<annotator document uri>"}')
    return uri


async def agreement_for(ls, uri: str, top: int = TOP) -> dict | None:
    annotators = ls.agreements.of(uri)
    if annotators is None:
        return None
    await settled(ls, annotators)
    return await report(ls, annotators, uri, top)


def register(server) -> None:
    @server.feature(AGREEMENT)
    async def on_agreement(ls, params) -> dict | None:
        top = params.get("top", TOP) if isinstance(params, dict) else getattr(params, "top", TOP)
        if not isinstance(top, int) or isinstance(top, bool) or top < 0:
            raise JsonRpcInvalidParams("scorelens/agreement: top must be a number of segments, 0 or more")
        return await agreement_for(ls, _uri(params), top)

    @server.command("scorelens.agreement")
    async def agreement_command(ls, uri: Any) -> dict | None:
        if not isinstance(uri, str) or not uri:
            raise JsonRpcInvalidParams(f"scorelens.agreement needs an annotator document's URI, not {uri!r:.80}")
        return await agreement_for(ls, uri)
