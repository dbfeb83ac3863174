"""Reading the files a command names (as sacreBLEU's command line reads them) and the run that
scores them through the API."""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path, PurePath
from typing import Iterator

from ..api.documents import Document as FormattedDocument
from ..api.documents import FormattedEvaluation, evaluate_documents
from ..api.documents import read_document as read_formatted
from ..api.evaluation import Evaluation, evaluate
from ..api.options import DEFAULTS, PPL, OptionError, complete, implied_tokenize, scoring_config
from ..core.rouge155 import ScriptDies
from ..core.tokenizers import BLEU_TOKENIZERS, language_tokenizer
from ..core.text import sacrebleu_lines
from ..formats import Fields, FormatError, format_of
from ..textfile import DEFAULT_MAX_BYTES, UnreadableText, decode, read_text, too_large, uncompressed
from .errors import CliError, NoReference
from .options import api_options, jobs

STDIN = "-"
STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class Document:
    path: str  # as the user wrote it, so messages point where they expect
    text: str
    universal_newlines: bool = False  # standard input is read so (see sacrebleu_lines)

    @cached_property
    def lines(self) -> list[str]:
        """As sacreBLEU's command line splits and strips them; split when first asked for, as a
        file read through its format's reader never is (a copy of every line at peak memory)."""
        return sacrebleu_lines(self.text, self.universal_newlines)


def _read_stdin(max_bytes: int) -> bytes:
    if sys.stdin is None:
        raise CliError("no standard input to read the hypothesis from")
    buffer = getattr(sys.stdin, "buffer", None)
    # one byte more than the limit tells an input that is too large
    data = buffer.read(max_bytes + 1) if buffer is not None else sys.stdin.read(max_bytes + 1).encode("utf-8")
    if len(data) > max_bytes:
        raise too_large(STDIN_NAME, max_bytes, "--max-file-bytes")
    return data


# the documents a command has read, by path, while it reads a path more than once (read_once)
_read: dict[str, Document] | None = None


@contextmanager
def read_once() -> Iterator[None]:
    """Within it, a path read again gives the document it gave first: check reads its hypothesis
    for the QA and again for the scores, and a pipe (``<(cmd)``) gives its text only once."""
    global _read
    _read = {}
    try:
        yield
    finally:
        _read = None


def read_document(path: str, max_bytes: int = DEFAULT_MAX_BYTES, encoding: str = "utf-8") -> Document:
    if _read is not None and path in _read:
        return _read[path]
    document = _document(path, max_bytes, encoding)
    if _read is not None:
        _read[path] = document
    return document


def _document(path: str, max_bytes: int, encoding: str) -> Document:
    try:
        if path == STDIN:
            text = decode(STDIN_NAME, uncompressed(STDIN_NAME, _read_stdin(max_bytes), max_bytes, "--max-file-bytes"), encoding)
            return Document(STDIN_NAME, text, universal_newlines=True)
        text = read_text(path, max_bytes, "--max-file-bytes", streams=True, encoding=encoding)
        return Document(path, text)
    except UnreadableText as exc:
        raise CliError(str(exc)) from None


def found_references(hypothesis: str) -> list[str]:
    """The references the naming conventions find next to the hypothesis (when -r is not given).

    The path is made absolute first, so ``hyp/NAME`` is found however the hypothesis is written (from
    inside ``hyp/`` too); references are named as the hypothesis is, relative or absolute.
    """
    from ..pairing_rules import NoReferences, find_references  # imported only when used

    resolved = Path(os.path.abspath(hypothesis))  # not resolve(): a symlinked hypothesis pairs where it is linked
    try:
        found = find_references(resolved)
    except NoReferences as exc:
        raise NoReference(f"{hypothesis}: {exc}") from None
    if not Path(hypothesis).is_absolute():
        found = [Path(os.path.relpath(p)) for p in found]
    found = [str(p) for p in found]
    print(f"scorelens: {hypothesis}: references found by name: {', '.join(found)}", file=sys.stderr)
    return found


def read_documents(args: argparse.Namespace) -> list[Document]:
    """The hypothesis, then its references (none when only perplexity is asked for)."""
    if args.hypothesis is None:
        # as sacreBLEU: no hypothesis named, it is piped in; a terminal would wait for typing instead
        if sys.stdin is None or sys.stdin.isatty():
            raise CliError("no hypothesis: name the file (HYP), or pipe it into standard input")
        args.hypothesis = STDIN
    if args.metrics == [PPL]:
        return [read_document(args.hypothesis, args.max_file_bytes, args.encoding)]
    if args.hypothesis == STDIN and not args.references:
        # said before reading, or a terminal would wait for input first
        raise CliError("reading the hypothesis from standard input (-) needs -r REF")
    if [args.hypothesis, *(args.references or [])].count(STDIN) > 1:
        raise CliError("standard input (-) can be read once: name one side's file")
    hypothesis = read_document(args.hypothesis, args.max_file_bytes, args.encoding)
    references = args.references or found_references(args.hypothesis)
    return [hypothesis, *(read_document(r, args.max_file_bytes, args.encoding) for r in references)]


class _Located:
    """A run of files, whose error where ROUGE-1.5.5.pl dies on a segment names its line."""

    @cached_property
    def scores(self):
        try:
            return super().scores
        except ScriptDies as exc:
            if exc.segment is None:
                raise
            raise CliError(f"{self.documents[0].path}:{self.first_line(exc.segment) + 1}: {exc}") from None


@dataclass
class Run(_Located, Evaluation):
    """An evaluation of files: the hypothesis, then the references, as read."""

    documents: list[Document] = field(default_factory=list)
    tokenizer_note: str | None = None  # BLEU's tokenizer, implied by the hypothesis's language

    def require_lined_up(self) -> None:
        """Files that do not line up are bad input for ``score`` and ``check`` alike (sacreBLEU
        refuses them too): scores over shifted segments would look valid and mean nothing."""
        mismatches = self.mismatches()
        if not mismatches:
            return
        paths = [d.path for d in self.documents]
        details = []
        for side, hyp_count, ref_count in mismatches:
            longer, first_alone = (0, ref_count) if hyp_count > ref_count else (side, hyp_count)
            line = self.corpus.first_line(longer, first_alone) + 1
            details.append(
                f"{paths[0]} has {segments_counted(hyp_count, self.corpus.config.segmentation)}, {paths[side]} has {ref_count} "
                f"(from {paths[longer]}:{line} on without a partner)"
            )
        raise CliError(
            f"the files do not line up: {'; '.join(details)}; "
            "segment i of the hypothesis pairs with segment i of each reference"
        )


def segments_counted(count: int, segmentation: str) -> str:
    """``1 line``, ``2 paragraphs``: a file's segments, named as its ``segmentation`` cuts it."""
    unit = {"line": "line", "paragraph": "paragraph"}.get(segmentation, "document")
    return f"{count} {unit}" + ("" if count == 1 else "s")


def evaluation(args: argparse.Namespace) -> Run | FormattedRun:
    check_lm_options(args)
    options = checked_options(args)  # before any file is read
    if formatted(args):
        return formatted_run(args, options)
    for given, option in ((args.hyp_field, "--hyp-field"), (args.ref_field, "--ref-field"), (args.id_field, "--id-field"), (args.pair_by, "--pair-by")):
        if given:  # plain text has no fields, ids or times: a plain file is read line by line
            raise CliError(f"{option} is for files read record by record (JSONL, TSV, CSV, subtitles, XLIFF, PO, TMX, sclite's), not plain text; --input-format names a file's format")
    documents = read_documents(args)
    options, note = with_hypothesis_language(options, documents[0].path)
    try:
        ev = evaluate(documents[0].lines, [d.lines for d in documents[1:]], args.metrics, options, jobs(args))
    except OptionError as exc:
        raise option_error(exc) from None
    run = Run(ev.corpus, ev.jobs, ev.perplexity, documents, note)
    run.require_lined_up()
    return run


def with_hypothesis_language(options: dict, path: str, declared: str | None = None) -> tuple[dict, str | None]:
    """The options with BLEU's tokenizer from the hypothesis's language where neither -tok nor
    -l chose one, as the editor picks it: the target language its document ``declared`` (an
    XLIFF's, a PO's, a TMX's), else the one its name ends in (``news.hyp.zh``); and a note saying
    so (None where it implies no tokenizer)."""
    if declared:
        language, why = declared, f"{path} declares the target language {declared}"
    elif path != STDIN:
        language = PurePath(path[:-3] if path.lower().endswith(".gz") else path).suffix[1:]
        why = f"{path}'s name ends in .{language}"
    else:
        return options, None
    tokenize = implied_tokenize(options, language)
    if tokenize is None:
        return options, None
    wanted = language_tokenizer(language)
    if tokenize == wanted:
        note = f"note: BLEU's tokenizer is {tokenize}, sacreBLEU's for that target language, as {why}; -tok names another"
    else:  # MeCab is missing
        hint = BLEU_TOKENIZERS[wanted].install_hint()
        note = f"note: BLEU's tokenizer is {tokenize}, as {why} and sacreBLEU's {wanted} needs MeCab ({hint}); -tok names another"
    return {**options, "tokenize": tokenize}, note


def formatted(args: argparse.Namespace, hypotheses: list[str | None] | None = None) -> bool:
    """Whether the files are read through a format's reader rather than as sacreBLEU's lines."""
    if args.input_format is not None:
        return args.input_format != "text"
    named = [*(hypotheses if hypotheses is not None else [args.hypothesis]), *(args.references or [])]
    return any(p not in (None, STDIN) and format_of(p) != "text" for p in named)


@dataclass
class FormattedRun(_Located, FormattedEvaluation):
    """An evaluation of files read through their formats' readers."""

    documents: list[FormattedDocument] = field(default_factory=list)
    tokenizer_note: str | None = None  # BLEU's tokenizer, implied by the hypothesis's language

    def unreadable(self) -> list[str]:
        """``path:line: message`` for each record that could not be read (the rest was scored)."""
        return [e.format(d.path) for d in self.documents for e in d.reading.errors]

    def require_lined_up(self, strict: bool = False) -> None:
        """Records that found no partner are bad input, as files that do not line up are; but
        where records could not be read (each named already), a record may have lost its partner
        to one of them: then each record without one is named and left out, and the rest is
        scored. ``strict``: bad input even then (systems compared must have the same records)."""
        paths = [d.path for d in self.documents]
        for p in self.pairing.repeated:
            print(f"{paths[0]}:{p.line}: warning: {p.message()}; both are scored", file=sys.stderr)
        problems = self.pairing.problems
        if not problems:
            return
        places = [(f"{paths[p.side]}:{p.line}", p.message(hypothesis=paths[0])) for p in problems]
        if not strict and self.unreadable():
            for where, message in places:
                print(f"{where}: warning: {message}; left out", file=sys.stderr)
            return
        named = [f"{where}: {message}" for where, message in places[:MAX_NAMED]]
        more = f" (and {len(problems) - MAX_NAMED} more)" if len(problems) > MAX_NAMED else ""
        raise CliError(f"records do not pair by {self.pairing.by}: {'; '.join(named)}{more}")


# unpaired records named in the error, the rest counted
MAX_NAMED = 5


def formatted_run(args: argparse.Namespace, options: dict, hypothesis: str | None = None, in_reference_order: bool = False) -> FormattedRun:
    """The run of a formatted hypothesis (``args.hypothesis``, or the system ``hypothesis``
    names) with its references."""
    if args.segmentation != "line":
        raise CliError("--segmentation is for plain text: each record of a formatted file is a segment")
    hyp_path = hypothesis or args.hypothesis
    if hyp_path is None and (sys.stdin is None or sys.stdin.isatty()):
        raise CliError("no hypothesis: name the file (HYP), or pipe it into standard input")
    hyp_path = hyp_path or STDIN
    names = args.references or []
    # with reference files, --ref-field names their fields (the hypothesis's own are not read)
    fields = Fields(args.hyp_field, () if names else tuple(args.ref_field or ()), None, args.id_field)
    hypothesis = formatted_document(hyp_path, args, fields)
    options, note = with_hypothesis_language(options, hyp_path, hypothesis.reading.languages[1])
    held = any(r.references for r in hypothesis.reading.records)
    if not names and not held and args.metrics != [PPL]:  # perplexity alone needs no reference
        if hyp_path == STDIN:
            raise CliError("reading the hypothesis from standard input needs -r REF, or records that hold reference fields")
        names = found_references(hyp_path)
    ref_fields = Fields(None, tuple(args.ref_field or ()), None, args.id_field, references_only=True)
    references = [formatted_document(p, args, ref_fields, "reference") for p in names]
    for line in [e.format(d.path) for d in (hypothesis, *references) for e in d.reading.errors]:
        print(line, file=sys.stderr)  # path:line: error: ..., as compilers and CI problem matchers read it
    try:
        ev = evaluate_documents(hypothesis, references, args.metrics, options, jobs(args), args.pair_by, in_reference_order)
    except OptionError as exc:
        raise option_error(exc) from None
    except ValueError as exc:
        raise CliError(str(exc)) from None
    run = FormattedRun(ev.corpus, ev.jobs, ev.perplexity, ev.layouts, ev.pairing, [hypothesis, *(l.document for l in ev.layouts[1:])], note)
    run.require_lined_up(strict=in_reference_order)  # in the reference's order: one of systems compared
    return run


def formatted_document(path: str, args: argparse.Namespace, fields: Fields, role: str = "hypothesis") -> FormattedDocument:
    """The file at ``path`` read through its format's reader (``--input-format``, or its extension's)."""
    document = read_document(path, args.max_file_bytes, args.encoding)
    name = args.input_format or format_of(path)
    try:
        read = read_formatted(document.path, document.text, name, fields)
    except FormatError as exc:
        raise CliError(f"{document.path}: {exc}") from None
    if not read.reading.records:
        errors, why = read.reading.errors, ""
        if errors:  # the first record's error says why, as the others most likely repeat it
            more = f" (and {len(errors) - 1:,} more)" if len(errors) > 1 else ""
            why = f": line {errors[0].line}: {errors[0].message}{more}"
        raise CliError(f"{document.path}: no {role} records could be read{why}")
    return read


def checked_options(args: argparse.Namespace) -> dict:
    """The API's options from the arguments, checked as the scoring will use them."""
    options = complete(api_options(args))
    try:
        scoring_config(args.metrics, options)
    except OptionError as exc:
        raise option_error(exc) from None
    return options


def option_error(exc: OptionError) -> CliError:
    """The API's error about an option, naming it as the command line does where it is one of
    its options (the API's scoring options are named as its long options)."""
    if exc.option in DEFAULTS or exc.option == "metrics":
        return CliError(f"--{exc.option.replace('_', '-')}: {exc.reason}")
    return CliError(exc.reason)


def check_lm_options(args: argparse.Namespace) -> None:
    if PPL in args.metrics and not args.lm:
        raise CliError("--metrics ppl needs --lm PATH, the KenLM language model to score with")
    if args.lm and PPL not in args.metrics:
        raise CliError("--lm is used by the ppl metric: add ppl to --metrics")
