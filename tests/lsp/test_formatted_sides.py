"""Formatted documents inside the server, without a client: pairing rules that say how documents
are read, and an edit handing the corpus only the records whose text changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scorelens.core import Corpus
from scorelens.lsp.formatted import UnreadableDocument, read_sides, update
from scorelens.lsp.pairing import HELD, Pairing, Pairings, ReadOptions, _read_config

URI = "file:///w/eval.jsonl"


def _jsonl(*predictions: str) -> str:
    return "\n".join(json.dumps({"id": str(k), "prediction": p, "reference": "the cat sat"}) for k, p in enumerate(predictions)) + "\n"


def test_an_edit_rescores_only_the_record_whose_text_changed():
    pairing = Pairing(URI, (URI,), HELD, held=True)
    readings: dict = {}
    sides = read_sides(pairing, {URI: _jsonl("the cat sat", "a cat sat", "the dog sat")}, readings)
    corpus = Corpus(sides.texts[0] + [""], [t + [""] for t in sides.texts[1:]])
    corpus.refresh()
    assert not corpus.dirty
    update(corpus, read_sides(pairing, {URI: _jsonl("the cat sat", "the cat sat", "the dog sat")}, readings))
    assert corpus.pending == 1
    corpus.refresh()
    assert corpus.texts_of(0) == ["the cat sat", "the cat sat", "the dog sat"]
    # a change outside the texts (an id) leaves every segment as it was
    moved = _jsonl("the cat sat", "the cat sat", "the dog sat").replace('"id": "0"', '"id": "zero"')
    update(corpus, read_sides(pairing, {URI: moved}, readings))
    assert not corpus.dirty


def test_a_record_spanning_lines_is_found_on_each_of_them():
    uri = "file:///w/a.hyp.srt"
    ref = "file:///w/a.ref.srt"
    hyp = "1\n00:00:01,000 --> 00:00:02,000\n<i>one</i>\ntwo\n\n2\n00:00:03,000 --> 00:00:04,000\nthree\n"
    sides = read_sides(Pairing(uri, (ref,), "test"), {uri: hyp, ref: hyp}, {})
    layout = sides.layouts[0]
    assert [layout.segment_at(line) for line in range(8)] == [0, 0, 0, 0, None, 1, 1, 1]
    assert layout.span(0, 0, 3) == ((2, 3), (2, 6))  # "one" inside <i>…</i>
    assert layout.position(0, 4) == (3, 0)  # "two", after the line break read as a space
    assert layout.line_count(0) == 4 and layout.id(1) == "2"


def _config(tmp_path: Path, body: str) -> tuple[list, list[str]]:
    (tmp_path / "scorelens.toml").write_text(body, encoding="utf-8")
    rules, _, problems = _read_config(tmp_path)
    return rules, problems


def test_a_pair_rule_says_how_its_documents_are_read(tmp_path):
    rules, problems = _config(
        tmp_path,
        '[[pair]]\nhypothesis = "*.jsonl"\nformat = "jsonl"\nhypothesis_field = "output"\n'
        'reference_fields = ["gold", "gold2"]\nid_field = "key"\npair_by = "position"\n',
    )
    assert not problems
    assert rules[0].read == ReadOptions("jsonl", "output", ("gold", "gold2"), "key", "position")
    pairings = Pairings()
    pairings.set_folders([tmp_path])
    uri = (tmp_path / "x.jsonl").as_uri()
    found = pairings.resolve(uri, lambda folder: ())
    assert found.held and found.references == (uri,) and found.read.hypothesis_field == "output"


@pytest.mark.parametrize(
    "entry, named",
    [
        ('format = "docx"', "format"),
        ('pair_by = "colour"', "pair_by"),
        ("hypothesis_field = 3", "hypothesis_field"),
        ('reference_fields = ["", "b"]', "reference_fields"),
        ('id_field = ""', "id_field"),
    ],
)
def test_a_bad_read_key_is_named_and_its_rule_ignored(tmp_path, entry, named):
    rules, problems = _config(tmp_path, f'[[pair]]\nhypothesis = "*.jsonl"\nreferences = ["{{stem}}.ref.jsonl"]\n{entry}\n')
    assert not rules
    [problem] = problems
    assert f"pair[0].{named}:" in problem


def test_a_jsonl_file_no_rule_pairs_holds_its_references(tmp_path):
    pairings = Pairings()
    pairings.set_folders([tmp_path])
    names = lambda folder: ()
    assert pairings.resolve((tmp_path / "eval.jsonl").as_uri(), names).held
    assert pairings.resolve((tmp_path / "eval.hyp.jsonl").as_uri(), names).held  # no NAME.ref.jsonl beside it
    assert pairings.resolve((tmp_path / "eval.ref.jsonl").as_uri(), names) is None
    assert pairings.resolve((tmp_path / "notes.txt").as_uri(), names) is None


def _tmx(*units: dict[str, str]) -> str:
    body = "".join(
        f'<tu tuid="{k}">' + "".join(f'<tuv xml:lang="{lang}"><seg>{t}</seg></tuv>' for lang, t in unit.items()) + "</tu>\n"
        for k, unit in enumerate(units)
    )
    return f'<tmx version="1.4">\n<header srclang="en"/>\n<body>\n{body}</body>\n</tmx>\n'


def test_a_tmx_of_several_target_languages_is_read_in_the_one_its_pair_names():
    hyp, ref = "file:///w/m.hyp.tmx", "file:///w/m.ref.tmx"
    text = _tmx({"en": "a dog", "de": "ein Hund", "fr": "un chien"}, {"en": "a cat", "de": "eine Katze", "fr": "un chat"})
    texts = {hyp: text, ref: text}
    with pytest.raises(UnreadableDocument) as caught:
        read_sides(Pairing(hyp, (ref,), "test"), texts, {})
    assert caught.value.uri == hyp
    assert str(caught.value).endswith(
        "m.hyp.tmx: line 4: which target language? units hold several besides their source: de, fr; "
        "name one with --hyp-field LANG (hypothesis_field in a [[pair]] of scorelens.toml)"
    )
    hypothesis_only = ReadOptions(hypothesis_field="fr")
    with pytest.raises(UnreadableDocument, match="reference_fields in a") as caught:
        read_sides(Pairing(hyp, (ref,), "test", read=hypothesis_only), texts, {})
    assert caught.value.uri == ref
    both = ReadOptions(hypothesis_field="fr", reference_fields=("fr",))
    sides = read_sides(Pairing(hyp, (ref,), "test", read=both), texts, {})
    assert sides.texts == [["un chien", "un chat"], ["un chien", "un chat"]]


def test_reference_fields_name_a_reference_documents_fields_not_ones_the_hypothesis_must_have():
    hyp, ref = "file:///w/h.jsonl", "file:///w/r.jsonl"
    texts = {hyp: '{"id": "1", "hyp": "a dog ran"}\n', ref: '{"id": "1", "gold": "a dog ran fast"}\n'}
    sides = read_sides(Pairing(hyp, (ref,), "test", read=ReadOptions(reference_fields=("gold",))), texts, {})
    assert sides.texts == [["a dog ran"], ["a dog ran fast"]]
