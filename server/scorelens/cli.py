"""The command line: ``scorelens score | check | serve`` (DESIGN §5).

Each command runs the same pipeline: parse arguments, build a :class:`ScoringConfig`, read
the files, score them with the core, format the result. Problems with the input (a missing,
binary or non-UTF-8 file, files that do not line up, a tokenizer that is not installed) are
:class:`CliError`: one line on stderr and exit status 2, never a traceback.

Exit status: 0 success, 1 a ``check`` threshold was crossed, 2 bad usage or bad input.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import math
import os
import signal
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, Sequence

import regex

from . import __version__
from .core import (
    METRICS,
    SEGMENTATIONS,
    WER_TRANSFORMS,
    BleuConfig,
    ChrfConfig,
    ChrfScore,
    Corpus,
    CorpusScores,
    Finding,
    RougeConfig,
    ScoringConfig,
    TerConfig,
    TokenizerUnavailable,
    rates,
)
from .core.bleu import SMOOTH_DEFAULTS, BleuScore
from .core.corpus import POOL_MINIMUM, PoolMap
from .core.findings import DELETION, INSERTION, OUTSIDE_LCS, SHIFT, SUBSTITUTION, UNMATCHED
from .core.fluency import OOV, UNLIKELY, Fluency, FluencyConfig, FluencyScore
from .core.fluency import signature as fluency_signature
from .core.rouge import RougeScore
from .core.text import sacrebleu_lines, segment_spans
from .core.tokenizers import BLEU_TOKENIZERS, ROUGE_TOKENIZERS
from .core.wer import ErrorCounts
from .summary import HUNDREDS, comparison_dict, fluency_dict, metric_label, scores_dict, segment_dict
from .textfile import BOM, BOM_NOTE, DEFAULT_MAX_BYTES, UnreadableText, decode, read_text, too_large

if TYPE_CHECKING:  # imported by compare when it runs: NumPy would slow every command's start
    from .core import significance

EXIT_OK = 0
EXIT_THRESHOLD = 1
EXIT_ERROR = 2

DEFAULT_METRICS = ("bleu", "rougeL", "wer")
# perplexity under a language model: scored on the hypothesis alone, outside the reference-paired corpus
PPL = "ppl"
CLI_METRICS = (*METRICS, PPL)
STDIN = "-"
STDIN_NAME = "<stdin>"

# sacreBLEU's choice of tokenizer for a target language when none is given
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

BYTE_ORDER_MARK = "pairing.byte-order-mark"


class CliError(Exception):
    """Bad input or usage, reported as one line on stderr with exit status 2."""


# -- arguments -------------------------------------------------------------------------------


def _metric_list(value: str) -> list[str]:
    by_lower = {m.lower(): m for m in CLI_METRICS}
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise argparse.ArgumentTypeError("no metric given")
    unknown = [n for n in names if n.lower() not in by_lower]
    if unknown:
        hint = " (a file? put -m after HYP)" if os.path.exists(unknown[0]) else ""
        raise argparse.ArgumentTypeError(f"unknown metric {unknown[0]!r}{hint}; choose from {','.join(CLI_METRICS)}")
    return list(dict.fromkeys(by_lower[n.lower()] for n in names))


class _Metrics(argparse.Action):
    """``-m bleu,chrf``, ``-m bleu chrf`` (as sacreBLEU's) and ``-m bleu -m chrf`` all name the same
    metrics; the first use replaces the default list."""

    def __call__(self, parser, namespace, values, option_string=None):
        chosen = getattr(namespace, self.dest)
        chosen = [] if chosen is self.default else chosen
        for names in values:
            chosen += [n for n in names if n not in chosen]
        setattr(namespace, self.dest, chosen)


def _jobs(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more, got {value!r}")
    return int(value)


def _byte_count(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of bytes, 1 or more, got {value!r}")
    return int(value)


def _samples(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number of resamples or trials, got {value!r}")
    return int(value)


def _finite(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {value!r}")
    return number


def _available_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the CPUs this process may run on
    except AttributeError:  # macOS and Windows have no sched_getaffinity
        return os.cpu_count() or 1


def _host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def _scoring_options(hypothesis: bool = True) -> argparse.ArgumentParser:
    """Options shared by ``score``, ``check`` and ``compare`` (which names its own files);
    BLEU's are named as sacreBLEU's CLI names them."""
    p = argparse.ArgumentParser(add_help=False)
    if hypothesis:
        p.add_argument("hypothesis", metavar="HYP", help="hypothesis file, or - to read standard input")
    p.add_argument(
        "-r",
        "--reference",
        dest="references",
        metavar="REF",
        action="append",
        help="reference file (repeat for several); if omitted, found by name: NAME.hyp.EXT -> "
        "NAME.ref.EXT (+ NAME.ref1.EXT, NAME.ref2.EXT, ...), NAME.sysN.EXT -> NAME.ref.EXT, hyp/NAME -> ref/NAME",
    )
    p.add_argument(
        "-m",
        "--metrics",
        type=_metric_list,
        nargs="+",
        action=_Metrics,
        default=list(DEFAULT_METRICS),
        metavar="LIST",
        help=f"comma- or space-separated, or -m repeated, from {','.join(CLI_METRICS)} (default: {','.join(DEFAULT_METRICS)})",
    )
    p.add_argument(
        "--segmentation",
        choices=SEGMENTATIONS,
        default="line",
        help="what a segment is: a line (default), a blank-line separated paragraph, or the whole file",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        metavar="N",
        help=f"processes that score an input of {POOL_MINIMUM:,} segments or more "
        "(default: one per available CPU; 1 scores in this process only)",
    )
    p.add_argument(
        "--max-file-bytes",
        type=_byte_count,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help=f"refuse a hypothesis or reference larger than N bytes (default: {DEFAULT_MAX_BYTES:,})",
    )

    bleu = p.add_argument_group("BLEU (as sacreBLEU)")
    bleu.add_argument(
        "-tok",
        "--tokenize",
        choices=list(BLEU_TOKENIZERS),
        metavar="NAME",
        help=f"BLEU tokenizer: {', '.join(BLEU_TOKENIZERS)} (default: 13a, or the one -l's language calls for)",
    )
    bleu.add_argument(
        "-l",
        "--language",
        "--language-pair",
        dest="language",
        metavar="LANG",
        help="target language, or sacreBLEU's SRC-TRG pair; zh, ja and ko choose the zh, ja-mecab "
        "and ko-mecab tokenizers when -tok is not given",
    )
    bleu.add_argument("-lc", "--lowercase", action="store_true", help="lowercase BLEU (case:lc)")
    bleu.add_argument(
        "-s", "--smooth-method", choices=list(SMOOTH_DEFAULTS), default="exp", help="BLEU smoothing (default: exp)"
    )
    bleu.add_argument(
        "-sv",
        "--smooth-value",
        type=float,
        metavar="X",
        help="value for floor (default 0.1) and add-k (default 1) smoothing",
    )
    bleu.add_argument("--max-ngram-order", type=int, default=4, metavar="N", help="BLEU's n-gram order (default: 4)")

    chrf = p.add_argument_group("chrF and chrF++ (as sacreBLEU)")
    chrf.add_argument("-cc", "--chrf-char-order", type=int, default=ChrfConfig.char_order, metavar="N", help="character n-gram order (default: 6)")
    chrf.add_argument(
        "-cw", "--chrf-word-order", type=int, default=ChrfConfig.word_order, metavar="N", help="word n-gram order; 2 is chrF++ (default: 0)"
    )
    chrf.add_argument("--chrf-beta", type=int, default=ChrfConfig.beta, metavar="N", help="weight of recall over precision (default: 2)")
    chrf.add_argument("--chrf-whitespace", action="store_true", help="include whitespace in character n-grams")
    chrf.add_argument("--chrf-lowercase", action="store_true", help="lowercase chrF (case:lc)")
    chrf.add_argument(
        "--chrf-eps-smoothing", action="store_true", help="chrF++.py's epsilon smoothing instead of the effective order (eff:no)"
    )

    rouge = p.add_argument_group("ROUGE-1..9, ROUGE-L (as rouge-score)")
    rouge.add_argument(
        "--rouge-tokenizer",
        choices=list(ROUGE_TOKENIZERS),
        default="rouge-score",
        help="rouge-score's own (default; drops non-ASCII letters) or unicode (keeps every script)",
    )
    rouge.add_argument("--stem", action="store_true", help="Porter-stem ROUGE tokens, as rouge-score's use_stemmer")

    ter = p.add_argument_group("TER (as sacreBLEU)")
    ter.add_argument("--ter-case-sensitive", action="store_true", help="keep case (TER lowercases by default)")
    ter.add_argument("--ter-asian-support", action="store_true", help="split CJK characters (with --ter-normalized) and drop CJK punctuation (with --ter-no-punct)")
    ter.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    ter.add_argument("--ter-normalized", action="store_true", help="Tercom's normalisation: entities decoded, punctuation split off")

    lm = p.add_argument_group("perplexity (ppl) under a KenLM language model; needs the fluency extra")
    lm.add_argument("--lm", metavar="PATH", help="the KenLM model (ARPA or KenLM binary) that --metrics ppl scores with")
    lm.add_argument(
        "--lm-tokenize",
        choices=list(BLEU_TOKENIZERS),
        default=FluencyConfig.tokenize,
        metavar="NAME",
        help="how the hypothesis is tokenized before the model scores it: none splits at whitespace, for text "
        f"tokenized as the model's training text was (default); or {', '.join(t for t in BLEU_TOKENIZERS if t != 'none')}",
    )
    lm.add_argument(
        "--lm-outlier-z",
        type=_finite,
        default=FluencyConfig.outlier_z,
        metavar="X",
        help="a segment whose log perplexity has a modified z-score above X in its document is an "
        f"lm.unlikely finding (default: {FluencyConfig.outlier_z})",
    )

    wer = p.add_argument_group("WER and CER (as jiwer)")
    wer.add_argument(
        "--wer-transform",
        choices=WER_TRANSFORMS,
        default="default",
        help="jiwer's default transform, or the same after lowercasing",
    )
    return p


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scorelens",
        description="Score hypotheses against references: BLEU (sacreBLEU), ROUGE-L/Lsum (rouge-score), "
        "WER/CER (jiwer), with the same numbers as those libraries.",
        epilog="Exit status: 0 success, 1 a check threshold was crossed, 2 bad usage or input.",
    )
    parser.add_argument("--version", action="version", version=f"scorelens {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    shared = _scoring_options()

    score = commands.add_parser(
        "score",
        parents=[shared],
        help="corpus scores with their signatures",
        description="Corpus scores with their signatures. Line i of HYP is scored against line i of every REF.",
    )
    score.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    score.add_argument(
        "-sl",
        "--sentence-level",
        action="store_true",
        help="each segment's own scores (sentence BLEU, sentence chrF, ...) instead of the corpus's: "
        "one row per segment, or one JSON object per line with --json",
    )
    score.set_defaults(run=run_score, parser=score)

    check = commands.add_parser(
        "check",
        parents=[shared],
        help="findings as path:line:col lines, scores, and quality gates",
        description="Every place hypothesis and references differ (the findings the editor shows), then "
        "the scores. Exits 1 when a threshold is crossed.",
    )
    gates = check.add_argument_group("thresholds (exit 1 when crossed)")
    gates.add_argument("--min-bleu", type=_finite, metavar="X", help="fail when BLEU (0-100) is below X")
    gates.add_argument("--min-chrf", type=_finite, metavar="X", help="fail when chrF (0-100; chrF++ too) is below X")
    gates.add_argument("--max-ter", type=_finite, metavar="Y", help="fail when TER (sacreBLEU's scale, 0-100 and more) is above Y")
    gates.add_argument("--max-wer", type=_finite, metavar="Y", help="fail when WER (0-1) is above Y")
    gates.add_argument("--max-cer", type=_finite, metavar="Y", help="fail when CER (0-1) is above Y")
    gates.add_argument(
        "--min-rouge", type=_finite, metavar="Z", help="fail when the ROUGE-L (and ROUGE-Lsum) F-measure (0-1) is below Z"
    )
    for n in range(1, 10):
        gates.add_argument(
            f"--min-rouge{n}",
            type=_finite,
            metavar="Z",
            # one line of help for the nine
            help="fail when the ROUGE-1 (--min-rouge2 … --min-rouge9: ROUGE-2 … ROUGE-9) F-measure (0-1) is below Z"
            if n == 1
            else argparse.SUPPRESS,
        )
    gates.add_argument(
        "--max-ppl", type=_finite, metavar="X", help="fail when the hypothesis's perplexity under --lm is above X (needs ppl among --metrics)"
    )
    check.add_argument(
        "--format",
        choices=("text", "json", "github"),
        default="text",
        help="text: path:line:col: code message; json: one object; github: GitHub Actions annotations",
    )
    check.add_argument("--max-findings", type=int, metavar="N", help="show at most N findings (and say how many more)")
    check.set_defaults(run=run_check, parser=check)

    compare = commands.add_parser(
        "compare",
        parents=[_scoring_options(hypothesis=False)],
        help="systems against a baseline: scores, confidence intervals, paired significance tests",
        description="Each system against the baseline on the same references: every metric's score, the mean "
        "and 95%% confidence interval of its bootstrap resamples, and the p-value of a paired test "
        "(sacreBLEU's; the seed comes from SACREBLEU_SEED, default 12345, 'none' for a random one); "
        "then the segments where the best system most improves and most regresses.",
    )
    compare.add_argument("baseline", metavar="BASELINE", help="the baseline system's file")
    compare.add_argument("systems", metavar="SYSTEM", nargs="+", help="files of the systems compared with it")
    tests = compare.add_mutually_exclusive_group()
    tests.add_argument(
        "--paired-bs", dest="test", action="store_const", const="bs", help="paired bootstrap resampling (the default)"
    )
    tests.add_argument("--paired-ar", dest="test", action="store_const", const="ar", help="paired approximate randomization")
    compare.set_defaults(test="bs")
    compare.add_argument(
        "--paired-n",
        type=_samples,
        default=0,
        metavar="N",
        help="bootstrap resamples or randomization trials (default: 1,000 or 10,000; confidence intervals "
        "always from 1,000 resamples)",
    )
    compare.add_argument(
        "--segments", type=_samples, default=3, metavar="N", help="show N most improved and N most regressed segments (default: 3)"
    )
    compare.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    compare.set_defaults(run=run_compare, parser=compare)

    # listed for --help only: main() hands `scorelens sacrebleu ...` to its own parser
    commands.add_parser(
        "sacrebleu",
        add_help=False,
        help="sacreBLEU 2.x's own command line and output for local files (scorelens sacrebleu --help)",
    )

    serve = commands.add_parser(
        "serve",
        help="run the language server",
        description="Run the ScoreLens language server, over standard input/output unless --tcp is given.",
    )
    serve.add_argument(
        "--tcp",
        type=_host_port,
        metavar="HOST:PORT",
        help="listen on a TCP socket instead of stdio (HOST defaults to 127.0.0.1); one client at a time, "
        "each served from a clean state; others are told so and closed",
    )
    serve.add_argument("--once", action="store_true", help="with --tcp: exit when the first client disconnects")
    serve.add_argument("--stdio", action="store_true", help="use standard input/output (the default)")
    serve.set_defaults(run=run_serve, parser=serve)
    return parser


# -- configuration --------------------------------------------------------------------------


def target_language(language: str | None) -> str | None:
    """``zh`` from ``zh`` or from sacreBLEU's ``en-zh`` pair."""
    if not language:
        return None
    return language.rsplit("-", 1)[-1].lower() if "-" in language else language.lower()


def chrf_config(args: argparse.Namespace) -> ChrfConfig:
    """chrF's options, named as sacreBLEU's in both command lines (``score`` and ``sacrebleu``)."""
    return ChrfConfig(
        char_order=args.chrf_char_order,
        word_order=args.chrf_word_order,
        beta=args.chrf_beta,
        lowercase=args.chrf_lowercase,
        whitespace=args.chrf_whitespace,
        eps_smoothing=args.chrf_eps_smoothing,
    )


def ter_config(args: argparse.Namespace) -> TerConfig:
    """TER's options, named as sacreBLEU's in both command lines."""
    return TerConfig(
        normalized=args.ter_normalized,
        no_punct=args.ter_no_punct,
        asian_support=args.ter_asian_support,
        case_sensitive=args.ter_case_sensitive,
    )


def scoring_config(args: argparse.Namespace) -> ScoringConfig:
    tokenize = args.tokenize or LANGUAGE_TOKENIZERS.get(target_language(args.language), "13a")
    try:
        return ScoringConfig(
            metrics=frozenset(args.metrics) - {PPL},
            bleu=BleuConfig(
                tokenize=tokenize,
                smooth_method=args.smooth_method,
                smooth_value=args.smooth_value,
                lowercase=args.lowercase,
                max_ngram_order=args.max_ngram_order,
            ),
            rouge=RougeConfig(tokenizer_name=args.rouge_tokenizer, stem=args.stem),
            chrf=chrf_config(args),
            ter=ter_config(args),
            wer_transform=args.wer_transform,
            segmentation=args.segmentation,
        )
    except ValueError as exc:
        raise CliError(str(exc)) from None


# -- reading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Document:
    path: str  # as the user wrote it, so messages point where they expect
    text: str
    lines: list[str]  # as sacreBLEU's command line splits and strips them (see sacrebleu_lines)


def _read_stdin(max_bytes: int) -> bytes:
    if sys.stdin is None:
        raise CliError("no standard input to read the hypothesis from")
    buffer = getattr(sys.stdin, "buffer", None)
    # one byte more than the limit tells an input that is too large
    data = buffer.read(max_bytes + 1) if buffer is not None else sys.stdin.read(max_bytes + 1).encode("utf-8")
    if len(data) > max_bytes:
        raise too_large(STDIN_NAME, max_bytes, "--max-file-bytes")
    return data


def read_document(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Document:
    try:
        if path == STDIN:
            text = decode(STDIN_NAME, _read_stdin(max_bytes))
            return Document(STDIN_NAME, text, sacrebleu_lines(text, universal_newlines=True))
        text = read_text(path, max_bytes, "--max-file-bytes")
        return Document(path, text, sacrebleu_lines(text))
    except UnreadableText as exc:
        raise CliError(str(exc)) from None


def found_references(hypothesis: str) -> list[str]:
    """The references the naming conventions find next to the hypothesis (when -r is not given).

    The path is made absolute first, so ``hyp/NAME`` is found however the hypothesis is written (from
    inside ``hyp/`` too); references are named as the hypothesis is, relative or absolute.
    """
    from .pairing_rules import NoReferences, find_references  # imported only when used

    resolved = Path(os.path.abspath(hypothesis))  # not resolve(): a symlinked hypothesis pairs where it is linked
    try:
        found = find_references(resolved)
    except NoReferences as exc:
        raise CliError(f"{hypothesis}: {exc}") from None
    if not Path(hypothesis).is_absolute():
        found = [Path(os.path.relpath(p)) for p in found]
    found = [str(p) for p in found]
    print(f"scorelens: {hypothesis}: references found by name: {', '.join(found)}", file=sys.stderr)
    return found


def read_documents(args: argparse.Namespace) -> list[Document]:
    """The hypothesis, then its references (none when only perplexity is asked for)."""
    if args.metrics == [PPL]:
        return [read_document(args.hypothesis, args.max_file_bytes)]
    if args.hypothesis == STDIN and not args.references:
        # said before reading, or a terminal would wait for input first
        raise CliError("reading the hypothesis from standard input (-) needs -r REF")
    hypothesis = read_document(args.hypothesis, args.max_file_bytes)
    references = args.references or found_references(args.hypothesis)
    return [hypothesis, *(read_document(r, args.max_file_bytes) for r in references)]


# -- scoring --------------------------------------------------------------------------------


@contextmanager
def worker_pool(jobs: int) -> Iterator[PoolMap]:
    """A ``map`` for the core's scoring of large inputs in ``jobs`` processes: this one and
    ``jobs - 1`` workers forked from it.

    The workers take the chunks from the first on, this process takes them from the last on,
    each the next one no one has taken, until they meet; each worker then sends its results
    back at once. Forked, a worker has the chunks and the function already: only results
    cross between processes, and no thread runs to move them (a process pool pickles each
    chunk out and its results back, in threads that take turns with this process's scoring).
    This process scores its first chunk before forking: the workers then have what that
    loaded (NumPy, the tables of the words met) without loading it again.
    """
    import multiprocessing  # imported only when used

    if "fork" not in multiprocessing.get_all_start_methods():  # Windows: scored in this process
        yield map
        return
    context = multiprocessing.get_context("fork")
    workers: list = []

    def shared_map(fn, chunks):
        chunks = list(chunks)
        if not chunks:
            return []
        results = {len(chunks) - 1: fn(chunks[-1])}
        untaken = context.Array("q", [0, len(chunks) - 2])  # the first and last chunks no one has taken

        def take(first: bool) -> int | None:
            with untaken.get_lock():
                low, high = untaken
                if low > high:
                    return None
                untaken[not first] = low + 1 if first else high - 1
                return low if first else high

        started = []
        for _ in range(jobs - 1):
            receiving, sending = context.Pipe(duplex=False)
            worker = context.Process(target=_score_chunks, args=(fn, chunks, take, sending), daemon=True)
            worker.start()
            sending.close()
            started.append((worker, receiving))
        workers.extend(started)
        while (i := take(first=False)) is not None:
            results[i] = fn(chunks[i])
        for worker, receiving in started:
            try:
                found = receiving.recv()
            except EOFError:
                raise RuntimeError(f"a scoring worker process ended without its results (exit code {worker.exitcode})") from None
            if isinstance(found, BaseException):
                raise found
            results.update(found)
            worker.join()  # its results sent, it is ending
        return [results[i] for i in range(len(chunks))]

    try:
        yield shared_map
    finally:
        for worker, receiving in workers:
            if worker.is_alive():  # this process stopped early (an error, Ctrl-C)
                worker.terminate()
            worker.join()
            receiving.close()


def _score_chunks(fn, chunks, take, sending) -> None:
    """A worker of :func:`worker_pool`: ``fn`` of each chunk it takes, sent back at the end
    (or what it raised)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the process group; the parent stops the pool
    done = {}
    try:
        while (i := take(first=True)) is not None:
            done[i] = fn(chunks[i])
    except Exception as exc:  # noqa: BLE001 -- raised again in the parent
        sending.send(exc)
    else:
        sending.send(done)


@dataclass
class Perplexity:
    """The hypothesis's fluency under the model named by ``--lm``, segmented as the corpus is."""

    model: str  # the path as given
    fluency: Fluency
    starts: list[int]  # the hypothesis line each segment starts on
    order: int  # the model's n-gram order

    def position(self, segment: int, offset: int) -> tuple[int, int]:
        """(line, column) in code points of an offset into a segment's text."""
        text = self.fluency[segment].text
        line_start = text.rfind("\n", 0, offset) + 1
        return self.starts[segment] + text.count("\n", 0, offset), offset - line_start

    @property
    def score(self) -> FluencyScore:
        return self.fluency.score()

    def signature(self) -> str:
        return fluency_signature(self.fluency.config, self.order)


@dataclass
class Evaluation:
    """The documents of one run, their corpus (None when only perplexity is asked for) and the
    hypothesis's perplexity (None unless asked for); the corpus is scored on first use of :attr:`scores`."""

    documents: list[Document]  # the hypothesis, then the references
    corpus: Corpus | None
    jobs: int = 1  # processes for scoring a large corpus
    perplexity: Perplexity | None = None

    @cached_property
    def scores(self) -> CorpusScores | None:
        if self.corpus is None:
            return None
        if self.jobs > 1 and len(self.corpus) >= POOL_MINIMUM:
            with worker_pool(self.jobs) as pool_map:
                self.corpus.refresh(pool_map=pool_map)
        return self.corpus.scores()

    @property
    def segments(self) -> int:
        return len(self.corpus) if self.corpus is not None else len(self.perplexity.fluency)

    def first_line(self, segment: int) -> int:
        """The hypothesis line a segment starts on."""
        return self.corpus.first_line(0, segment) if self.corpus is not None else self.perplexity.starts[segment]

    def position(self, side: int, segment: int, offset: int) -> tuple[int, int]:
        if self.corpus is not None:
            return self.corpus.position(side, segment, offset)
        return self.perplexity.position(segment, offset)

    @property
    def unit(self) -> str:
        return {"line": "lines", "paragraph": "paragraphs"}.get(self.corpus.config.segmentation, "documents")

    def mismatches(self) -> list[tuple[int, int, int]]:
        """``(reference side, hypothesis count, reference count)`` for each reference that does not line up."""
        if self.corpus is None or self.corpus.config.segmentation == "document":
            return []  # one segment each, whatever the line counts
        counts = self.corpus.segment_counts()
        return [(side, counts[0], n) for side, n in enumerate(counts) if side and n != counts[0]]

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
                f"{paths[0]} has {hyp_count} {self.unit}, {paths[side]} has {ref_count} "
                f"(from {paths[longer]}:{line} on without a partner)"
            )
        raise CliError(
            f"the files do not line up: {'; '.join(details)}; "
            "segment i of the hypothesis pairs with segment i of each reference"
        )


def score_perplexity(args: argparse.Namespace, hypothesis: Document) -> Perplexity | None:
    """The hypothesis's fluency when ``--metrics`` has ppl (``--lm`` is checked before any file is read)."""
    if PPL not in args.metrics:
        return None
    from .language_model import ModelUnavailable, load  # imported only when used

    try:
        config = FluencyConfig(tokenize=args.lm_tokenize, outlier_z=args.lm_outlier_z)
        model = load(args.lm)
    except (ValueError, ModelUnavailable) as exc:
        raise CliError(str(exc)) from None
    spans = segment_spans(hypothesis.lines, args.segmentation)
    texts = ["\n".join(hypothesis.lines[a:b]) for a, b in spans]
    return Perplexity(args.lm, Fluency.of(model, config, texts), [a for a, _ in spans], model.order)


def check_lm_options(args: argparse.Namespace) -> None:
    if PPL in args.metrics and not args.lm:
        raise CliError("--metrics ppl needs --lm PATH, the KenLM language model to score with")
    if args.lm and PPL not in args.metrics:
        raise CliError("--lm is used by the ppl metric: add ppl to --metrics")


def evaluation(args: argparse.Namespace) -> Evaluation:
    check_lm_options(args)
    config = scoring_config(args)
    documents = read_documents(args)
    corpus = Corpus(documents[0].lines, [d.lines for d in documents[1:]], config) if config.metrics else None
    ev = Evaluation(documents, corpus, args.jobs or _available_cpus(), score_perplexity(args, documents[0]))
    ev.require_lined_up()
    return ev


# -- score: formatting ----------------------------------------------------------------------


def format_bleu(b: BleuScore) -> str:
    """sacreBLEU's own score line."""
    precisions = "/".join(f"{p:.1f}" for p in b.precisions)
    ratio = b.sys_len / b.ref_len if b.ref_len else 0
    return (
        f"BLEU = {b.score:.2f} {precisions} (BP = {b.bp:.3f} ratio = {ratio:.3f} "
        f"hyp_len = {b.sys_len:d} ref_len = {b.ref_len:d})"
    )


def format_chrf(c: ChrfScore) -> str:
    """sacreBLEU's score line: ``chrF2 = 58.66``, ``chrF2++ = 56.24``."""
    return f"{c.name} = {c.score:.2f}"


def rouge_label(key: str) -> str:
    """``ROUGE-L``, ``ROUGE-Lsum``, ``ROUGE-1`` for rougeL, rougeLsum, rouge1."""
    return "ROUGE-" + key[5:]


def format_rouge(label: str, r: RougeScore) -> str:
    return f"{label} = {r.fmeasure:.4f} (P = {r.precision:.4f} R = {r.recall:.4f} F = {r.fmeasure:.4f})"


def format_errors(label: str, c: ErrorCounts) -> str:
    r = rates(c)
    line = (
        f"{label} = {r.wer:.4f} (H = {c.hits} S = {c.substitutions} D = {c.deletions} I = {c.insertions} "
        f"MER = {r.mer:.4f} WIL = {r.wil:.4f})"
    )
    if c.ref_len == 0:
        line += f"; the reference is empty, so {label} counts insertions as jiwer does"
    return line


def format_perplexity(p: Perplexity) -> str:
    s = p.score
    value = "n/a (no segments)" if s.perplexity is None else f"{s.perplexity:.2f}"
    return f"PPL = {value} (log10 prob = {s.log10_prob:.2f} tokens = {s.tokens} OOV = {s.oov} model = {p.model})"


def score_lines(ev: Evaluation) -> list[str]:
    """The readable summary: one line per metric, its signature indented under it."""
    out = []
    if ev.perplexity is not None:
        out += [format_perplexity(ev.perplexity), f"  {ev.perplexity.signature()}"]
    if ev.scores is None:
        return [*out, f"segments: {ev.segments}"]
    s, signatures = ev.scores, ev.scores.signatures
    if s.bleu is not None:
        out += [format_bleu(s.bleu), f"  {signatures['bleu']}"]
    if s.chrf is not None:
        out += [format_chrf(s.chrf), f"  {signatures['chrf']}"]
    for key, value in (("rougeL", s.rouge_l), ("rougeLsum", s.rouge_lsum), *s.rouge_n.items()):
        if value is not None:
            out += [format_rouge(rouge_label(key), value), f"  {signatures[key]}"]
    for key, label, value in (("wer", "WER", s.wer), ("cer", "CER", s.cer)):
        if value is not None:
            out += [format_errors(label, value), f"  {signatures[key]}"]
    if s.ter is not None:
        out += [f"TER = {s.ter.score:.2f} (edits = {s.ter.num_edits} ref_length = {s.ter.ref_length:g})", f"  {signatures['ter']}"]
    out.append(f"segments: {s.segments}")
    return out


# Scripts written without spaces between words: whitespace tokenizers see whole clauses as one token.
_UNSPACED_SCRIPT = regex.compile(r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]")
_SPACE_TOKENIZERS = ("13a", "intl", "none")


def _mostly_unspaced(text: str) -> bool:
    text = text[:100_000]  # enough to tell the script of a long file
    visible = len(text) - sum(map(str.isspace, text))
    return visible > 0 and len(_UNSPACED_SCRIPT.findall(text)) > visible / 3


def notes(ev: Evaluation) -> list[str]:
    """Known traps (DESIGN §2) this run fell into, so they are never silent."""
    if ev.corpus is None:
        return []
    s, config = ev.scores, ev.corpus.config
    found = []
    if s.dropped_segments and config.rouge.tokenizer_name == "rouge-score":
        found.append(
            f"note: rouge-score's tokenizer dropped non-ASCII letters in {s.dropped_segments} of {s.segments} "
            "segments (as rouge-score does); --rouge-tokenizer unicode keeps them"
        )
    if s.bleu is not None or s.wer is not None:
        if _mostly_unspaced(ev.documents[0].text):
            if s.bleu is not None and config.bleu.tokenize in _SPACE_TOKENIZERS:
                found.append(
                    f"note: the hypothesis is mostly Chinese, Japanese or Korean, which BLEU's {config.bleu.tokenize} "
                    "tokenizer leaves unsegmented; -l zh, -l ja or -l ko picks the tokenizer sacreBLEU would"
                )
            if s.wer is not None:
                found.append(
                    "note: WER splits words at spaces only, so unsegmented text counts whole phrases as words; "
                    "CER (--metrics cer) is the usual measure there"
                )
    return found


def scores_json(ev: Evaluation) -> dict:
    """The ``--json`` object: only enabled metrics, BLEU 0-100, the rest 0-1; ``ppl`` as :func:`fluency_dict`."""
    out = {} if ev.scores is None else scores_dict(ev.scores)
    if ev.perplexity is not None:
        out = {PPL: fluency_dict(ev.perplexity.score, ev.perplexity.model), **out}
    out["segments"] = ev.segments
    return out


def segment_row(ev: Evaluation, segment: int) -> str:
    """One segment's scores on one line: where it starts in the hypothesis, then each metric."""
    cells = [f"{ev.documents[0].path}:{ev.first_line(segment) + 1}"]
    if ev.perplexity is not None:
        cells.append(f"PPL = {ev.perplexity.fluency[segment].perplexity:.2f}")
    if ev.corpus is None:
        return "\t".join(cells)
    s = ev.corpus.segment_scores(segment)
    if s.bleu is not None:
        cells.append(f"BLEU = {s.bleu.score:.2f}")
    if s.chrf is not None:
        cells.append(format_chrf(s.chrf))
    for key, value in (("rougeL", s.rouge_l), ("rougeLsum", s.rouge_lsum), *s.rouge_n.items()):
        if value is not None:
            cells.append(f"{rouge_label(key)} = {value.fmeasure:.4f}")
    for label, value in (("WER", s.wer), ("CER", s.cer)):
        if value is not None:
            cells.append(f"{label} = {rates(value).wer:.4f}")
    if s.ter is not None:
        cells.append(f"TER = {s.ter.score:.2f}")
    return "\t".join(cells)


def run_sentence_level(ev: Evaluation, as_json: bool) -> None:
    ev.scores  # scored once, through the pool when large
    for i in range(ev.segments):
        if as_json:
            row = {"segment": i, "line": ev.first_line(i) + 1}
            if ev.perplexity is not None:
                f = ev.perplexity.fluency[i]
                row[PPL] = {"perplexity": f.perplexity, "log10_prob": f.log10_prob, "tokens": f.words + 1, "oov": f.oov}
            if ev.corpus is not None:
                row.update(segment_dict(ev.corpus.segment_scores(i)))
            print(json.dumps(row, ensure_ascii=False))
        else:
            print(segment_row(ev, i))


def run_score(args: argparse.Namespace) -> int:
    ev = evaluation(args)
    if args.sentence_level:
        run_sentence_level(ev, args.json)
        for note in notes(ev):
            print(note, file=sys.stderr)
    elif args.json:
        print(json.dumps(scores_json(ev), ensure_ascii=False))
        for note in notes(ev):
            print(note, file=sys.stderr)  # stdout stays one JSON object
    else:
        print("\n".join(score_lines(ev) + notes(ev)))
    return EXIT_OK


# -- compare --------------------------------------------------------------------------------

TEST_NAMES = {"bs": ("paired bootstrap resampling", "resamples"), "ar": ("paired approximate randomization", "trials")}
SIGNIFICANT = 0.05


@dataclass(frozen=True)
class Highlight:
    """A segment where a system differs most from the baseline on one metric."""

    line: int  # 1-based, in the system's file
    difference: float
    baseline: float
    system: float
    baseline_text: str
    system_text: str


@dataclass(frozen=True)
class Highlights:
    system: int  # index into the compared systems
    metric: str
    improved: list[Highlight]
    regressed: list[Highlight]


def compared_evaluations(args: argparse.Namespace, config: ScoringConfig) -> list[Evaluation]:
    """The baseline and every system, each with the shared references, scored and lined up."""
    paths = [args.baseline, *args.systems]
    if STDIN in paths:
        raise CliError("compare reads every system from a file; standard input (-) is not one")
    references = [read_document(r, args.max_file_bytes) for r in args.references or found_references(args.baseline)]
    evaluations = []
    for path in paths:
        document = read_document(path, args.max_file_bytes)
        corpus = Corpus(document.lines, [r.lines for r in references], config)
        ev = Evaluation([document, *references], corpus, args.jobs or _available_cpus())
        ev.require_lined_up()
        ev.scores  # noqa: B018 -- scored here, through the worker pool when large
        evaluations.append(ev)
    return evaluations


def highlights(evaluations: list[Evaluation], comparison: significance.Comparison, count: int) -> Highlights | None:
    """The segments where the best system (on the first metric) most improves and most regresses."""
    import numpy as np

    from .core import significance

    if count == 0:
        return None
    metric = comparison.metrics[0]
    sign = 1 if significance.METRICS[metric].higher_is_better else -1
    scores = [r[metric].score for r in comparison.results]
    best = max(range(1, len(scores)), key=lambda i: sign * scores[i])
    base, system = evaluations[0].corpus, evaluations[best].corpus
    base_scores = significance.segment_scores(base, metric)
    system_scores = significance.segment_scores(system, metric)
    gains = sign * (system_scores - base_scores)
    order = np.argsort(-gains, kind="stable")

    def highlight(i: int) -> Highlight:
        return Highlight(
            system.first_line(0, i) + 1,
            float(system_scores[i] - base_scores[i]),
            float(base_scores[i]),
            float(system_scores[i]),
            base.text(0, i),
            system.text(0, i),
        )

    improved = [highlight(int(i)) for i in order[:count] if gains[i] > 0]
    regressed = [highlight(int(i)) for i in order[::-1][:count] if gains[i] < 0]
    return Highlights(best, metric, improved, regressed)


def _value(metric: str, x: float, sign: str = "") -> str:
    return f"{x:{sign}.2f}" if metric in HUNDREDS else f"{x:{sign}.4f}"


def _cell(metric: str, r: significance.Result) -> str:
    cell = _value(metric, r.score)
    if r.mean is not None:
        cell += f" ({_value(metric, r.mean)} ± {_value(metric, r.ci)})"
    if r.p_value is not None:
        cell += f" p = {r.p_value:.4f}" + ("*" if r.p_value < SIGNIFICANT else "")
    return cell


def compare_lines(evaluations: list[Evaluation], comparison: significance.Comparison, found: Highlights | None) -> list[str]:
    name, unit = TEST_NAMES[comparison.test]
    seed = "no seed" if comparison.seed is None else f"seed {comparison.seed}"
    paths = [ev.documents[0].path for ev in evaluations]
    out = [
        f"{name.capitalize()} against the baseline {paths[0]}: {comparison.n:,} {unit}, {seed}",
        "score (mean ± 95% confidence interval) and p-value against the baseline; * p < 0.05",
        "",
    ]
    header = ["System", *(metric_label(m) for m in comparison.metrics)]
    rows = [[path, *(_cell(m, r[m]) for m in comparison.metrics)] for path, r in zip(paths, comparison.results)]
    widths = [max(len(row[k]) for row in [header, *rows]) for k in range(len(header))]
    for row in [header, *rows]:
        out.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    if found is not None:
        label = metric_label(found.metric)
        out += ["", f"{paths[found.system]} against the baseline, segment by segment ({label} of each segment):"]
        for title, items in (("most improved", found.improved), ("most regressed", found.regressed)):
            out.append(f"  {title}:" + ("" if items else " none"))
            for h in items:
                out += [
                    f"    line {h.line}: {_value(found.metric, h.difference, '+')} "
                    f"({_value(found.metric, h.baseline)} -> {_value(found.metric, h.system)})",
                    f"      - {h.baseline_text}",
                    f"      + {h.system_text}",
                ]
    return out


def compare_json(evaluations: list[Evaluation], comparison: significance.Comparison, found: Highlights | None) -> dict:
    paths = [ev.documents[0].path for ev in evaluations]
    out = comparison_dict(comparison, paths)
    if found is not None:
        out["segments"] = {
            "system": paths[found.system],
            "metric": found.metric,
            **{
                key: [
                    {"line": h.line, "difference": h.difference, "baseline": h.baseline, "system": h.system}
                    for h in items
                ]
                for key, items in (("improved", found.improved), ("regressed", found.regressed))
            },
        }
    return out


def run_compare(args: argparse.Namespace) -> int:
    from .core import significance

    config = scoring_config(args)
    untested = [m for m in args.metrics if m not in significance.METRICS]
    if untested:
        raise CliError(f"compare has no significance test for {untested[0]}; choose from {','.join(significance.METRICS)}")
    try:
        seed = significance.seed_from(os.environ.get("SACREBLEU_SEED"))
    except ValueError:
        raise CliError(f"SACREBLEU_SEED must be a number or 'none', not {os.environ['SACREBLEU_SEED']!r}") from None
    evaluations = compared_evaluations(args, config)
    corpora = [ev.corpus for ev in evaluations]
    if not len(corpora[0]):
        raise CliError(f"{args.baseline}: no segments to compare")
    # confidence intervals under randomization too (sacreBLEU's n_ar_confidence), as the table shows them
    comparison = significance.paired_test(corpora, args.metrics, args.test, args.paired_n, seed, ar_confidence=0)
    found = highlights(evaluations, comparison, args.segments)
    if args.json:
        print(json.dumps(compare_json(evaluations, comparison, found), ensure_ascii=False))
    else:
        print("\n".join(compare_lines(evaluations, comparison, found)))
    return EXIT_OK


# -- check: findings ------------------------------------------------------------------------


@dataclass(frozen=True)
class Located:
    """A finding placed in a file: 1-based line and column in code points, end exclusive."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    message: str
    text: str = ""
    related: tuple[str, int, int] | None = None  # the matching place in the other file

    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def to_json(self) -> dict:
        d = {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "message": self.message,
            "text": self.text,
        }
        if self.related:
            d["related"] = dict(zip(("path", "line", "column"), self.related))
        return d


def _quote(text: str) -> str:
    # JSON quoting escapes newlines and tabs, so every finding stays on one output line
    return json.dumps(text, ensure_ascii=False)


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
    if f.code == SHIFT:
        return f"{_quote(f.text)} is in another place in the reference (a TER shift)" + (f", at {related}" if related else "")
    return _quote(f.text)


def locate(ev: Evaluation, f: Finding) -> Located:
    paths = [d.path for d in ev.documents]
    line, column = ev.position(f.side, f.segment, f.start)
    end_line, end_column = ev.position(f.side, f.segment, f.end)
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


def byte_order_mark_findings(ev: Evaluation) -> list[Located]:
    """A leading U+FEFF is scored as a character of the first word (as sacreBLEU does): say so."""
    return [
        Located(d.path, 1, 1, 1, 2, BYTE_ORDER_MARK, BOM_NOTE, BOM)
        for d in ev.documents
        if d.text.startswith(BOM)
    ]


def all_findings(ev: Evaluation) -> list[Located]:
    """A byte order mark first, then segment by segment: hypothesis findings, then the references'."""
    corpus, fluency = ev.corpus, ev.perplexity and ev.perplexity.fluency
    located = byte_order_mark_findings(ev)
    for i in range(ev.segments):
        found = (corpus.findings(i) if corpus is not None else []) + (fluency.findings(i) if fluency else [])
        for f in sorted(found, key=lambda f: (f.side, f.start, f.end, f.code)):
            located.append(locate(ev, f))
    return located


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
    """A threshold on a metric that is not computed is a usage error, not a silent pass."""
    for dest, option, metric, _, _, _ in _GATES:
        if getattr(args, dest) is None:
            continue
        if option == "--min-rouge":
            if not {"rougeL", "rougeLsum"} & set(args.metrics):
                raise CliError("--min-rouge needs rougeL or rougeLsum among --metrics")
        elif metric not in args.metrics:
            raise CliError(f"{option} needs {metric} among --metrics")
    if args.max_ppl is not None and PPL not in args.metrics:
        raise CliError(f"--max-ppl needs {PPL} among --metrics")


def verdicts(args: argparse.Namespace, ev: Evaluation) -> list[Verdict]:
    found = []
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
    findings: list[Located]  # those shown
    omitted: int  # left out by --max-findings, and said so
    evaluation: Evaluation
    verdicts: list[Verdict]

    @property
    def passed(self) -> bool:
        return all(v.passed for v in self.verdicts)

    def text_lines(self) -> list[str]:
        out = [f"{f.where()}: {f.code} {f.message}" for f in self.findings]
        if self.omitted:
            out.append(f"... {self.omitted} more findings not shown (--max-findings)")
        out += ["", f"{len(self.findings) + self.omitted} findings"]
        out += score_lines(self.evaluation) + notes(self.evaluation)
        out += [("PASS: " if v.passed else "FAIL: ") + v.describe() for v in self.verdicts]
        return out

    def github_lines(self) -> list[str]:
        out = [self._annotation(f) for f in self.findings]
        if self.omitted:
            out.append(f"::notice title=scorelens::{self.omitted} more findings not shown (--max-findings)")
        out += score_lines(self.evaluation)  # plain lines land in the job log
        out += [f"::warning title=scorelens::{_github_escape(n)}" for n in notes(self.evaluation)]
        for v in self.verdicts:
            if v.passed:
                out.append(f"PASS: {v.describe()}")
            else:
                out.append(f"::error title=scorelens threshold::{_github_escape(v.describe())}")
        return out

    @staticmethod
    def _annotation(f: Located) -> str:
        level = "warning" if f.code == BYTE_ORDER_MARK else "notice"
        props = [f"file={_github_escape(f.path, True)}", f"line={f.line}"]
        if f.end_line != f.line:
            props.append(f"endLine={f.end_line}")
        else:  # GitHub ignores columns on annotations that span lines
            props += [f"col={f.column}", f"endColumn={f.end_column}"]
        props.append(f"title={_github_escape(f.code, True)}")
        return f"::{level} {','.join(props)}::{_github_escape(f.message)}"

    def to_json(self) -> dict:
        return {
            "findings": [f.to_json() for f in self.findings],
            "findings_omitted": self.omitted,
            "scores": scores_json(self.evaluation),
            "notes": notes(self.evaluation),
            "thresholds": [
                {"option": v.option, "metric": v.metric, "value": v.value, "limit": v.limit, "passed": v.passed}
                for v in self.verdicts
            ],
            "passed": self.passed,
        }


def run_check(args: argparse.Namespace) -> int:
    if args.max_findings is not None and args.max_findings < 0:
        raise CliError("--max-findings must be 0 or more")
    check_gate_metrics(args)
    ev = evaluation(args)
    ev.scores  # noqa: B018 -- first: scoring may use worker processes, finding the differences does not
    findings = all_findings(ev)
    shown = findings if args.max_findings is None else findings[: args.max_findings]
    report = CheckReport(shown, len(findings) - len(shown), ev, verdicts(args, ev))
    if args.format == "json":
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1))
    elif args.format == "github":
        print("\n".join(report.github_lines()))
    else:
        print("\n".join(report.text_lines()))
    return EXIT_OK if report.passed else EXIT_THRESHOLD


# -- serve ----------------------------------------------------------------------------------


def run_serve(args: argparse.Namespace) -> int:
    if args.tcp is not None:
        return serve_tcp(*args.tcp, once=args.once)
    # Imported here: pygls and the server are not needed to score files.
    try:
        server = importlib.import_module("scorelens.lsp.server")
    except ModuleNotFoundError as exc:
        if exc.name not in ("scorelens.lsp", "scorelens.lsp.server"):
            raise CliError(f"the language server cannot start: {exc}") from None
        server = None
    main = getattr(server, "main", None)
    if main is None:
        print("scorelens: the language server is not built yet (scorelens.lsp.server.main)", file=sys.stderr)
        return EXIT_ERROR
    result = main()  # --stdio is what VS Code's client appends
    return result if isinstance(result, int) else EXIT_OK


def serve_tcp(host: str, port: int, once: bool) -> int:
    """Listen until interrupted; each client gets a fresh ``scorelens serve`` (see lsp/tcp.py)."""
    import logging  # imported only when used

    from .lsp import tcp

    logging.basicConfig(level=logging.INFO, format="scorelens: %(message)s")
    try:
        listener = tcp.listen(host, port)
    except tcp.ListenError as exc:
        raise CliError(str(exc)) from None
    tcp.serve(listener, once)
    return EXIT_OK


# -- entry point ----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["sacrebleu"]:
        from . import sacrebleu_command

        return sacrebleu_command.main(argv[1:])
    try:
        args, unknown = build_parser().parse_known_args(argv)
        if unknown:  # argparse would blame them on the top-level parser and show its usage
            args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    except SystemExit as exc:  # --help, --version and usage errors; argparse has printed them
        return exc.code if isinstance(exc.code, int) else EXIT_ERROR
    collecting = gc.isenabled()
    if args.run is not run_serve:
        # A command that scores once and exits holds millions of acyclic objects (a corpus's
        # records), which the cyclic garbage collector would walk for nothing: 0.1 s on
        # 100,000 lines. Its worker processes, forked from here, inherit this.
        gc.disable()
    if args.run in (run_score, run_check):
        # OpenBLAS starts a thread per core as NumPy loads (40-60 ms of a process's start);
        # scoring multiplies no matrices (compare's resampling does, and keeps them).
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        return args.run(args)
    except (CliError, TokenizerUnavailable) as exc:  # a tokenizer loads when first used, deep in the core
        print(f"scorelens: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`); point stdout at nothing so the exit flush is quiet
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + 13  # as a shell reports a process ended by SIGPIPE
    finally:
        if collecting:  # main() called in a process that goes on (tests)
            gc.enable()


def run() -> None:
    """The ``scorelens`` command and ``python -m scorelens``: :func:`main`, then the process ends.

    A command that scores and exits leaves its memory to the operating system: the interpreter's
    teardown would free the corpus and the word tables object by object and walk every object
    once more for cycles, for nothing (30 ms of a 0.4 s run on 10,000 lines). ``serve``, a
    long-lived server with its own threads and handlers, ends as usual.
    """
    code = main()
    if sys.argv[1:2] == ["serve"]:
        sys.exit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # the reader went away before the last of the output
        code = 128 + 13
    os._exit(code)
