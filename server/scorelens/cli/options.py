"""The options the scoring commands share (``score``, ``check``, ``compare``), named as
sacreBLEU's command line names them, and their hand-over to the API under the same names."""

from __future__ import annotations

import argparse
import codecs
import math
import os
from typing import Any, Sequence

from ..api.options import ALL_METRICS, DEFAULT_METRICS, DEFAULTS, OptionError, bleu_weights
from ..api.compare import MAX_SAMPLES
from ..api.pool import available_cpus
from ..core import SEGMENTATIONS, WER_TRANSFORMS, ChrfConfig, FluencyConfig
from ..core.config import wer_transform
from ..core.bleu import SMOOTH_DEFAULTS
from ..core.config import WER_RULES
from ..core.corpus import POOL_MINIMUM
from ..core.wer_sclite import FOLDS as SCLITE_CASES
from ..core.flavours import BLEU_IMPLS, ROUGE_IMPLS
from ..core.tokenizers import BLEU_TOKENIZERS, ROUGE_TOKENIZERS
from ..formats import FORMAT_NAMES
from ..formats.pairing import PAIR_BY
from ..textfile import DEFAULT_MAX_BYTES


def _metric_list(value: str) -> list[str]:
    by_lower = {m.lower(): m for m in ALL_METRICS}
    names = [v.strip() for v in value.split(",") if v.strip()]
    if not names:
        raise argparse.ArgumentTypeError("no metric given")
    unknown = [n for n in names if n.lower() not in by_lower]
    if unknown:
        hint = " (a file? put -m after HYP)" if os.path.exists(unknown[0]) else ""
        raise argparse.ArgumentTypeError(f"unknown metric {unknown[0]!r}{hint}; choose from {','.join(ALL_METRICS)}")
    return list(dict.fromkeys(by_lower[n.lower()] for n in names))


def _wer_transform(value: str) -> str:
    try:
        return wer_transform(value)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


class _Metrics(argparse.Action):
    """``-m bleu,chrf``, ``-m bleu chrf`` (as sacreBLEU's) and ``-m bleu -m chrf`` all name the same
    metrics; the first use replaces the default list."""

    def __call__(self, parser, namespace, values, option_string=None):
        chosen = getattr(namespace, self.dest)
        chosen = [] if chosen is self.default else chosen
        for names in values:
            chosen += [n for n in names if n not in chosen]
        setattr(namespace, self.dest, chosen)


def _weights(value: str) -> tuple[float, ...]:
    try:
        return bleu_weights(value)
    except OptionError as exc:
        raise argparse.ArgumentTypeError(exc.reason) from None


def job_count(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more, got {value!r}")
    return int(value)


def _byte_count(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of bytes, 1 or more, got {value!r}")
    return int(value)


def _encoding(value: str) -> str:
    try:
        codecs.lookup(value)
    except LookupError:
        raise argparse.ArgumentTypeError(f"unknown encoding {value!r}") from None
    return value


def samples(value: str) -> int:
    if not value.isdigit() or int(value) > MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"expected a number of resamples or trials up to {MAX_SAMPLES:,}, got {value!r}")
    return int(value)


def segment_count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number of segments, 0 or more, got {value!r}")
    return int(value)


def finite(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"expected a finite number, got {value!r}")
    return number


def host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    return host.strip("[]") or "127.0.0.1", int(port)



def scoring_options(
    hypothesis: bool = True,
    references: bool = True,
    language_model: bool = True,
    metrics: Sequence[str] = DEFAULT_METRICS,
    metric_choices: Sequence[str] = ALL_METRICS,
) -> argparse.ArgumentParser:
    """Options shared by ``score``, ``check``, ``compare`` (which names its own files) and
    ``agree`` (whose files are each other's references, without a language model, by fewer
    metrics); BLEU's are named as sacreBLEU's CLI names them."""
    p = argparse.ArgumentParser(add_help=False)
    if hypothesis:
        p.add_argument(
            "hypothesis",
            metavar="HYP",
            nargs="?",
            help="hypothesis file, or - to read standard input (read from it too when HYP is left out and it is not a terminal)",
        )
    if references:
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
        default=list(metrics),
        metavar="LIST",
        help=f"comma- or space-separated, or -m repeated, from {','.join(metric_choices)} (default: {','.join(metrics)})",
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
        type=job_count,
        metavar="N",
        help=f"processes that score an input of {POOL_MINIMUM:,} segments or more "
        "(default: one per available CPU; 1 scores in this process only)",
    )
    p.add_argument(
        "-e",
        "--encoding",
        type=_encoding,
        default="utf-8",
        metavar="NAME",
        help="the files' encoding, as sacreBLEU's -e (default: utf-8)",
    )
    p.add_argument(
        "--max-file-bytes",
        type=_byte_count,
        default=DEFAULT_MAX_BYTES,
        metavar="N",
        help=f"refuse a file larger than N bytes, or holding more text when gzip-compressed (default: {DEFAULT_MAX_BYTES:,})",
    )

    formats = p.add_argument_group("formats (JSONL, TSV, CSV, SRT, WebVTT, XLIFF, PO, TMX, TRN, STM, CTM; docs/formats.md)")
    formats.add_argument(
        "--input-format",
        choices=FORMAT_NAMES,
        metavar="NAME",
        help=f"read every file named as NAME ({', '.join(FORMAT_NAMES)}); default: from each file's extension, plain text for others",
    )
    formats.add_argument(
        "--hyp-field",
        metavar="NAME",
        help="JSONL field (dotted path) or TSV/CSV column (header name or 1-based number) of the hypothesis, "
        "or a TMX hypothesis's target language (default: the first of prediction, hypothesis, hyp, output, translation, ...)",
    )
    if references:
        formats.add_argument(
            "--ref-field",
            action="append",
            metavar="NAME",
            help="a reference's field or column, repeated for several; a JSON list holds several references; "
            "a TMX reference's target language (default: reference, references, ref, target, ...)",
        )
    formats.add_argument("--id-field", metavar="NAME", help="the field or column of the ids records are paired by (default: id)")
    formats.add_argument(
        "--pair-by",
        choices=PAIR_BY,
        help="pair records by id (the default where both sides have ids), by position, or by time overlap (subtitles)",
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
        "and ko-mecab tokenizers when -tok is not given (default: the language the hypothesis's "
        "document declares or its name ends in, news.hyp.zh)",
    )
    bleu.add_argument("-lc", "--lowercase", action="store_true", help="lowercase BLEU (case:lc)")
    bleu.add_argument(
        "-s", "--smooth-method", choices=list(SMOOTH_DEFAULTS), default="exp", help="BLEU smoothing (default: exp)"
    )
    bleu.add_argument(
        "-sv",
        "--smooth-value",
        type=finite,
        metavar="X",
        help="value for floor (default 0.1) and add-k (default 1) smoothing",
    )
    bleu.add_argument("--max-ngram-order", type=int, default=4, metavar="N", help="BLEU's n-gram order (default: 4)")
    bleu.add_argument(
        "--bleu-impl",
        choices=BLEU_IMPLS,
        default="sacrebleu",
        help="sacreBLEU's BLEU (default), or NLTK's corpus_bleu/sentence_bleu (nltk: whitespace tokens unless -tok names one, "
        "case kept unless -lc; takes --bleu-weights, --nltk-smoothing, --nltk-auto-reweigh)",
    )
    bleu.add_argument(
        "--bleu-weights",
        type=_weights,
        metavar="W1,W2,...",
        help="NLTK's weights, one per n-gram order (default: 0.25,0.25,0.25,0.25; 1,0,0,0 is BLEU-1)",
    )
    bleu.add_argument(
        "--nltk-smoothing",
        type=int,
        choices=range(8),
        default=0,
        metavar="0-7",
        help="NLTK's SmoothingFunction().method0 ... method7 (default: 0, none: a zero precision gives a ~0 score and a note)",
    )
    bleu.add_argument(
        "--nltk-auto-reweigh", action="store_true", help="NLTK's auto_reweigh: uniform weights over the orders a hypothesis shorter than 4 has"
    )

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

    rouge = p.add_argument_group("ROUGE-1..9, ROUGE-L (as rouge-score, or --rouge-impl), ROUGE-W, -S, -SU (ROUGE-1.5.5's formulas)")
    rouge.add_argument(
        "--rouge-tokenizer",
        choices=list(ROUGE_TOKENIZERS),
        default="rouge-score",
        help="rouge-score's own (default; drops non-ASCII letters) or unicode (keeps every script)",
    )
    rouge.add_argument(
        "--stem", action="store_true", help="Porter-stem ROUGE tokens, as rouge-score's use_stemmer (ROUGE-1.5.5's -m with --rouge-impl rouge-1.5.5)"
    )
    rouge.add_argument(
        "--rouge-impl",
        choices=ROUGE_IMPLS,
        default="rouge-score",
        help="rouge-score's ROUGE (default); the PyPI rouge package's Rouge().get_scores(avg=True, ignore_empty=True) "
        "(rouge: rouge1-5, rougeL; one reference); or ROUGE-1.5.5.pl's (rouge-1.5.5: also rougeW, rougeS, rougeSU; "
        "a segment is a summary, its lines its sentences; the corpus figure is the script's printed average)",
    )
    rouge.add_argument(
        "--rouge-w-weight", type=finite, default=1.2, metavar="X", help="ROUGE-1.5.5's -w: ROUGE-W's weight (default: 1.2; also for ROUGE-W over rouge-score's tokens)"
    )
    rouge.add_argument(
        "--rouge-skip-gap",
        type=int,
        default=4,
        metavar="N",
        help="ROUGE-1.5.5's -2: ROUGE-S/SU's skip distance (default: 4, ROUGE-SU4; negative: unlimited, ROUGE-S*)",
    )
    rouge.add_argument(
        "--rouge-multi-ref",
        choices=("average", "best"),
        default="average",
        help="ROUGE-1.5.5's -f: several references averaged (default, -f A) or the best one (-f B)",
    )
    rouge.add_argument(
        "--rouge-stopwords",
        metavar="PATH",
        help="ROUGE-1.5.5's -s with this stopword list (one word a line; the script's own list, smart_common_words.txt, "
        "is not bundled: give its path)",
    )

    ter = p.add_argument_group("TER (as sacreBLEU)")
    ter.add_argument("--ter-case-sensitive", action="store_true", help="keep case (TER lowercases by default)")
    ter.add_argument("--ter-asian-support", action="store_true", help="split CJK characters (with --ter-normalized) and drop CJK punctuation (with --ter-no-punct)")
    ter.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    ter.add_argument("--ter-normalized", action="store_true", help="Tercom's normalisation: entities decoded, punctuation split off")

    if language_model:
        _language_model_options(p)
    _wer_options(p)
    return p


def _language_model_options(p: argparse.ArgumentParser) -> None:
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
        type=finite,
        default=FluencyConfig.outlier_z,
        metavar="X",
        help="a segment whose log perplexity has a modified z-score above X in its document is an "
        f"lm.unlikely finding (default: {FluencyConfig.outlier_z})",
    )


def _wer_options(p: argparse.ArgumentParser) -> None:
    wer = p.add_argument_group("WER and CER (as jiwer)")
    wer.add_argument(
        "--wer-transform",
        type=_wer_transform,
        metavar="{" + ",".join(WER_TRANSFORMS) + "} or STEP,STEP,…",
        default="default",
        help="jiwer's default transform, the same after lowercasing, jiwer's wer_contiguous / cer_contiguous (a segment's "
        "lines joined by a space, as with --segmentation paragraph|document always), or after Whisper's English or basic "
        "text normaliser (whisper-english, whisper-basic: as ASR leaderboards score; CER too)",
    )
    wer.add_argument(
        "--wer-rules",
        choices=WER_RULES,
        help="jiwer's alignment (the default), or NIST sclite's: case-insensitive, its costs and ties, "
        "{ a / b / @ } alternations (the default for TRN, STM and CTM files); sclite-optional is sclite -D: "
        "a word in parentheses may be left out without an error",
    )
    wer.add_argument(
        "--sclite-case",
        choices=SCLITE_CASES,
        default="ascii",
        metavar="TABLE",
        help="how sclite's rules fold case: ascii (its default: A-Z only), or the table of sclite -e utf-8 TABLE "
        f"({', '.join(c for c in SCLITE_CASES if c not in ('ascii', 'unicode', 'none'))}); unicode (every letter) and none are not sclite's",
    )


def api_options(args: argparse.Namespace) -> dict[str, Any]:
    """The API's options from the parsed arguments (the same names)."""
    return {name: getattr(args, name) for name in DEFAULTS if hasattr(args, name)}


def jobs(args: argparse.Namespace) -> int:
    """Scoring processes: ``-j``, or one per available CPU."""
    return args.jobs or available_cpus()
