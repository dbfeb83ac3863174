"""The scoring options, shared by the API and the command line: their names, defaults and validation.

Each option is named as the command line's (``--smooth-method`` is ``smooth_method``), so the CLI
hands its parsed arguments over as they are and a script reads the same names in ``--help``.
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any, Iterable, Sequence

from ..core import (
    METRICS,
    BleuConfig,
    ChrfConfig,
    FluencyConfig,
    RougeConfig,
    ScoringConfig,
    TerConfig,
)
from ..core.bleu import SMOOTH_DEFAULTS
from ..core.bleu_nltk import DEFAULT_WEIGHTS, NltkBleuConfig
from ..core.config import FLAVOUR_METRICS, ConfigError
from ..core.rouge155 import MULTI_REF, Rouge155Config, stopword_list
from ..core.tokenizers import implied_tokenizer, language_tokenizer
from ..core.wer_steps import WordMap, map_paths, word_map
from ..pairing_rules import language_problem, split_languages
from ..textfile import UnreadableText, read_text

PPL = "ppl"
ALL_METRICS = (*METRICS, *FLAVOUR_METRICS, PPL)
DEFAULT_METRICS = ("bleu", "rougeL", "wer")

# name: (default, accepted type); the command line's defaults are these
DEFAULTS: dict[str, tuple[Any, type | tuple[type, ...]]] = {
    "tokenize": (None, (str, type(None))),
    "language": (None, (str, type(None))),
    "lowercase": (False, bool),
    "smooth_method": ("exp", str),
    "smooth_value": (None, (int, float, type(None))),
    "max_ngram_order": (BleuConfig.max_ngram_order, int),
    "chrf_char_order": (ChrfConfig.char_order, int),
    "chrf_word_order": (ChrfConfig.word_order, int),
    "chrf_beta": (ChrfConfig.beta, int),
    "chrf_whitespace": (False, bool),
    "chrf_lowercase": (False, bool),
    "chrf_eps_smoothing": (False, bool),
    "rouge_tokenizer": (RougeConfig.tokenizer_name, str),
    "stem": (False, bool),
    "ter_case_sensitive": (False, bool),
    "ter_asian_support": (False, bool),
    "ter_no_punct": (False, bool),
    "ter_normalized": (False, bool),
    "wer_transform": ("default", str),
    "wer_rules": (None, (str, type(None))),  # None: jiwer's, or sclite's for sclite's files
    "sclite_case": ("ascii", str),
    "segmentation": ("line", str),
    "bleu_impl": ("sacrebleu", str),
    "bleu_weights": (None, (list, tuple, str, type(None))),  # NLTK's weights; None: 0.25 × 4
    "nltk_smoothing": (NltkBleuConfig.smoothing, int),
    "nltk_auto_reweigh": (False, bool),
    "rouge_impl": ("rouge-score", str),
    "rouge_w_weight": (1.2, (int, float)),
    "rouge_skip_gap": (4, int),
    "rouge_multi_ref": ("average", str),
    "rouge_stopwords": (None, (str, os.PathLike, type(None))),  # paths: a pathlib.Path too, kept as its str
    "lm": (None, (str, os.PathLike, type(None))),
    "lm_tokenize": (FluencyConfig.tokenize, str),
    "lm_outlier_z": (FluencyConfig.outlier_z, (int, float)),
}


class OptionError(ValueError):
    """A bad option: ``str()`` names it; :attr:`reason` is what is wrong with it."""

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(f"{option}: {reason}")
        self.option = option
        self.reason = reason


def metric_names(metrics: str | Iterable[str]) -> list[str]:
    """The metrics asked for, in order, without repeats: a sequence, or one comma-separated string."""
    if isinstance(metrics, str):
        names = metrics.split(",")
    elif isinstance(metrics, Iterable):
        names = list(metrics)
    else:  # None too: refused by name, as every bad option is
        raise OptionError("metrics", f"expected a metric's name, a comma list or a list of them, not {metrics!r}")
    found: list[str] = []
    for name in names:
        if not isinstance(name, str) or name not in ALL_METRICS:
            raise OptionError("metrics", f"unknown metric {name!r}; one of {', '.join(ALL_METRICS)}")
        if name not in found:
            found.append(name)
    if not found:
        raise OptionError("metrics", "no metric named")
    return found


def complete(options: dict[str, Any]) -> dict[str, Any]:
    """Every option, the given ones checked for name and type, the rest at their defaults."""
    given = {}
    for name, value in options.items():
        if name not in DEFAULTS:
            raise OptionError(name, f"unknown option; one of {', '.join(DEFAULTS)}")
        expected = DEFAULTS[name][1]
        value = _plain(value, _types(expected))
        # bool is an int to isinstance; an option that wants a number does not take True
        if not isinstance(value, expected) or (isinstance(value, bool) and expected is not bool and bool not in _types(expected)):
            raise OptionError(name, f"expected {_type_names(expected)}, not {value!r}")
        given[name] = os.fspath(value) if isinstance(value, os.PathLike) else value
    return {name: given.get(name, default) for name, (default, _) in DEFAULTS.items()}


def _plain(value: Any, types: tuple[type, ...]) -> Any:
    """NumPy's numbers (a sweep over ``np.arange``) as Python's int or float, where the option takes one."""
    if isinstance(value, (bool, int, float)) or not isinstance(value, numbers.Real):
        return value
    if int in types and isinstance(value, numbers.Integral):
        return int(value)
    return float(value) if float in types else value


def _types(expected: type | tuple[type, ...]) -> tuple[type, ...]:
    return expected if isinstance(expected, tuple) else (expected,)


def _type_names(expected: type | tuple[type, ...]) -> str:
    return " or ".join("None" if t is type(None) else t.__name__ for t in _types(expected))


def implied_tokenize(options: dict[str, Any], language: str | None) -> str | None:
    """The BLEU tokenizer a hypothesis's own language implies (the language its document declares
    or its name ends in; :func:`~scorelens.core.tokenizers.implied_tokenizer`), where neither
    ``tokenize`` nor ``language`` chose one; None where it implies none."""
    if options["tokenize"] is not None or options["language"] is not None:
        return None
    return implied_tokenizer(language)


def scoring_config(metrics: Iterable[str], options: dict[str, Any]) -> ScoringConfig:
    """What to compute and how, from the metrics and every option (see :func:`complete`)."""
    o = options
    check_impl_options(o)
    if o["language"] is not None and (problem := language_problem(o["language"])):
        raise OptionError("language", problem)
    if o["smooth_value"] is not None and not math.isfinite(o["smooth_value"]):  # sacreBLEU would score NaN
        raise OptionError("smooth_value", f"expected a finite number, not {o['smooth_value']!r}")
    tokenize = o["tokenize"] or language_tokenizer(split_languages(o["language"])[1])
    try:
        return _scoring_config(metrics, o, tokenize)
    except ConfigError as exc:  # options that do not go together
        raise OptionError(exc.field, str(exc)) from None


def _scoring_config(metrics: Iterable[str], o: dict[str, Any], tokenize: str) -> ScoringConfig:
    return ScoringConfig(
        metrics=frozenset(metrics) - {PPL},
        bleu=_made(
            BleuConfig,
            tokenize=("tokenize", tokenize or "13a"),
            smooth_method=("smooth_method", o["smooth_method"]),
            smooth_value=("smooth_value", o["smooth_value"]),
            lowercase=("lowercase", o["lowercase"]),
            max_ngram_order=("max_ngram_order", o["max_ngram_order"]),
        ),
        rouge=_made(RougeConfig, tokenizer_name=("rouge_tokenizer", o["rouge_tokenizer"]), stem=("stem", o["stem"])),
        chrf=chrf_config(o),
        ter=ter_config(o),
        wer_transform=o["wer_transform"],
        wer_word_maps=word_maps(o["wer_transform"]),
        wer_rules=o["wer_rules"] or "jiwer",
        sclite_case=o["sclite_case"],
        segmentation=o["segmentation"],
        bleu_impl=o["bleu_impl"],
        nltk_bleu=nltk_bleu_config(o, tokenize or "whitespace") if o["bleu_impl"] == "nltk" else NltkBleuConfig(),
        rouge_impl=o["rouge_impl"],
        rouge155=rouge155_config(o),
    )


# per implementation option, the options only some of its implementations take
IMPL_OPTIONS = {
    "bleu_impl": {
        "bleu_weights": ("nltk",),
        "nltk_smoothing": ("nltk",),
        "nltk_auto_reweigh": ("nltk",),
        "smooth_method": ("sacrebleu",),
        "smooth_value": ("sacrebleu",),
        "max_ngram_order": ("sacrebleu",),
    },
    "rouge_impl": {
        "rouge_tokenizer": ("rouge-score",),
        "stem": ("rouge-score", "rouge-1.5.5"),
        "rouge_w_weight": ("rouge-score", "rouge-1.5.5"),  # rouge-score's: for ROUGE-W/S/SU (core/rouge_wsu)
        "rouge_skip_gap": ("rouge-score", "rouge-1.5.5"),
        "rouge_multi_ref": ("rouge-1.5.5",),
        "rouge_stopwords": ("rouge-1.5.5",),
    },
}


def check_references(config: ScoringConfig, count: int) -> None:
    """A flavour that scores fewer references than given refuses them."""
    flavour = config.rouge_flavour
    if flavour is not None and flavour.max_references is not None and count > flavour.max_references:
        raise OptionError("rouge_impl", f"{config.rouge_impl!r} scores {flavour.max_references} reference per hypothesis, not {count}")


def check_impl_options(o: dict[str, Any]) -> None:
    """An option of another implementation than the one chosen is refused, not ignored."""
    for impl_option, takers in IMPL_OPTIONS.items():
        for name, impls in takers.items():
            if o[impl_option] not in impls and o[name] != DEFAULTS[name][0]:
                raise OptionError(name, f"is an option of {impl_option} {' or '.join(map(repr, impls))}, not of {o[impl_option]!r}")


def default_implementations(o: dict[str, Any], what: str) -> None:
    """A command whose figures come from the default implementations' per-segment formulas
    (compare's paired tests, agree's ranking) refuses another implementation; ``what`` says
    what it does with them (``compare tests``)."""
    for impl in IMPL_OPTIONS:
        if o[impl] != DEFAULTS[impl][0]:
            raise OptionError(impl, f"{what} the default implementation ({DEFAULTS[impl][0]}) only")


def rouge155_config(o: dict[str, Any]) -> Rouge155Config:
    """ROUGE-1.5.5's settings: -w, -2 (a negative gap: unlimited), -f A|B, -m and -s with the user's list."""
    if o["rouge_multi_ref"] not in MULTI_REF:
        raise OptionError("rouge_multi_ref", f"unknown value {o['rouge_multi_ref']!r}; one of {', '.join(MULTI_REF)}")
    weight = o["rouge_w_weight"]
    if not (math.isfinite(weight) and weight > 0):
        raise OptionError("rouge_w_weight", f"expected a number greater than 0, not {weight!r}")
    return Rouge155Config(
        w=str(weight),  # the script prints the weight as given: ROUGE-W-1.2
        skip=o["rouge_skip_gap"],
        mode=MULTI_REF[o["rouge_multi_ref"]],
        stem=o["stem"],
        stopwords=_stopwords(o["rouge_stopwords"]) if o["rouge_stopwords"] is not None else None,
    )


def word_maps(transform: str) -> tuple[WordMap, ...]:
    """The word maps of a WER transform's ``substitute:PATH`` steps, each path as written (relative
    to the working directory); a map that cannot be read, or has a bad line, is an OptionError."""
    found = []
    for path in dict.fromkeys(map_paths(transform)):
        try:
            found.append(word_map(read_text(path), path))
        except (UnreadableText, ValueError) as exc:
            raise OptionError("wer_transform", f"word map {exc}") from None
    return tuple(found)


def _stopwords(path: str) -> frozenset[str]:
    """The words of a stopword file, one a line (as ROUGE-1.5.5.pl reads its -s list)."""
    try:
        with open(path, encoding="utf-8") as f:
            return stopword_list(f.read())
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError("rouge_stopwords", f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def nltk_bleu_config(o: dict[str, Any], tokenize: str) -> NltkBleuConfig:
    """NLTK's BLEU: its weights, smoothing method and re-weighing; whitespace tokens unless named."""
    weights = bleu_weights(o["bleu_weights"]) if o["bleu_weights"] is not None else DEFAULT_WEIGHTS
    try:
        return _made(
            NltkBleuConfig,
            weights=("bleu_weights", tuple(weights)),
            smoothing=("nltk_smoothing", o["nltk_smoothing"]),
            auto_reweigh=("nltk_auto_reweigh", o["nltk_auto_reweigh"]),
            tokenize=("tokenize", tokenize),
            lowercase=("lowercase", o["lowercase"]),
        )
    except OptionError:  # one field's own error, named by _made (an OptionError is a ValueError)
        raise
    except ValueError as exc:  # fields that do not go together: method6's three orders
        raise OptionError("nltk_smoothing", str(exc)) from None


def bleu_weights(value: str | Sequence[float]) -> tuple[float, ...]:
    """NLTK's weights: finite numbers, as a list or as the command line writes them (``"1,0,0,0"``)."""
    if isinstance(value, str):
        try:
            value = [float(w) for w in value.split(",")]
        except ValueError:
            raise OptionError("bleu_weights", f"expected numbers separated by commas, not {value!r}") from None
    if not all(isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) for w in value):
        raise OptionError("bleu_weights", f"expected finite numbers, not {value!r}")
    return tuple(value)


def chrf_config(o: dict[str, Any]) -> ChrfConfig:
    """chrF's options, named as sacreBLEU's in both command lines (``score`` and ``sacrebleu``)."""
    return _made(
        ChrfConfig,
        char_order=("chrf_char_order", o["chrf_char_order"]),
        word_order=("chrf_word_order", o["chrf_word_order"]),
        beta=("chrf_beta", o["chrf_beta"]),
        lowercase=("chrf_lowercase", o["chrf_lowercase"]),
        whitespace=("chrf_whitespace", o["chrf_whitespace"]),
        eps_smoothing=("chrf_eps_smoothing", o["chrf_eps_smoothing"]),
    )


def ter_config(o: dict[str, Any]) -> TerConfig:
    """TER's options, named as sacreBLEU's in both command lines."""
    return TerConfig(
        normalized=o["ter_normalized"],
        no_punct=o["ter_no_punct"],
        asian_support=o["ter_asian_support"],
        case_sensitive=o["ter_case_sensitive"],
    )


def fluency_config(o: dict[str, Any]) -> FluencyConfig:
    if not math.isfinite(o["lm_outlier_z"]):
        raise OptionError("lm_outlier_z", f"expected a finite number, not {o['lm_outlier_z']!r}")
    return _made(FluencyConfig, tokenize=("lm_tokenize", o["lm_tokenize"]), outlier_z=("lm_outlier_z", o["lm_outlier_z"]))


def _made(cls, **fields: tuple[str, Any]):
    """``cls`` of the fields (each ``(option, value)``); a value the config refuses is an
    :class:`OptionError` naming its option, found by making the config of that field alone."""
    for field, (option, value) in fields.items():
        try:
            cls(**{field: value})
        except ValueError as exc:
            raise OptionError(option, str(exc)) from None
    return cls(**{field: value for field, (_, value) in fields.items()})


def check_choices(o: dict[str, Any]) -> None:
    """Choices the configs do not check themselves (the command line's argparse checks them too)."""
    from ..core import SEGMENTATIONS
    from ..core.config import WER_RULES, wer_transform
    from ..core.wer_sclite import FOLDS as SCLITE_CASES
    from ..core.flavours import BLEU_IMPLS, ROUGE_IMPLS
    from ..core.tokenizers import BLEU_TOKENIZERS

    for name, choices in (
        ("tokenize", (*BLEU_TOKENIZERS, None)),
        ("smooth_method", tuple(SMOOTH_DEFAULTS)),
        ("wer_rules", (*WER_RULES, None)),
        ("sclite_case", SCLITE_CASES),
        ("bleu_impl", BLEU_IMPLS),
        ("rouge_impl", ROUGE_IMPLS),
        ("segmentation", SEGMENTATIONS),
    ):
        if o[name] not in choices:
            shown = ", ".join(c for c in choices if c is not None)
            raise OptionError(name, f"unknown value {o[name]!r}; one of {shown}")
    try:
        wer_transform(o["wer_transform"])
    except (TypeError, ValueError) as e:
        raise OptionError("wer_transform", str(e)) from None
