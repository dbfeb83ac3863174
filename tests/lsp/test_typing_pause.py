"""When scorelens.typingPauseMs holds a burst of keystrokes: while an update is heavy for the
editor (the client holds HEAVY_MARKERS or more of the review's markers), whatever the document's
size (#39: a pair of exactly 10,000 lines was not held, and VS Code stalled there)."""

from __future__ import annotations

import pytest
from scorelens.core import Corpus
from scorelens.lsp.pairing import Pairing
from scorelens.lsp.reviews import HEAVY_MARKERS, Review
from scorelens.lsp.settings import parse, scoring_config

URI = "file:///w/p.hyp.txt"
REF = "file:///w/p.ref.txt"


def review_of(lines: int, pause_ms: int = 300) -> Review:
    settings, _ = parse({"typingPauseMs": pause_ms})
    review = Review(URI, Pairing(URI, (REF,), "test"), settings, scoring_config(settings), None)
    review.corpus = Corpus("the cat sat\n" * lines, ["the cat sat\n" * lines], review.config)
    return review


@pytest.mark.parametrize("lines", [10, 10_000, 10_001])
def test_many_markers_held_hold_typing_at_any_size(lines):
    review = review_of(lines)
    review.markers = {URI: HEAVY_MARKERS - 1, REF: 1}
    assert review.typing_pause() == pytest.approx(0.3)


@pytest.mark.parametrize("lines", [10, 10_000, 100_000])
def test_few_markers_held_do_not_hold_typing_at_any_size(lines):
    review = review_of(lines)
    review.markers = {URI: HEAVY_MARKERS - 1}
    assert review.typing_pause() == 0.0


def test_nothing_drawn_yet_holds_nothing():
    assert review_of(100).typing_pause() == 0.0


def test_a_pause_of_0_is_off_however_many_markers():
    review = review_of(100, pause_ms=0)
    review.markers = {URI: 10 * HEAVY_MARKERS}
    assert review.typing_pause() == 0.0
