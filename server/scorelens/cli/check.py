"""``scorelens check``: every finding as ``path:line:col: code message`` (or JSON, or GitHub
annotations), the scores, and quality gates that exit 1 when crossed."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from functools import partial
from itertools import chain
from json.encoder import encode_basestring  # C's, as ensure_ascii=False writes a string
from typing import Callable, Iterable, Iterator

from ..api.evaluation import Perplexity
from ..api.options import PPL
from ..core import CorpusScores, Finding, rates
from ..core.findings import (
    DELETION,
    INSERTION,
    OUTSIDE_LCS,
    SHIFT,
    SUBSTITUTION,
    UNMATCHED,
)
from ..core.flavours import ROUGE_UNMATCHED
from ..core.fluency import OOV, UNLIKELY
from ..textfile import BOM, BOM_NOTE
from .documents import FormattedRun, Run, evaluation, read_once
from .located import Located, counted
from . import qa
from .errors import EXIT_ERROR, EXIT_OK, EXIT_THRESHOLD, CliError, NoReference
from .options import finite, scoring_options
from .scores_text import notes, summary_lines

BYTE_ORDER_MARK = "pairing.byte-order-mark"
# segments whose findings are made and written together (some 300 MB of them at 20 a segment);
# each such run starts its own worker processes
_AT_ONCE = 20_000


def add_parser(commands) -> None:
    check = commands.add_parser(
        "check",
        parents=[scoring_options()],
        help="findings as path:line:col lines, scores, and quality gates",
        description="Every place hypothesis and references differ (the findings the editor shows), then "
        "the scores. Exits 1 when a threshold is crossed.",
    )
    gates = check.add_argument_group("thresholds (exit 1 when crossed)")
    gates.add_argument("--min-bleu", type=finite, metavar="X", help="fail when BLEU (0-100) is below X")
    gates.add_argument("--min-chrf", type=finite, metavar="X", help="fail when chrF (0-100; chrF++ too) is below X")
    gates.add_argument("--max-ter", type=finite, metavar="Y", help="fail when TER (sacreBLEU's scale, 0-100 and more) is above Y")
    gates.add_argument("--max-wer", type=finite, metavar="Y", help="fail when WER (0-1) is above Y")
    gates.add_argument("--max-cer", type=finite, metavar="Y", help="fail when CER (0-1) is above Y")
    gates.add_argument(
        "--min-rouge", type=finite, metavar="Z", help="fail when the ROUGE-L (and ROUGE-Lsum) F-measure (0-1) is below Z"
    )
    for n in range(1, 10):
        gates.add_argument(
            f"--min-rouge{n}",
            type=finite,
            metavar="Z",
            # one line of help for the nine
            help="fail when the ROUGE-1 (--min-rouge2 … --min-rouge9: ROUGE-2 … ROUGE-9) F-measure (0-1) is below Z"
            if n == 1
            else argparse.SUPPRESS,
        )
    gates.add_argument(
        "--max-ppl", type=finite, metavar="X", help="fail when the hypothesis's perplexity under --lm is above X (needs ppl among --metrics)"
    )
    check.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text: path:line:col: code message; json: one object; github: GitHub Actions annotations",
    )
    check.add_argument("--max-findings", type=int, metavar="N", help="show at most N findings (and say how many more)")
    qa.add_arguments(check)
    check.set_defaults(run=run_check, parser=check)


def _quote(text: str) -> str:
    # JSON quoting escapes newlines and tabs, so every finding stays on one output line
    return encode_basestring(text)


def fluency_message(p: Perplexity, f: Finding) -> str:
    if f.code == OOV:
        return f"{_quote(f.text)} is out of the language model's vocabulary"
    outliers = p.fluency.outliers()
    return (
        f"perplexity {p.fluency[f.segment].perplexity:.1f} under the language model, far above the "
        f"document's median {10**outliers.median:.1f} (modified z-score {outliers.z_scores[f.segment]:.1f} > {outliers.threshold:g})"
    )


def finding_message(f: Finding, related: str | None) -> str:
    if f.code == UNMATCHED:
        return f"not in any reference: {_quote(f.text)}"
    if f.code == SUBSTITUTION:
        return f"{_quote(f.text)} should be {_quote(f.other_text)}"
    if f.code == INSERTION:
        return f"{_quote(f.text)} is not in the reference"
    if f.code == DELETION:
        return f"missing {_quote(f.text)}" + (f" (belongs at {related})" if related else "")
    if f.code == OUTSIDE_LCS:
        return f"{_quote(f.text)} is outside the ROUGE-L longest common subsequence"
    if f.code == ROUGE_UNMATCHED:
        return f"not in any reference: {_quote(f.text)}"
    if f.code == SHIFT:
        return f"{_quote(f.text)} is in another place in the reference (a TER shift)" + (f", at {related}" if related else "")
    return _quote(f.text)


def locate(ev: Run, f: Finding) -> Located:
    paths = [d.path for d in ev.documents]
    (line, column), (end_line, end_column) = ev.span(f.side, f.segment, f.start, f.end)
    related = None
    if f.other_side is not None:
        other_line, other_column = ev.position(f.other_side, f.segment, f.other_start)
        related = (paths[f.other_side], other_line + 1, other_column + 1)
    # a deletion sits in the reference: say where in the hypothesis the words belong; a shift: where the reference has them
    where = f"{related[0]}:{related[1]}:{related[2]}" if related and f.code in (DELETION, SHIFT) else None
    return Located(
        paths[f.side],
        line + 1,
        column + 1,
        end_line + 1,
        end_column + 1,
        f.code,
        fluency_message(ev.perplexity, f) if f.code in (UNLIKELY, OOV) else finding_message(f, where),
        f.text,
        related,
    )


def byte_order_mark_findings(ev: Run) -> list[Located]:
    """A leading U+FEFF is scored as a character of the first word (as sacreBLEU does): say so,
    where the first text kept it, as the editor says it."""
    return [
        Located(d.path, 1, 1, 1, 2, BYTE_ORDER_MARK, BOM_NOTE, BOM)
        for side, d in enumerate(ev.documents)
        if d.text.startswith(BOM) and _scores_mark(ev, side)
    ]


def _scores_mark(ev: Run, side: int) -> bool:
    """Whether a side's first text holds its document's leading U+FEFF: a format's reader may
    leave it out (before an SRT cue's number, a WebVTT header, a JSON line)."""
    corpus = ev.corpus
    if corpus is None:  # perplexity alone: of the lines as read
        return True
    return len(corpus) > 0 and corpus.text(side, 0).startswith(BOM) and ev.position(side, 0, 0) == (0, 0)


def every_finding(ev: Run) -> Iterator[Located]:
    """A byte order mark first, then segment by segment: hypothesis findings, then the references'.

    Finding the differences is most of ``check``'s time, so runs of segments are found and placed
    in the scoring's worker processes, ``_AT_ONCE`` segments at a time, and given out as they come:
    held at once, 1,000,000 lines' findings would take some 14 GB."""
    yield from byte_order_mark_findings(ev)
    for start in range(0, ev.segments, _AT_ONCE):
        for chunk in ev.over_segments(partial(_located, ev), start, start + _AT_ONCE):
            yield from chunk


def first_findings(ev: Run, limit: int) -> tuple[list[Located], int]:
    """The first ``limit`` of :func:`every_finding`, and how many there are: the segments are
    looked at here until the limit is reached, and the workers count the rest (placing and
    quoting a finding costs half as much again as finding it)."""
    located = byte_order_mark_findings(ev)
    total, segment = len(located), 0
    while len(located) < limit and segment < ev.segments:
        found = _ordered(ev, segment)
        located += (locate(ev, f) for f in found[: limit - len(located)])
        total += len(found)
        segment += 1
    return located[:limit], total + sum(ev.over_segments(partial(_count, ev), segment))


def _ordered(ev: Run, segment: int) -> list[Finding]:
    return sorted(ev.findings(segment), key=lambda f: (f.side, f.start, f.end, f.code))


def _located(ev: Run, segments: range) -> list[Located]:
    return [locate(ev, f) for i in segments for f in _ordered(ev, i)]


def _count(ev: Run, segments: range) -> int:
    return sum(len(ev.findings(i)) for i in segments)


# -- check: thresholds ----------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    option: str  # e.g. "--min-bleu"
    metric: str
    label: str
    value: float
    limit: float
    minimum: bool  # True: value must be at least limit; False: at most

    @property
    def passed(self) -> bool:
        return self.value >= self.limit if self.minimum else self.value <= self.limit

    def describe(self) -> str:
        if self.metric == "qa":
            value = f"{self.value:g}"
        else:
            value = f"{self.value:.2f}" if self.metric in ("bleu", "chrf", "ter", PPL) else f"{self.value:.4f}"
        if self.passed:
            return f"{self.label} {value} meets {self.option} {self.limit:g}"
        side = "below" if self.minimum else "above"
        return f"{self.label} {value} is {side} {self.option} {self.limit:g}"


# option dest, option name, metric, label, minimum?, the value from the scores
_GATES: list[tuple[str, str, str, str, bool, Callable[[CorpusScores], float]]] = [
    ("min_bleu", "--min-bleu", "bleu", "BLEU", True, lambda s: s.bleu.score),
    ("min_chrf", "--min-chrf", "chrf", "chrF", True, lambda s: s.chrf.score),
    ("max_ter", "--max-ter", "ter", "TER", False, lambda s: s.ter.score),
    ("max_wer", "--max-wer", "wer", "WER", False, lambda s: rates(s.wer).wer),
    ("max_cer", "--max-cer", "cer", "CER", False, lambda s: rates(s.cer).wer),
    ("min_rouge", "--min-rouge", "rougeL", "ROUGE-L F", True, lambda s: s.rouge_l.fmeasure),
    ("min_rouge", "--min-rouge", "rougeLsum", "ROUGE-Lsum F", True, lambda s: s.rouge_lsum.fmeasure),
    *(
        (f"min_rouge{n}", f"--min-rouge{n}", f"rouge{n}", f"ROUGE-{n} F", True, lambda s, key=f"rouge{n}": s.rouge_n[key].fmeasure)
        for n in range(1, 10)
    ),
]


def check_gate_metrics(args: argparse.Namespace) -> None:
    """A threshold on a metric that is not among --metrics turns it on, and says so: asked to hold
    TER to a limit, the user wants TER computed."""
    for dest, option, metric, _, _, _ in _GATES:
        if getattr(args, dest) is None:
            continue
        wanted = metric if option != "--min-rouge" else "rougeL"
        if option == "--min-rouge" and {"rougeL", "rougeLsum"} & set(args.metrics):
            continue
        if wanted not in args.metrics:
            args.metrics.append(wanted)
            print(f"scorelens: note: {option} turns {wanted} on (not among --metrics)", file=sys.stderr)
    if args.max_ppl is not None and PPL not in args.metrics:
        if not args.lm:
            raise CliError("--max-ppl needs --lm PATH, the KenLM language model to score with")
        args.metrics.append(PPL)
        print(f"scorelens: note: --max-ppl turns {PPL} on (not among --metrics)", file=sys.stderr)


def gated(args: argparse.Namespace) -> bool:
    """Whether a threshold on the scores was given (QA alone cannot meet it)."""
    return args.max_ppl is not None or any(getattr(args, dest) is not None for dest, *_ in _GATES)


def verdicts(args: argparse.Namespace, ev: Run | None, qa_run: qa.QARun | None) -> list[Verdict]:
    found = []
    if args.max_qa is not None:
        found.append(Verdict("--max-qa", "qa", "QA errors", qa_run.result.report.errors(), args.max_qa, False))
    if ev is None:
        return found
    for dest, option, metric, label, minimum, value in _GATES:
        limit = getattr(args, dest)
        if limit is not None and metric in args.metrics:
            found.append(Verdict(option, metric, label, value(ev.scores), limit, minimum))
    if args.max_ppl is not None:
        perplexity = ev.perplexity.score.perplexity
        if perplexity is None:
            raise CliError(f"{ev.documents[0].path}: no segments, so no perplexity to hold to --max-ppl")
        found.append(Verdict("--max-ppl", PPL, "PPL", perplexity, args.max_ppl, False))
    return found


# -- check: output formats ------------------------------------------------------------------


def _github_escape(text: str, property: bool = False) -> str:
    """Workflow-command escaping: data escapes %, CR, LF; property values also : and ,."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


@dataclass
class CheckReport:
    findings: Iterable[Located]  # those shown, in order: made as they are written when they are all shown
    omitted: int  # left out by --max-findings, and said so
    evaluation: Run | None  # None: no reference, only the QA checks ran
    verdicts: list[Verdict]
    qa: qa.QARun | None = None

    @property
    def passed(self) -> bool:
        return all(v.passed for v in self.verdicts)

    def _summary(self) -> list[str]:
        ev = self.evaluation
        return (summary_lines(ev) if ev is not None else []) + ([self.qa.summary()] if self.qa is not None else [])

    def text_lines(self) -> Iterator[str]:
        shown = 0
        for f in self.findings:
            shown += 1
            yield f"{f.where()}: {f.code} {f.message}"
        out = []
        if self.omitted:
            out.append(f"... {counted(self.omitted, 'more finding')} not shown (--max-findings)")
        out += ["", counted(shown + self.omitted, "finding")]
        out += self._summary() + (notes(self.evaluation) if self.evaluation is not None else [])
        out += [("PASS: " if v.passed else "FAIL: ") + v.describe() for v in self.verdicts]
        yield from out

    def github_lines(self) -> Iterator[str]:
        yield from map(self._annotation, self.findings)
        out = []
        if self.omitted:
            out.append(f"::notice title=scorelens::{self.omitted} more findings not shown (--max-findings)")
        out += self._summary()  # plain lines land in the job log
        out += [f"::warning title=scorelens::{_github_escape(n)}" for n in (notes(self.evaluation) if self.evaluation is not None else [])]
        for v in self.verdicts:
            if v.passed:
                out.append(f"PASS: {v.describe()}")
            else:
                out.append(f"::error title=scorelens threshold::{_github_escape(v.describe())}")
        yield from out

    @staticmethod
    def _annotation(f: Located) -> str:
        if f.code == BYTE_ORDER_MARK:
            level = "warning"
        else:  # a QA check's own severity; the scores' findings are notices
            level = {"error": "error", "warning": "warning"}.get(f.severity or "", "notice")
        props = [f"file={_github_escape(f.path, True)}", f"line={f.line}"]
        if f.end_line != f.line:
            props.append(f"endLine={f.end_line}")
        else:  # GitHub ignores columns on annotations that span lines
            props += [f"col={f.column}", f"endColumn={f.end_column}"]
        props.append(f"title={_github_escape(f.code, True)}")
        return f"::{level} {','.join(props)}::{_github_escape(f.message)}"

    def json_text(self) -> Iterator[str]:
        """The report as ``json.dumps(…, ensure_ascii=False, indent=1)`` writes it, in pieces, a finding at a time:
        made whole, 2,000,000 findings' text and objects took 6 GB."""
        text = json.dumps(self._json_without_findings(), ensure_ascii=False, indent=1)
        head, tail = text.split('"findings": []', 1)  # the first key: nothing before it holds that
        k = -1
        for k, f in enumerate(self.findings):
            yield (f'{head}"findings": [\n  ' if k == 0 else ",\n  ") + _indented(f.to_json(), "  ")
        yield text if k < 0 else "\n ]" + tail

    def _json_without_findings(self) -> dict:
        """``check --format json``'s object, its list of findings empty (:meth:`json_text` fills it)."""
        ev = self.evaluation
        return {
            "findings": [],
            "findings_omitted": self.omitted,
            "scores": ev.results().to_dict() if ev is not None else None,
            "qa": self.qa.to_json() if self.qa is not None else None,
            "notes": notes(ev) if ev is not None else [],
            "thresholds": [
                {"option": v.option, "metric": v.metric, "value": v.value, "limit": v.limit, "passed": v.passed}
                for v in self.verdicts
            ],
            "passed": self.passed,
        }


def _indented(value: object, indent: str) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=1)`` of a value ``len(indent)`` levels in.
    json indents in pure Python, 35 µs a finding, and leaves reference cycles behind each call,
    which the command line's collector (turned off) never frees: 1 GB on 20,000 lines."""
    kind = type(value)
    if kind is str:
        return encode_basestring(value)
    if kind is int:
        return repr(value)
    inner = indent + " "
    if kind is dict:
        items = (f"{inner}{encode_basestring(key)}: {_indented(v, inner)}" for key, v in value.items())
        return "{\n" + ",\n".join(items) + f"\n{indent}}}" if value else "{}"
    if kind is list:
        return "[\n" + ",\n".join(inner + _indented(v, inner) for v in value) + f"\n{indent}]" if value else "[]"
    return json.dumps(value)  # a float, a boolean, None


def run_check(args: argparse.Namespace) -> int:
    if args.max_findings is not None and args.max_findings < 0:
        raise CliError("--max-findings must be 0 or more")
    check_gate_metrics(args)
    with read_once():  # the QA and the scores read the same hypothesis
        qa_run = qa.run_qa(args)
        try:
            ev = evaluation(args)
        except NoReference as exc:
            if qa_run is None or gated(args):
                if PPL in args.metrics:  # with other metrics, as a perplexity gate turns it on beside the default ones
                    raise NoReference(f"{exc}; -m ppl scores perplexity alone, without one") from None
                raise
            ev = None  # no reference: the source's checks alone
            for line in qa_run.hypothesis_errors():
                print(line, file=sys.stderr)  # as the scoring names them
    qa_found = [qa_run.located(f) for f in qa_run.result.report.findings] if qa_run is not None else []
    if args.max_findings is None:
        shown, omitted = chain(every_finding(ev) if ev is not None else (), qa_found), 0
    else:
        first, total = first_findings(ev, args.max_findings) if ev is not None else ([], 0)
        shown = (first + qa_found)[: args.max_findings]
        omitted = total + len(qa_found) - len(shown)
    report = CheckReport(shown, omitted, ev, verdicts(args, ev, qa_run), qa_run)
    if args.format == "json":
        sys.stdout.writelines(report.json_text())
        print()
    else:  # a line at a time: joined, a large check's output is one more copy of it
        sys.stdout.writelines(f"{line}\n" for line in (report.github_lines() if args.format == "github" else report.text_lines()))
    if (isinstance(ev, FormattedRun) and ev.unreadable()) or (qa_run is not None and qa_run.incomplete()):
        return EXIT_ERROR  # what was read is reported, but not all of the files was
    return EXIT_OK if report.passed else EXIT_THRESHOLD
