"""``check``'s translation QA: the hypothesis checked against its source (``--source``, a
``NAME.src.LANG`` beside ``NAME.hyp.LANG``, or the sources an XLIFF/PO/TMX/JSONL file holds),
with or without a reference, its findings placed in the files and gated by ``--max-qa``."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from typing import TYPE_CHECKING

from ..api.documents import Document as FormattedDocument
from ..api.documents import read_document as read_formatted
from ..api.options import OptionError
from ..core.qa.model import CHECKS, QAFinding
from ..formats import Fields, FormatError, format_of
from .documents import STDIN, read_document
from .errors import CliError
from .located import Located, counted

if TYPE_CHECKING:
    from ..api.qa_checks import DocumentQA


def add_arguments(check: argparse.ArgumentParser) -> None:
    qa = check.add_argument_group(
        "translation QA (no reference needed)",
        "The hypothesis is checked against its source when one is known: --source, NAME.src.LANG beside "
        "NAME.hyp.LANG (or src/NAME beside hyp/NAME), or the sources XLIFF, PO and TMX units and JSONL/TSV/CSV "
        "source fields hold. -l SRC-TGT sets the languages' number and punctuation conventions (else the languages "
        "an XLIFF, PO or TMX file declares, else the file names').",
    )
    qa.add_argument("--source", metavar="SRC", help="the source the hypothesis translates (any format read; paired by id or line)")
    qa.add_argument(
        "--source-field",
        metavar="NAME",
        help="the source's field or column (JSONL, TSV, CSV): in the --source file (or NAME.src.LANG), else in the hypothesis's records (default: source, src, input)",
    )
    qa.add_argument("--glossary", metavar="PATH", help="terms the translation must use: TSV (source<TAB>target[<TAB>note]), CSV or TBX")
    qa.add_argument("--qa-checks", metavar="NAME,...", help=f"only these checks (default: all: {', '.join(CHECKS)})")
    qa.add_argument("--qa-skip", metavar="NAME,...", help="leave these checks out")
    qa.add_argument("--no-qa", action="store_true", help="no QA checks, even where a source is known")
    qa.add_argument("--max-qa", type=int, metavar="N", help="fail when more than N QA findings are of severity error")


@dataclass
class QARun:
    """The QA of one hypothesis file: the checked documents, and where the source came from."""

    result: DocumentQA
    source_path: str
    language: str | None

    def located(self, finding: QAFinding) -> Located:
        qa, hyp_path = self.result, self.result.hypothesis.path
        (line, column), (end_line, end_column) = qa.span(finding.segment, finding.start, finding.end)
        related = None
        if finding.other_segment is not None:
            other_line, other_column = qa.position("hypothesis", finding.other_segment, 0)
            related = (hyp_path, other_line + 1, other_column + 1)
        elif finding.source_start is not None:
            source_line, source_column = qa.position("source", finding.segment, finding.source_start)
            related = (self.source_path, source_line + 1, source_column + 1)
        from ..api.qa_checks import severity

        fix = None
        written = None if finding.fix is None else qa.written(finding.segment, finding.fix.start, finding.fix.end, finding.fix.text)
        if written is not None:
            fix = {"title": finding.fix.title, "text": written}
            for key, (fix_line, fix_column) in zip(("start", "end"), qa.span(finding.segment, finding.fix.start, finding.fix.end)):
                fix[key] = {"line": fix_line + 1, "column": fix_column + 1}
        return Located(hyp_path, line + 1, column + 1, end_line + 1, end_column + 1, finding.code, finding.message, finding.text, related, severity(finding), fix)

    def summary(self) -> str:
        report = self.result.report
        counts = ", ".join(f"{code} {n}" for code, n in report.counts().items()) or "none"
        language = f", {self.language}" if self.language else ""
        return f"QA against {self.source_path}{language}: {counted(len(report.findings), 'finding')} ({counted(report.errors(), 'error')}): {counts}"

    def incomplete(self) -> bool:
        """Whether a record of the hypothesis or the source could not be read, or found no partner."""
        return bool(self.result.problems) or any(d.reading.errors for d in (self.result.hypothesis, self.result.source))

    def hypothesis_errors(self) -> list[str]:
        """``path:line: error: …`` of each hypothesis record that could not be read."""
        return _errors(self.result.hypothesis)

    def to_json(self) -> dict:
        report = self.result.report
        return {"source": self.source_path, "language": self.language, "counts": report.counts(), "errors": report.errors()}


def _names(value: str | None) -> list[str] | None:
    return None if value is None else [n.strip() for n in value.split(",") if n.strip()]


def wanted(args: argparse.Namespace) -> bool:
    """Whether QA options were given that need a source."""
    return bool(args.source or args.source_field or args.glossary or args.max_qa is not None or args.qa_checks or args.qa_skip)


def run_qa(args: argparse.Namespace) -> QARun | None:
    """The QA of ``args.hypothesis`` when its source is known (None otherwise, or with --no-qa)."""
    from ..api.qa_checks import check_documents, holds_sources, qa_config  # the checks load only when they run
    from ..glossary_file import read_glossary
    from ..pairing_rules import language_label, qa_languages

    if args.no_qa:
        if wanted(args):
            raise CliError("--no-qa turns the QA checks off: drop it, or --source/--source-field/--glossary/--max-qa/--qa-checks/--qa-skip")
        return None
    if args.max_qa is not None and args.max_qa < 0:
        raise CliError("--max-qa must be 0 or more")
    if args.hypothesis in (None, STDIN):
        if wanted(args):
            raise CliError("QA checks read the hypothesis from a file: name it (HYP)")
        return None
    source_path = args.source or _found_source(args.hypothesis)
    held_source = args.source_field if source_path is None else None
    hypothesis = _read(args.hypothesis, args, Fields(args.hyp_field, source=held_source))  # the text scored, not a default one
    if source_path is None and not holds_sources(hypothesis):
        if wanted(args):
            raise CliError(
                f"{args.hypothesis}: no source to check against: pass --source SRC, name it NAME.src.LANG beside "
                "NAME.hyp.LANG, or use a format whose records hold their sources (XLIFF, PO, TMX, a JSONL source field)"
            )
        return None
    source = _read(source_path, args, Fields(args.source_field, sources_only=True)) if source_path is not None else None
    for line in _errors(source) if source is not None else ():
        print(line, file=sys.stderr)  # the hypothesis's are named by the scoring, or by check without one
    source_declared = source.reading.languages[0] if source is not None else None
    source_file = Path(source_path) if source_path is not None else None
    languages = qa_languages(args.language, hypothesis.reading.languages, source_declared, source_file, Path(args.hypothesis))
    language = language_label(languages)
    glossary = None
    if args.glossary:
        try:
            read = read_glossary(args.glossary, languages, args.max_file_bytes, "--max-file-bytes", args.encoding)
        except ValueError as exc:
            raise CliError(str(exc)) from None
        for line in read.errors:
            print(line, file=sys.stderr)
        if not len(read.glossary) and not read.errors:  # a wrong file, or a termbase of other languages
            print(f"{args.glossary}: warning: no terms{f' for {language}' if language else ''}; the glossary checks find nothing", file=sys.stderr)
        glossary = read.glossary
    try:
        config = qa_config(languages, glossary, _names(args.qa_checks), _names(args.qa_skip) or ())
        result = check_documents(hypothesis, source, config, args.pair_by)
    except OptionError as exc:
        raise CliError(f"--qa-{exc.option}: {exc.reason}") from None
    except ValueError as exc:
        raise CliError(str(exc)) from None
    unpaired = [p for p in result.problems if p.kind == "unpaired"]  # by position: the longer file's last records
    for problem in [p for p in result.problems if p.kind != "unpaired"] + unpaired[:1]:
        side = args.hypothesis if problem.side == 0 else source_path
        what = f"{len(unpaired)} records from here on have no partner at their position" if problem.kind == "unpaired" and len(unpaired) > 1 else problem.message("source")
        print(f"{side}:{problem.line}: error: {what}; not checked", file=sys.stderr)
    return QARun(result, source_path or args.hypothesis, language)


def _read(path: str, args: argparse.Namespace, fields: Fields = Fields()) -> FormattedDocument:
    document = read_document(path, args.max_file_bytes, args.encoding)
    try:
        return read_formatted(document.path, document.text, args.input_format or format_of(path), fields)
    except FormatError as exc:
        raise CliError(f"{document.path}: {exc}") from None


def _errors(document: FormattedDocument) -> list[str]:
    return [e.format(document.path) for e in document.reading.errors]


def _found_source(hypothesis: str) -> str | None:
    from ..pairing_rules import find_source

    found = find_source(Path(os.path.abspath(hypothesis)))
    if found is None:
        return None
    name = str(found if Path(hypothesis).is_absolute() else Path(os.path.relpath(found)))
    print(f"scorelens: {hypothesis}: source found by name: {name}", file=sys.stderr)
    return name
