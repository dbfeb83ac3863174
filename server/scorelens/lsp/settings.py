"""The ``scorelens.*`` settings: typed, validated field by field, turned into a ScoringConfig.

An invalid value falls back to its default and is reported once by the caller; the rest of
the settings still apply.
"""

import json
import math
from dataclasses import replace
from pathlib import PurePosixPath
from typing import Any

import attrs
import cattrs

from ..core import METRICS, SEGMENTATIONS, BleuConfig, ChrfConfig, RougeConfig, ScoringConfig, TerConfig
from ..core.bleu import SMOOTH_DEFAULTS
from ..core.bleu_nltk import DEFAULT_WEIGHTS, SMOOTHING_METHODS, NltkBleuConfig
from ..core.config import FLAVOUR_METRICS, wer_transform
from ..core.wer_steps import WordMap
from ..core.flavours import BLEU_IMPLS, ROUGE_IMPLS
from ..core.rouge155 import MULTI_REF, Rouge155Config
from ..core.tokenizers import BLEU_TOKENIZERS, ROUGE_TOKENIZERS, implied_tokenizer, language_tokenizer
from ..core.wer_sclite import FOLDS as SCLITE_CASES
from ..textfile import DEFAULT_MAX_BYTES

SEVERITIES = ("error", "warning", "information", "hint", "off")
PPL = "ppl"  # fluency: scored apart from the corpus metrics (see .fluency)
_in = attrs.validators.in_


def _metrics(_instance, _attribute, value: tuple[str, ...]) -> None:
    unknown = [m for m in value if m not in (*METRICS, *FLAVOUR_METRICS, PPL)]
    if unknown:
        raise ValueError(f"unknown metric {unknown[0]!r}")


def _positive(_instance, _attribute, value: float) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"expected a positive number, not {value!r}")


def _weights(_instance, _attribute, value: tuple[float, ...]) -> None:
    if not value:
        raise ValueError("expected at least one weight")
    if not all(map(math.isfinite, value)):
        raise ValueError(f"expected finite numbers, not {list(value)!r}")


@attrs.frozen
class BleuSettings:
    impl: str = attrs.field(default="sacrebleu", validator=_in(BLEU_IMPLS))
    tokenize: str = attrs.field(default="auto", validator=_in(("auto", *BLEU_TOKENIZERS)))
    smooth_method: str = attrs.field(default="exp", validator=_in(tuple(SMOOTH_DEFAULTS)))
    smooth_value: float | None = None
    lowercase: bool = False
    max_ngram_order: int = attrs.field(default=4, validator=[attrs.validators.ge(1), attrs.validators.le(9)])
    weights: tuple[float, ...] = attrs.field(default=DEFAULT_WEIGHTS, validator=_weights)  # NLTK's


@attrs.frozen
class NltkSettings:
    """NLTK's BLEU (``scorelens.bleu.impl`` ``nltk``): ``SmoothingFunction().method<smoothing>``, ``auto_reweigh``."""

    smoothing: int = attrs.field(default=0, validator=_in(SMOOTHING_METHODS))
    auto_reweigh: bool = False


@attrs.frozen
class ChrfSettings:
    """sacreBLEU's ``CHRF`` options (``--chrf-*``)."""

    char_order: int = attrs.field(default=6, validator=[attrs.validators.ge(1), attrs.validators.le(9)])
    word_order: int = attrs.field(default=0, validator=[attrs.validators.ge(0), attrs.validators.le(9)])
    beta: int = attrs.field(default=2, validator=attrs.validators.ge(0))
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False


@attrs.frozen
class RougeSettings:
    impl: str = attrs.field(default="rouge-score", validator=_in(ROUGE_IMPLS))
    tokenizer: str = attrs.field(default="rouge-score", validator=_in(tuple(ROUGE_TOKENIZERS)))
    stem: bool = False
    # ROUGE-1.5.5's -w, -2, -f and -s (see .flavours for the stopword file)
    w_weight: float = attrs.field(default=1.2, validator=_positive)
    skip_gap: int = 4
    multi_ref: str = attrs.field(default="average", validator=_in(tuple(MULTI_REF)))
    stopwords: str | None = None


@attrs.frozen
class TerSettings:
    """sacreBLEU's TER options (its defaults replicate Tercom's)."""

    normalized: bool = False
    no_punct: bool = False
    asian_support: bool = False
    case_sensitive: bool = False


def _wer_transform(value: Any) -> None:
    """One of the named transforms or a comma list of jiwer's steps (core.config.wer_transform)."""
    if not isinstance(value, str):
        raise ValueError(f"expected a string, not {value!r}")
    wer_transform(value)


@attrs.frozen
class WerSettings:
    transform: str = attrs.field(default="default", validator=lambda _settings, _field, value: _wer_transform(value))
    sclite_case: str = attrs.field(default="ascii", validator=_in(SCLITE_CASES))  # TRN/STM/CTM: sclite -e utf-8 TABLE


@attrs.frozen
class LmSettings:
    model: str | None = None
    tokenize: str = attrs.field(default="none", validator=_in(tuple(BLEU_TOKENIZERS)))
    outlier_z: float = attrs.field(default=3.5, validator=_positive)


@attrs.frozen
class SeveritySettings:
    bleu: str = attrs.field(default="information", validator=_in(SEVERITIES))
    wer: str = attrs.field(default="information", validator=_in(SEVERITIES))
    rouge: str = attrs.field(default="hint", validator=_in(SEVERITIES))
    ter: str = attrs.field(default="information", validator=_in(SEVERITIES))
    lm: str = attrs.field(default="information", validator=_in(SEVERITIES))
    pairing: str = attrs.field(default="warning", validator=_in(SEVERITIES))


@attrs.frozen
class InlayHintSettings:
    line_scores: bool = True
    missing_words: bool = True
    substitutions: bool = True


def _qa_checks(_instance, _attribute, value: dict) -> None:
    from ..core.qa import CHECKS  # the QA checks load only when a source is paired

    for name, severity in value.items():
        if name not in CHECKS:
            raise ValueError(f"unknown check {name!r}; the checks are {', '.join(CHECKS)}")
        if severity not in SEVERITIES:
            raise ValueError(f"{name}: expected one of {', '.join(SEVERITIES)}, not {severity!r}")


def _language(_instance, _attribute, value: str | None) -> None:
    from ..pairing_rules import language_problem

    if value is not None and (problem := language_problem(value)):
        raise ValueError(problem)


@attrs.frozen
class QaSettings:
    """The source-aware checks (``qa.*`` findings) of a hypothesis with a source."""

    enabled: bool = True
    checks: dict[str, str] = attrs.field(factory=dict, validator=_qa_checks)  # severity or "off", over each check's default
    glossary: str | None = None  # a TSV or TBX file, resolved as scorelens.lm.model is
    language: str | None = attrs.field(default=None, validator=_language)  # "en-de", as sacreBLEU's -l; default: from the file names


@attrs.frozen
class Settings:
    metrics: tuple[str, ...] = attrs.field(default=("bleu", "rougeL", "wer"), validator=_metrics)
    bleu: BleuSettings = BleuSettings()
    nltk: NltkSettings = NltkSettings()
    chrf: ChrfSettings = ChrfSettings()
    rouge: RougeSettings = RougeSettings()
    ter: TerSettings = TerSettings()
    wer: WerSettings = WerSettings()
    lm: LmSettings = LmSettings()
    segmentation: str = attrs.field(default="line", validator=_in(SEGMENTATIONS))
    severity: SeveritySettings = SeveritySettings()
    max_problems: int = attrs.field(default=1000, validator=attrs.validators.ge(1))
    inlay_hints: InlayHintSettings = InlayHintSettings()
    qa: QaSettings = QaSettings()
    debounce_ms: int | None = attrs.field(default=None, validator=attrs.validators.optional(attrs.validators.ge(0)))
    typing_pause_ms: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    run: str = attrs.field(default="onType", validator=_in(("onType", "onSave")))
    allow_outside_workspace: bool = False
    max_file_bytes: int = attrs.field(default=DEFAULT_MAX_BYTES, validator=attrs.validators.ge(1))

    @property
    def fluency_only(self) -> bool:
        """Only ``ppl`` on: a document is checked alone, no references needed."""
        return set(self.metrics) == {PPL}


_converter = cattrs.Converter(forbid_extra_keys=True)


def _bool(value: Any, _type: type) -> bool:
    # cattrs would accept "false" as True; a setting must be a real JSON boolean
    if not isinstance(value, bool):
        raise ValueError(f"expected true or false, not {value!r}")
    return value


def _int(value: Any, _type: type) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, not {value!r}")
    return value


def _float(value: Any, _type: type) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected a number, not {value!r}")
    return float(value)


def _str(value: Any, _type: type) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, not {value!r}")
    return value


_converter.register_structure_hook(bool, _bool)
_converter.register_structure_hook(int, _int)
_converter.register_structure_hook(float, _float)
_converter.register_structure_hook(str, _str)


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _structure(cls: type, raw: Any, path: str, problems: list[str]) -> Any:
    """Build ``cls`` from a JSON object, keeping each valid field and defaulting the others."""
    if raw is None:
        return cls()
    if not isinstance(raw, dict):
        problems.append(f"{path} must be an object, not {raw!r}")
        return cls()
    values = {}
    for field in attrs.fields(cls):
        key = _camel(field.name)
        if key not in raw:
            continue
        value = raw[key]
        where = f"{path}.{key}"
        if attrs.has(field.type):
            values[field.name] = _structure(field.type, value, where, problems)
            continue
        try:
            values[field.name] = _converter.structure(value, field.type)
            if field.validator is not None:
                field.validator(None, field, values[field.name])
        except Exception as exc:
            values.pop(field.name, None)
            reason = exc.exceptions[0] if isinstance(exc, cattrs.BaseValidationError) and exc.exceptions else exc
            # the client wrote JSON: say the default as JSON too (null, not None)
            problems.append(f"{where}: {reason}; using the default {json.dumps(_default(field))}")
    return cls(**values)


def _default(field: attrs.Attribute) -> Any:
    return field.default.factory() if isinstance(field.default, attrs.Factory) else field.default


def settings_section(value: Any) -> dict:
    """The ``scorelens`` section from ``{"scorelens": {...}}``, or the bare section itself."""
    if not isinstance(value, dict):
        return {}
    section = value.get("scorelens", value)
    return section if isinstance(section, dict) else {}


def parse(raw: Any) -> tuple[Settings, list[str]]:
    """Settings from the client's ``scorelens`` section, and what was wrong with it."""
    problems: list[str] = []
    return _structure(Settings, raw, "scorelens", problems), problems


def language_of(path: str, language_id: str | None) -> str | None:
    """A target language that BLEU's tokenizer depends on, from the editor's language id or the
    file's extension (``news.hyp.zh``)."""
    for candidate in (language_id or "", PurePosixPath(path).suffix.lstrip(".")):
        if language_tokenizer(candidate) is not None:
            return candidate
    return None


def bleu_tokenizer_for(settings: Settings, language: str | None) -> str:
    """``auto`` picks the tokenizer sacreBLEU picks for the target language (for NLTK's BLEU, the
    command line's choice: that tokenizer where the language calls for one, else whitespace);
    ``char`` for Japanese and Korean without MeCab (:func:`~scorelens.core.tokenizers.implied_tokenizer`)."""
    if settings.bleu.tokenize != "auto":
        return settings.bleu.tokenize
    name = implied_tokenizer(language)
    if name is None:
        return "whitespace" if settings.bleu.impl == "nltk" else "13a"
    return name


def in_language(config: ScoringConfig, settings: Settings, language: str | None) -> ScoringConfig:
    """``config`` with BLEU's tokenizer as :func:`scoring_config` picks it for ``language``: a
    formatted document's declared target language, known once the document is read."""
    tokenize = bleu_tokenizer_for(settings, language)
    nltk = replace(config.nltk_bleu, tokenize=tokenize) if config.bleu_impl == "nltk" else config.nltk_bleu
    return replace(config, bleu=replace(config.bleu, tokenize=tokenize if tokenize != "whitespace" else "13a"), nltk_bleu=nltk)


def scoring_config(
    settings: Settings, language: str | None = None, stopwords: frozenset[str] | None = None, word_maps: tuple[WordMap, ...] = ()
) -> ScoringConfig:
    """The core's config of settings that go together (see :func:`.flavours.checked`); ``stopwords``
    are the words of ``scorelens.rouge.stopwords``, ``word_maps`` those of ``scorelens.wer.transform``'s
    ``substitute:`` steps, read by the caller."""
    tokenize = bleu_tokenizer_for(settings, language)
    bleu, nltk, rouge = settings.bleu, settings.nltk, settings.rouge
    return ScoringConfig(
        metrics=frozenset(settings.metrics) - {PPL},
        bleu=BleuConfig(
            tokenize=tokenize if tokenize != "whitespace" else "13a",  # (NLTK's own: its config has it)
            smooth_method=bleu.smooth_method,
            smooth_value=bleu.smooth_value,
            lowercase=bleu.lowercase,
            max_ngram_order=bleu.max_ngram_order,
        ),
        rouge=RougeConfig(tokenizer_name=rouge.tokenizer, stem=rouge.stem),
        chrf=ChrfConfig(**attrs.asdict(settings.chrf)),
        ter=TerConfig(**attrs.asdict(settings.ter)),
        wer_transform=settings.wer.transform,
        wer_word_maps=word_maps,
        sclite_case=settings.wer.sclite_case,
        segmentation=settings.segmentation,
        bleu_impl=bleu.impl,
        nltk_bleu=(
            NltkBleuConfig(bleu.weights, nltk.smoothing, nltk.auto_reweigh, tokenize, bleu.lowercase) if bleu.impl == "nltk" else NltkBleuConfig()
        ),
        rouge_impl=rouge.impl,
        # the weight as the command line has it (a float): the script prints it as given, ROUGE-W-1.2
        rouge155=Rouge155Config(w=str(rouge.w_weight), skip=rouge.skip_gap, mode=MULTI_REF[rouge.multi_ref], stem=rouge.stem, stopwords=stopwords),
    )
