"""``scorelens sacrebleu``: sacreBLEU 2.x's command line for local files, scored by ScoreLens.

Same arguments, same reading of the files (UTF-8, ``\\n`` line ends, each line right-stripped,
a leading U+FEFF kept), same output byte for byte (sacreBLEU 2.6.0's ``Score.format``,
``Signature.format``, ``print_single_results`` and, for several systems, ``print_results_table``
with its paired significance tests), except the signatures' ``version:``, which names ScoreLens.
Tables are printed without colours, as sacreBLEU prints them into a pipe or with ``--no-color``.
What needs a download (test sets, sentencepiece models) or is not done yet (confidence intervals
of one system) ends with a one-line error.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import os
import sys
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import Sequence

from .. import __version__
from ..api.options import chrf_config, ter_config
from ..api.pool import available_cpus, worker_pool
from ..core import bleu, chrf, ter
from ..core.bleu import SMOOTH_DEFAULTS, BleuConfig
from ..core.config import ScoringConfig
from ..core.corpus import POOL_CHUNK, POOL_MINIMUM
from ..core.segment import Record, score_texts
from ..core.tokenizers import LANGUAGE_TOKENIZERS, TokenizerUnavailable

EXIT_ERROR = 1  # as sacreBLEU exits on every error of this kind
VERSION = f"scorelens-{__version__}"

TOKENIZERS = ["none", "zh", "13a", "intl", "char", "ja-mecab", "ko-mecab", "spm", "flores101", "flores200"]
DOWNLOADED_TOKENIZERS = ("spm", "flores101", "flores200")
FORMATS = ["json", "text", "latex"]

# signature keys and their --short abbreviations, in sacreBLEU's order (version always last)
_COMMON_ABBR = {"nrefs": "#", "bs": "bs", "ar": "ar", "seed": "rs"}
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
    paired = p.add_mutually_exclusive_group()
    paired.add_argument("--paired-ar", "-par", action="store_true", help="several systems: paired approximate randomization")
    paired.add_argument("--paired-bs", "-pbs", action="store_true", help="several systems: paired bootstrap resampling")
    p.add_argument("--paired-ar-n", "-parn", type=int, default=10000)
    p.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000)
    p.add_argument("--paired-jobs", "-j", type=int, default=1, help="accepted; the tests run in one process")

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


def read_systems(args: argparse.Namespace) -> tuple[list[str], list[list[str]]]:
    """The systems' names (as sacreBLEU's tables show them) and lines."""
    paired = args.paired_bs or args.paired_ar
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
        if paired:
            return ["Baseline", *(f"System {i}" for i in range(1, len(systems)))], systems
        return [f"System {i}" for i in range(1, len(systems) + 1)], systems
    names: list[str] = []
    systems = []
    for path in args.input:
        if path in names:
            if paired and path == names[0]:
                continue  # sacreBLEU skips the baseline given again
            raise SacrebleuError(f"{path!r} already used to name a system. Make sure to have a different basename for each system.")
        with _open(path, args.encoding) as f:
            systems.append([line.rstrip() for line in f])
        names.append(path)
    if paired:
        names[0] = f"Baseline: {names[0]}"
    return names, systems


# -- sacreBLEU's formatting ------------------------------------------------------------------


def signature(metric: str, info: dict, nrefs: int, short: bool, test: Sequence[tuple[str, object]] = ()) -> str:
    """``Signature.format``: nrefs, a paired test's (``bs``/``ar`` and ``seed``), the metric's own
    keys, then the version."""
    abbr = {**_COMMON_ABBR, **_ABBR[metric], "version": "v"}
    pairs = [("nrefs", nrefs), *test, *info.items(), ("version", VERSION)]
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
    jobs = available_cpus()
    if jobs > 1 and len(columns[0]) >= POOL_MINIMUM:
        chunks = ([column[i : i + POOL_CHUNK] for column in columns] for i in range(0, len(columns[0]), POOL_CHUNK))
        with worker_pool(jobs) as pool_map:
            return list(chain.from_iterable(pool_map(partial(score_texts, config), chunks)))
    return list(score_texts(config, columns))


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
    names, systems = read_systems(args)
    paired = args.paired_bs or args.paired_ar
    if args.sentence_level and len(systems) > 1:
        raise SacrebleuError("Only one system can be evaluated in sentence-level mode.")
    if args.sentence_level and paired:
        raise SacrebleuError("Statistical tests are unavailable in sentence-level mode.")
    if paired and len(systems) == 1:
        raise SacrebleuError("Paired tests require multiple input systems given to --input (-i).")
    for system in systems:
        if not system:
            raise SacrebleuError("Test set None contains no sentence")
        if any(len(stream) != len(system) for stream in refs):
            raise SacrebleuError("System and reference streams have different lengths.")

    language = args.language_pair.split("-")[1] if args.language_pair and "-" in args.language_pair else None
    tokenize = args.bleu_tokenize or LANGUAGE_TOKENIZERS.get(language or "", "13a")
    bleu_config = BleuConfig(
        tokenize=tokenize, smooth_method=args.bleu_smooth_method, smooth_value=args.bleu_smooth_value, lowercase=args.bleu_lowercase
    )
    config = ScoringConfig(metrics=frozenset(args.metrics), bleu=bleu_config, chrf=chrf_config(vars(args)), ter=ter_config(vars(args)))
    scored = [_records(config, [system, *refs]) for system in systems]
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

    def formatted(metric: str, stats, width_short: bool, is_json: bool, score_only: bool = False) -> str:
        sig = signature(metric, info[metric], nrefs, width_short)
        score_only = score_only or args.score_only
        if metric == "BLEU":
            s = bleu.score(stats, bleu_config, effective_order=eff)
            return format_score("BLEU", s.score, args.width, score_only, sig, is_json, _bleu_verbose(s))
        if metric == "CHRF":
            c = chrf.score(stats, config.chrf)
            return format_score(c.name, c.score, args.width, score_only, sig, is_json)
        return format_score("TER", ter.score(stats, nrefs).score, args.width, score_only, sig, is_json)

    def totals(records: list[Record], metric: str) -> list:
        return [sum(values) for values in zip(*(getattr(r, metric.lower()) for r in records))]

    if len(systems) > 1:
        table = _paired_table if paired else _systems_table
        table(args, names, [_Scored(config, nrefs, r) for r in scored], info, nrefs, formatted, totals)
        return
    records = scored[0]
    metrics = sorted(m.upper() for m in args.metrics)
    if args.sentence_level:
        for r in records:
            print(formatted(metrics[0], getattr(r, metrics[0].lower()), args.short, False))
        return
    results = [formatted(m, totals(records, m), args.short if args.format != "json" else False, args.format == "json") for m in metrics]
    print_single_results(results, args.format)


# -- several systems: sacreBLEU's multi-system table, with or without paired tests -----------------


@dataclass(frozen=True)
class _Scored:
    """One system's records as the significance tests read them."""

    config: ScoringConfig
    references: int
    records: list[Record]

    def __len__(self) -> int:
        return len(self.records)

    def segment_statistics(self, metric: str) -> list[tuple]:
        return [getattr(r, metric) for r in self.records]


def _score_name(metric: str, config: ScoringConfig) -> str:
    """The score's name, a table's column: ``chrF2``, ``chrF2++`` as :attr:`chrf.ChrfScore.name`."""
    return f"chrF{config.chrf.beta}" + "+" * config.chrf.word_order if metric == "CHRF" else metric


def _systems_table(args, names, systems: list[_Scored], info, nrefs, formatted, totals) -> None:
    """Each system's scores, one column per metric (sorted, as sacreBLEU's)."""
    metrics = sorted(m.upper() for m in args.metrics)
    config = systems[0].config
    columns = {_score_name(m, config): [formatted(m, totals(s.records, m), args.short, False, score_only=True) for s in systems] for m in metrics}
    signatures = {_score_name(m, config): signature(m, info[m], nrefs, args.short) for m in metrics}
    if args.format == "json":
        rows = [{"system": name, **{k: v[i] for k, v in columns.items()}} for i, name in enumerate(names)]
        print(json.dumps(rows, indent=4))
        return
    _print_table(args, {"System": names, **columns})
    _print_signatures(signatures)


def _paired_table(args, names, systems: list[_Scored], info, nrefs, formatted, totals) -> None:
    """sacreBLEU's ``PairedTest`` results: the metrics in the order given, the baseline first."""
    from ..core import significance

    test = "bs" if args.paired_bs else "ar"
    requested = args.paired_bs_n if args.paired_bs else args.paired_ar_n
    seed = significance.seed_from(os.environ.get("SACREBLEU_SEED"))
    metrics = list(dict.fromkeys(m.upper() for m in args.metrics))
    comparison = significance.paired_test(systems, [m.lower() for m in metrics], test, requested, seed)
    config = systems[0].config
    width = args.width
    columns: dict[str, list[str]] = {}
    signatures = {}
    bootstrap = False
    for m in metrics:
        cells = []
        for r in (result[m.lower()] for result in comparison.results):
            cell = f"{r.score:.{width}f}"
            if r.mean is not None:
                bootstrap = True
                cell += f" ({r.mean:.{width}f} ± {r.ci:.{width}f})"
            if r.p_value is not None:
                # the p-value on a line of its own in the text table; marked when significant
                cell += ("\n" if args.format == "text" else " ") + f"(p = {r.p_value:.4f})" + ("" if r.p_value > 0.05 else "*")
            cells.append(cell)
        name = _score_name(m, config)
        # sacreBLEU's flag stays set for every later metric once one had a mean
        columns[name + (" (μ ± 95% CI)" if bootstrap else "")] = cells
        test_keys = [(test, comparison.n), ("seed", str(seed).lower())]
        signatures[name] = signature(m, info[m], nrefs, args.short, test_keys)
    if args.format == "json":
        rows = []
        for i, name in enumerate(names):
            row: dict = {"system": name}
            for m in metrics:
                r = comparison.results[i][m.lower()]
                row[_score_name(m, config)] = {"score": r.score, "p_value": r.p_value, "mean": r.mean, "ci": r.ci}
            rows.append(row)
        print(json.dumps(rows, indent=4))
        return
    _print_table(args, {"System": names, **columns})
    kind, unit = ("bootstrap resampling", "resampling trials") if args.paired_bs else ("approximate randomization", "trials")
    message = f"Paired {kind} test with {requested} {unit}"
    estimates = (
        "Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if args.paired_bs
        else "Actual system score is provided for each metric."
    )
    print("-" * len(message) + "\n" + message + "\n" + "-" * len(message))
    # sacreBLEU names the baseline only when it is a file's ("Baseline: PATH"; standard input's is "Baseline")
    baseline = names[0] if names[0].startswith("Baseline:") else ""
    print(_PAIRED_EXPLANATION.format(baseline=baseline, estimates=estimates))
    _print_signatures(signatures)


_PAIRED_EXPLANATION = """\
 - Each system is pairwise compared to {baseline}.
   {estimates}

 - Null hypothesis: the system and the baseline translations are essentially
   generated by the same underlying process. For a given system and the baseline,
   the p-value is roughly the probability of the absolute score difference (delta)
   or higher occurring due to chance, under the assumption that the null hypothesis is correct.

 - Assuming a significance threshold of 0.05, the null hypothesis can be rejected
   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed
   to chance, hence the system is significantly "different" than the baseline.
   Otherwise, the p-values are highlighted in red.

 - NOTE: Significance does not tell whether a system is "better" than the baseline but rather
   emphasizes the "difference" of the systems in terms of the replicability of the delta.
"""


def _print_signatures(signatures: dict[str, str]) -> None:
    print("-----------------\nMetric signatures\n-----------------")
    for name, sig in signatures.items():
        print(f" - {name:<10} {sig}")


# tabulate's fancy_grid and latex_booktabs, as sacreBLEU calls them: the first column right-aligned,
# the rest centred (Python's centring: the odd space on the right), each column as wide as its
# widest line or its header plus 2, one space of padding; numeric cells come back unchanged
# (sacreBLEU formatted them with the table's own precision)
_LATEX_ESCAPES = {
    "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "^": r"\^{}", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "\\": r"\textbackslash{}", "<": r"\ensuremath{<}", ">": r"\ensuremath{>}",
}


def _print_table(args: argparse.Namespace, columns: dict[str, list[str]]) -> None:
    headers = list(columns)
    cells = [[[line.strip() for line in c.split("\n")] for c in column] for column in columns.values()]
    widths = [max(len(h) + 2, *(len(line) for c in column for line in c)) for h, column in zip(headers, cells)]

    def aligned(k: int, text: str) -> str:
        return f"{text:>{widths[k]}}" if k == 0 else f"{text:^{widths[k]}}"

    rows = list(zip(*cells))
    if args.format == "latex":
        def latex_row(texts: Sequence[str]) -> str:
            return "&".join("".join(_LATEX_ESCAPES.get(ch, ch) for ch in f" {aligned(k, t)} ") for k, t in enumerate(texts)) + "\\\\"

        lines = ["\\begin{tabular}{" + "r" + "c" * (len(headers) - 1) + "}", "\\toprule", latex_row(headers), "\\midrule"]
        lines += [latex_row([c[0] for c in row]) for row in rows]
        lines += ["\\bottomrule", "\\end{tabular}"]
    else:
        def rule(left: str, fill: str, cross: str, right: str) -> str:
            return left + cross.join(fill * (w + 2) for w in widths) + right

        def row_lines(texts: Sequence[Sequence[str]]) -> list[str]:
            height = max(len(t) for t in texts)
            padded = [[aligned(k, line) for line in t] + [" " * widths[k]] * (height - len(t)) for k, t in enumerate(texts)]
            return ["│" + "│".join(f" {p[i]} " for p in padded) + "│" for i in range(height)]

        lines = [rule("╒", "═", "╤", "╕"), *row_lines([[h] for h in headers]), rule("╞", "═", "╪", "╡")]
        for i, row in enumerate(rows):
            if i:
                lines.append(rule("├", "─", "┼", "┤"))
            lines += row_lines(row)
        lines.append(rule("╘", "═", "╧", "╛"))
    print("\n".join(lines))
    print()


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
        print(f"sacreBLEU: {getattr(exc, 'reason', exc)}", file=sys.stderr)  # an OptionError's reason alone
        return EXIT_ERROR
    return 0
