"""The flavours' settings against the command line's options, without a server: whatever the
settings, the editor builds a config the core accepts (a clash gives way, said), and it is the
config ``scorelens score`` builds from the same choices."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from scorelens.api.options import complete
from scorelens.api.options import scoring_config as cli_config
from scorelens.core.bleu_nltk import DEFAULT_WEIGHTS
from scorelens.core.config import FLAVOUR_METRICS, METRICS
from scorelens.lsp.flavours import checked
from scorelens.lsp.settings import parse, scoring_config

RAW = st.fixed_dictionaries(
    {
        "metrics": st.lists(st.sampled_from([*METRICS, *FLAVOUR_METRICS]), min_size=1, max_size=5, unique=True),
        "segmentation": st.sampled_from(["line", "paragraph", "document"]),
        "bleu": st.fixed_dictionaries(
            {
                "impl": st.sampled_from(["sacrebleu", "nltk", "moses"]),
                "tokenize": st.sampled_from(["auto", "13a", "intl", "char", "none"]),
                "lowercase": st.booleans(),
                "maxNgramOrder": st.sampled_from([4, 2]),
                "smoothMethod": st.sampled_from(["exp", "floor"]),
                "weights": st.one_of(st.just([0.25] * 4), st.lists(st.sampled_from([0, 0.5, 1, 2.5]), max_size=5), st.just("1,0")),
            }
        ),
        "nltk": st.fixed_dictionaries({"smoothing": st.integers(-1, 8), "autoReweigh": st.sampled_from([False, True, "yes"])}),
        "rouge": st.fixed_dictionaries(
            {
                "impl": st.sampled_from(["rouge-score", "rouge", "rouge-1.5.5"]),
                "tokenizer": st.sampled_from(["rouge-score", "unicode"]),
                "stem": st.booleans(),
                "wWeight": st.sampled_from([1.2, 2, 0, -1, "w"]),
                "skipGap": st.sampled_from([4, 0, -1, 9, 1.5]),
                "multiRef": st.sampled_from(["average", "best", "worst"]),
            }
        ),
    }
)


def _options(s) -> dict:
    """The command line's options for the settings the editor scores with."""
    return complete(
        {
            "tokenize": None if s.bleu.tokenize == "auto" else s.bleu.tokenize,
            "lowercase": s.bleu.lowercase,
            "smooth_method": s.bleu.smooth_method,
            "max_ngram_order": s.bleu.max_ngram_order,
            "bleu_impl": s.bleu.impl,
            "bleu_weights": None if s.bleu.weights == DEFAULT_WEIGHTS else list(s.bleu.weights),
            "nltk_smoothing": s.nltk.smoothing,
            "nltk_auto_reweigh": s.nltk.auto_reweigh,
            "rouge_impl": s.rouge.impl,
            "rouge_tokenizer": s.rouge.tokenizer,
            "stem": s.rouge.stem,
            "rouge_w_weight": s.rouge.w_weight,
            "rouge_skip_gap": s.rouge.skip_gap,
            "rouge_multi_ref": s.rouge.multi_ref,
            "segmentation": s.segmentation,
        }
    )


@settings(max_examples=600, deadline=None)
@given(raw=RAW)
def test_any_settings_give_the_config_the_command_line_gives_for_what_is_kept(raw):
    parsed, problems = parse(raw)
    kept, clashes = checked(parsed)
    config = scoring_config(kept)  # never raises: what clashed gave way
    assert config == cli_config(kept.metrics, _options(kept))
    # each setting that gave way is said, by name
    for path in ("bleu.weights", "nltk.smoothing", "nltk.autoReweigh", "rouge.tokenizer", "rouge.stem", "rouge.wWeight", "rouge.skipGap", "rouge.multiRef"):
        family, key = path.split(".")
        if raw[family][key] != json.loads(json.dumps(_setting(kept, family, key))):
            assert any(f"scorelens.{path}" in p for p in problems + clashes), (path, problems, clashes)
    if set(raw["metrics"]) != set(kept.metrics):
        assert any(p.startswith("scorelens.metrics") for p in problems + clashes)


def _setting(s, family: str, key: str):
    name = "".join("_" + c.lower() if c.isupper() else c for c in key)
    value = getattr(getattr(s, family), name)
    return list(value) if isinstance(value, tuple) else value
