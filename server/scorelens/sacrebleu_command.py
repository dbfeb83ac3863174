"""``scorelens sacrebleu``: sacreBLEU 2.x's command line for local files, scored by ScoreLens.

Same arguments, same reading of the files (UTF-8, ``\\n`` line ends, each line right-stripped,
a leading U+FEFF kept), same output byte for byte (sacreBLEU 2.6.0's ``Score.format``,
``Signature.format`` and ``print_single_results``), except the signatures' ``version:``, which
names ScoreLens. What needs a download (test sets, sentencepiece models) or is not done yet
(several systems, significance tests, confidence intervals) ends with a one-line error.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import sys
from functools import partial
from itertools import chain
from typing import Sequence

from . import __version__
from .cli import _available_cpus, chrf_config, ter_config, worker_pool
from .core import bleu, chrf, ter
from .core.bleu import SMOOTH_DEFAULTS, BleuConfig
from .core.config import ScoringConfig
from .core.corpus import POOL_CHUNK, POOL_MINIMUM
from .core.segment import Record, score_texts
from .core.tokenizers import TokenizerUnavailable

EXIT_ERROR = 1  # as sacreBLEU exits on every error of this kind
VERSION = f"scorelens-{__version__}"

TOKENIZERS = ["none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200"]
DOWNLOADED_TOKENIZERS = ("spm", "flores101", "flores200")
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}
FORMATS = ["json", "text", "latex"]

# signature keys and their --short abbreviations, in sacreBLEU's order (version always last)
_COMMON_ABBR = {"nrefs": "#"}
_ABBR = {
    "BLEU": {"case": "c", "eff": "e", "tok": "tok", "smooth": "s"},
    "CHRF": {"case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s"},
    "TER": {"case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as"},
}


class SacrebleuError(Exception):
    """A usage or input error, printed as sacreBLEU logs it."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="scorelens sacrebleu",
        description="sacreBLEU 2.x's command line for local files: BLEU, chrF and TER scored by ScoreLens, "
        "printed as sacreBLEU prints them.\n"
        "    scorelens sacrebleu REF [REF ...] -i HYP  (or the hypothesis on standard input)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # accepted so that their use ends with a clear message rather than a usage error
    for flags in (("--test-set", "-t"), ("--download",), ("--language-pair", "-l"), ("--origlang", "-ol"), ("--subset",)):
        p.add_argument(*flags, default=None)
    p.add_argument("--echo", nargs="+", default=None)
    for flags in (("--list",), ("--citation", "--cite"), ("--detail", "-d"), ("--confidence", "-ci")):
        p.add_argument(*flags, action="store_true")
    p.add_argument("--confidence-n", "-cin", type=int, default=1000)
    p.add_argument("--paired-ar", "-par", action="store_true")
    p.add_argument("--paired-bs", "-pbs", action="store_true")
    p.add_argument("--paired-ar-n", "-parn", type=int, default=10000)
    p.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000)
    p.add_argument("--paired-jobs", "-j", type=int, default=1)

    p.add_argument("--input", "-i", type=str, nargs="*", default=None, help="hypothesis file(s) instead of standard input")
    p.add_argument("refs", nargs="*", default=[], help="reference files, before -i")
    p.add_argument("--num-refs", "-nr", type=int, default=1, help="split each reference line on tabs into this many references")
    p.add_argument("--encoding", "-e", type=str, default="utf-8", help="file encoding (default: %(default)s)")
    p.add_argument("--metrics", "-m", choices=["bleu", "chrf", "ter"], nargs="+", default=["bleu"], help="(default: bleu)")
    p.add_argument("--sentence-level", "-sl", action="store_true", help="one score per segment")

    b = p.add_argument_group("BLEU")
    b.add_argument("--smooth-method", "-s", choices=list(SMOOTH_DEFAULTS), default="exp", dest="bleu_smooth_method")
    b.add_argument("--smooth-value", "-sv", type=float, default=None, dest="bleu_smooth_value")
    b.add_argument("--tokenize", "-tok", choices=TOKENIZERS, default=None, dest="bleu_tokenize")
    b.add_argument("--lowercase", "-lc", dest="bleu_lowercase", action="store_true", default=False)
    b.add_argument("--force", default=False, action="store_true", dest="bleu_force")

    c = p.add_argument_group("chrF")
    c.add_argument("--chrf-char-order", "-cc", type=int, default=6)
    c.add_argument("--chrf-word-order", "-cw", type=int, default=0)
    c.add_argument("--chrf-beta", type=int, default=2)
    c.add_argument("--chrf-whitespace", action="store_true", default=False)
    c.add_argument("--chrf-lowercase", action="store_true", default=False)
    c.add_argument("--chrf-eps-smoothing", action="store_true", default=False)

    t = p.add_argument_group("TER")
    t.add_argument("--ter-case-sensitive", action="store_true")
    t.add_argument("--ter-asian-support", action="store_true")
    t.add_argument("--ter-no-punct", action="store_true")
    t.add_argument("--ter-normalized", action="store_true")

    r = p.add_argument_group("reporting")
    r.add_argument("--quiet", "-q", default=False, action="store_true")
    r.add_argument("--short", "-sh", default=False, action="store_true")
    r.add_argument("--score-only", "-b", default=False, action="store_true")
    r.add_argument("--width", "-w", type=int, default=1)
    r.add_argument("--no-color", "-nc", action="store_true")
    r.add_argument("--format", "-f", default="json", choices=FORMATS)
    p.add_argument("--version", "-V", action="version", version=f"%(prog)s {VERSION}")
    return p


def _refuse(args: argparse.Namespace) -> None:
    """What this command does not do, each with its reason."""
    if args.test_set or args.download or args.echo or args.list or args.citation or args.origlang or args.subset:
        raise SacrebleuError(
            "test sets (-t, --download, --echo, --list, --citation, -ol, --subset) need sacreBLEU's downloads; "
            "give reference files instead"
        )
    if args.detail:
        raise SacrebleuError("--detail needs a test set's origlang annotations (-t), which need a download")
    if args.bleu_tokenize in DOWNLOADED_TOKENIZERS:
        raise SacrebleuError(f"the {args.bleu_tokenize} tokenizer needs a sentencepiece model download; not available here")
    if args.paired_bs or args.paired_ar:
        raise SacrebleuError("paired significance tests (--paired-bs, --paired-ar) are not supported yet (issue #14)")
    if args.confidence:
        raise SacrebleuError("confidence intervals (--confidence) are not supported yet")


def _open(path: str, encoding: str):
    """As sacreBLEU's ``smart_open``: only ``\\n`` ends a line, gzip by extension."""
    if path.endswith(".gz"):
        return gzip.open(path, mode="rt", encoding=encoding, newline="\n")
    return open(path, encoding=encoding, newline="\n")


def read_references(args: argparse.Namespace) -> list[list[str]]:
    if args.num_refs != 1 and len(args.refs) > 1:
        raise SacrebleuError("--num-refs splits one reference file on tabs; give one reference file with it")
    streams: list[list[str]] = [[] for _ in range(max(len(args.refs), args.num_refs))]
    for k, path in enumerate(args.refs):
        with _open(path, args.encoding) as f:
            for number, line in enumerate(f, 1):
                line = line.rstrip()
                if args.num_refs == 1:
                    streams[k].append(line)
                    continue
                fields = line.split(sep="\t", maxsplit=args.num_refs - 1)
                if len(fields) != args.num_refs:
                    raise SacrebleuError(f"FATAL: line {number}: expected {args.num_refs} fields, but found {len(fields)}.")
                for j, field in enumerate(fields):
                    streams[j].append(field)
    return streams


def read_systems(args: argparse.Namespace) -> list[list[str]]:
    if args.input is None:
        # standard input as sacreBLEU reads it: universal newlines, tab-separated systems
        stream = io.TextIOWrapper(sys.stdin.buffer, encoding=args.encoding)
        first = stream.readline().rstrip().split("\t")
        systems = [[s] for s in first]
        for line in stream:
            fields = line.rstrip().split("\t")
            if len(fields) != len(systems):
                raise SacrebleuError("FATAL: the number of tab-delimited fields in the input stream differ across lines.")
            for system, sent in zip(systems, fields):
                system.append(sent.rstrip())
        return systems
    systems = []
    for path in args.input:
        with _open(path, args.encoding) as f:
            systems.append([line.rstrip() for line in f])
    return systems


# -- sacreBLEU's formatting ------------------------------------------------------------------


def signature(metric: str, info: dict, nrefs: int, short: bool) -> str:
    """``Signature.format``: nrefs, the metric's own keys, then the version."""
    abbr = {**_COMMON_ABBR, **_ABBR[metric], "version": "v"}
    pairs = [("nrefs", nrefs), *info.items(), ("version", VERSION)]
    out = []
    for name, value in pairs:
        if isinstance(value, bool):
            value = "yes" if value else "no"
        out.append(f"{abbr[name] if short else name}:{value}")
    return "|".join(out)


def format_score(name: str, score: float, width: int, score_only: bool, sig: str, is_json: bool, verbose: str = "") -> str:
    """``Score.format`` (without confidence intervals)."""
    d: dict = {"name": name, "score": float(f"{score:.{width}f}"), "signature": sig}
    sc = f"{score:.{width}f}"
    full = f"{name}|{sig}" if sig else name
    full = f"{full} = {sc}"
    if verbose:
        full += f" {verbose}"
        d["verbose_score"] = verbose
    if score_only:
        return sc
    if is_json:
        for param in sig.split("|"):
            key, value = param.split(":")
            d[key] = value
        return json.dumps(d, indent=1, ensure_ascii=False)
    return full


def print_single_results(results: list[str], fmt: str) -> None:
    """``print_single_results``: a JSON list, or lines aligned at their ``=``."""
    if fmt == "json":
        print("[\n" + ",\n".join(results) + "\n]" if len(results) > 1 else results[0])
        return
    if len(results) == 1:
        print(results[0])
        return
    lens = []
    for line in results:
        try:
            lens.append(line.index("=") - 1)
        except ValueError:
            print(line)
    if lens:
        w = max(lens)
        for n, line in zip(lens, results):
            print(f"{line[:n]:>{w}}{line[n:]}")


# -- scoring ---------------------------------------------------------------------------------


def _records(config: ScoringConfig, columns: list[list[str]]) -> list[Record]:
    """Each segment's statistics, in worker processes when there are many (as ``scorelens score``)."""
    jobs = _available_cpus()
    if jobs > 1 and len(columns[0]) >= POOL_MINIMUM:
        chunks = ([column[i : i + POOL_CHUNK] for column in columns] for i in range(0, len(columns[0]), POOL_CHUNK))
        with worker_pool(jobs) as pool_map:
            return list(chain.from_iterable(pool_map(partial(score_texts, config), chunks)))
    return score_texts(config, columns)


def _bleu_verbose(s: bleu.BleuScore) -> str:
    precisions = "/".join(f"{p:.1f}" for p in s.precisions)
    ratio = s.sys_len / s.ref_len if s.ref_len else 0
    return f"{precisions} (BP = {s.bp:.3f} ratio = {ratio:.3f} hyp_len = {s.sys_len:d} ref_len = {s.ref_len:d})"


def run(args: argparse.Namespace) -> None:
    if os.environ.get("SACREBLEU_FORMAT", "").lower() in FORMATS:
        args.format = os.environ["SACREBLEU_FORMAT"].lower()
    _refuse(args)
    if args.sentence_level and len(args.metrics) > 1:
        raise SacrebleuError("Only one metric can be used in sentence-level mode.")
    if not args.refs:
        raise SacrebleuError("I need reference files, given before -i/--input (test sets need a download).")
    refs = read_references(args)
    systems = read_systems(args)
    if len(systems) > 1:
        raise SacrebleuError("several systems (a multi-system table, paired tests) are not supported yet (issue #14)")
    system = systems[0]
    if not system:
        raise SacrebleuError("Test set None contains no sentence")
    if any(len(stream) != len(system) for stream in refs):
        raise SacrebleuError("System and reference streams have different lengths.")

    language = args.language_pair.split("-")[1] if args.language_pair and "-" in args.language_pair else None
    tokenize = args.bleu_tokenize or LANGUAGE_TOKENIZERS.get(language or "", "13a")
    bleu_config = BleuConfig(
        tokenize=tokenize, smooth_method=args.bleu_smooth_method, smooth_value=args.bleu_smooth_value, lowercase=args.bleu_lowercase
    )
    config = ScoringConfig(metrics=frozenset(args.metrics), bleu=bleu_config, chrf=chrf_config(args), ter=ter_config(args))
    records = _records(config, [system, *refs])
    nrefs = len(refs)
    eff = args.sentence_level

    smooth = bleu_config.smooth_method
    if SMOOTH_DEFAULTS[smooth] is not None:
        value = bleu_config.smooth_value if bleu_config.smooth_value is not None else SMOOTH_DEFAULTS[smooth]
        smooth += f"[{value:.2f}]"
    info = {
        "BLEU": {"case": "lc" if bleu_config.lowercase else "mixed", "eff": eff, "tok": bleu_config.tokenizer.name, "smooth": smooth},
        "CHRF": {
            "case": "lc" if config.chrf.lowercase else "mixed",
            "eff": not config.chrf.eps_smoothing,
            "nc": config.chrf.char_order,
            "nw": config.chrf.word_order,
            "space": config.chrf.whitespace,
        },
        "TER": {
            "case": "mixed" if config.ter.case_sensitive else "lc",
            "tok": "tercom",
            "norm": config.ter.normalized,
            "punct": not config.ter.no_punct,
            "asian": config.ter.asian_support,
        },
    }

    def formatted(metric: str, stats, width_short: bool, is_json: bool) -> str:
        sig = signature(metric, info[metric], nrefs, width_short)
        if metric == "BLEU":
            s = bleu.score(stats, bleu_config, effective_order=eff)
            return format_score("BLEU", s.score, args.width, args.score_only, sig, is_json, _bleu_verbose(s))
        if metric == "CHRF":
            c = chrf.score(stats, config.chrf)
            return format_score(c.name, c.score, args.width, args.score_only, sig, is_json)
        return format_score("TER", ter.score(stats, nrefs).score, args.width, args.score_only, sig, is_json)

    names = sorted(m.upper() for m in args.metrics)
    field = {"BLEU": "bleu", "CHRF": "chrf", "TER": "ter"}
    if args.sentence_level:
        metric = names[0]
        for r in records:
            print(formatted(metric, getattr(r, field[metric]), args.short, False))
        return
    results = []
    for metric in names:
        column = [getattr(r, field[metric]) for r in records]
        totals = [sum(values) for values in zip(*column)]
        results.append(formatted(metric, totals, args.short if args.format != "json" else False, args.format == "json"))
    print_single_results(results, args.format)


def main(argv: Sequence[str]) -> int:
    args = build_parser().parse_args(argv)  # argparse exits 2 on a usage error, as sacreBLEU's does
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8")  # sacreBLEU writes UTF-8 whatever the locale
    try:
        run(args)
    except BrokenPipeError:
        # the reader went away (`| head`); point stdout at nothing so the exit flush is quiet
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + 13
    except (SacrebleuError, TokenizerUnavailable, OSError, UnicodeDecodeError, ValueError) as exc:
        print(f"sacreBLEU: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0
