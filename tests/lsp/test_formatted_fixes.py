"""Quick fixes in formatted documents, applied as the client applies them: the document stays
readable by its format and the hypothesis's text changes as the fix says, whatever sits around
the words (a CSV field quoted or not, inline markup of XLIFF and subtitles)."""

from __future__ import annotations

from lsp_support import diagnostics, open_doc, scores
from lsprotocol import types
from test_formatted import applied

from scorelens.formats import read


async def _fixed(client, name: str, hyp: str, ref: str | None = None) -> dict[str, tuple[list[str], str]]:
    """Each quick fix's line and title, and once it is applied the hypothesis's texts (the
    document read again by its format, and not a record of it lost) and the document."""
    folder = client.workspace / "fixes"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(hyp, encoding="utf-8")
    if ref is not None:
        (folder / name.replace(".hyp.", ".ref.")).write_text(ref, encoding="utf-8")
    fmt = name.rsplit(".", 1)[1]
    uri = open_doc(client, folder / name, fmt)
    await scores(client, uri, until=lambda p: p["scores"] is not None)
    fmt = {"xlf": "xliff"}.get(fmt, fmt)
    records = len(read(hyp, fmt).records)
    found: dict[str, tuple[list[str], str]] = {}
    for diag in await diagnostics(client, uri):
        if not diag.code.startswith("wer."):
            continue
        actions = await client.text_document_code_action_async(
            types.CodeActionParams(types.TextDocumentIdentifier(uri), diag.range, types.CodeActionContext(diagnostics=[diag]))
        )
        for action in actions:
            if isinstance(action, types.CodeAction) and action.edit is not None:
                fixed = applied(client, hyp, action.edit.changes[uri])
                reading = read(fixed, fmt)
                assert not reading.errors and len(reading.records) == records, (action.title, reading.errors)
                found[f"{diag.range.start.line}: {action.title}"] = ([r.text.text for r in reading.records], fixed)
    return found


async def test_a_fix_in_an_unquoted_csv_field_is_offered_only_where_the_field_can_hold_it(client):
    hyp = (
        "id,hypothesis,reference\n"
        '1,the price is 5 dollars,"the price is 5,000 dollars"\n'
        '2,"he said ""hi"" there",he said "yo" there\n'
        "3,it rained here,it rained ther\"e\n"
    )
    found = await _fixed(client, "prices.csv", hyp)
    # "5,000" cannot go into the unquoted field as it is: csv would split the field there
    assert "1: Replace with “5,000”" not in found and "1: Take the whole reference line" not in found
    # a quote goes into a quoted field doubled, and into an unquoted one as it is
    assert found["2: Replace with “\"yo\"”"][0][1] == 'he said "yo" there'
    assert found["3: Replace with “ther\"e”"][0][2] == 'it rained ther"e'


async def test_a_delete_fix_leaves_inline_markup_in_place(client):
    unit = '<trans-unit id="{}"><source>s</source><target>{}</target></trans-unit>\n'
    xliff = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
        '<file source-language="de" target-language="en" datatype="plaintext" original="x"><body>\n{}</body></file></xliff>\n'
    )
    hyp = xliff.format(unit.format(1, 'the <g id="1">big</g> cat sat') + unit.format(2, 'the cat <g id="2">sat</g>'))
    ref = xliff.format(unit.format(1, "the cat sat") + unit.format(2, "the cat"))
    found = await _fixed(client, "units.hyp.xlf", hyp, ref)
    # the word goes, its tags stay (with the spaces outside them: a double space scores as one)
    texts, document = found["2: Delete “big”"]
    assert [t.split() for t in texts] == [["the", "cat", "sat"], ["the", "cat", "sat"]] and '<g id="1"></g>' in document
    texts, document = found["3: Delete “sat”"]
    assert texts[1].split() == ["the", "cat"] and '<g id="2"></g>' in document
    texts, document = found["3: Take the whole reference line"]
    assert texts[1] == "the cat" and '<g id="2"></g>' in document

    cue = "{}\n00:00:0{},000 --> 00:00:0{},500\n{}\n"
    hyp = cue.format(1, 1, 1, "the <i>big</i> cat sat") + "\n" + cue.format(2, 2, 2, "<i>the dog</i> sat\non mat")
    ref = cue.format(1, 1, 1, "the cat sat") + "\n" + cue.format(2, 2, 2, "the cat sat on the mat")
    found = await _fixed(client, "film.hyp.srt", hyp, ref)
    texts, document = found["2: Delete “big”"]
    assert [t.split() for t in texts] == [["the", "cat", "sat"], ["the", "dog", "sat", "on", "mat"]]
    assert "<i></i>" in document  # the italics kept whole, not opened for the rest of the cue
    texts, document = found["6: Take the whole reference line"]
    assert texts[1] == "the cat sat on the mat" and document.count("</i>") == 2


async def test_a_ctm_fix_only_replaces_a_word(client):
    """A CTM word is a timed line of its own: a fix may replace the word, but deleting it (with
    the space that stands for the gap to the next line) or inserting words into its field, or
    into a segment that took none, would leave a line with another word's time, or a confidence
    that is not a number, or a word glued to another's."""
    folder = client.workspace / "fixes"
    folder.mkdir()
    (folder / "call.ref.stm").write_text(
        "call 1 a 0.00 2.00 thank you and can you help\ncall 1 b 2.10 2.40 bye\ncall 1 c 2.50 4.00 it is daniel\n", encoding="utf-8"
    )
    hyp = "".join(
        f"call 1 {start:.2f} 0.30 {word} 0.9\n"
        for start, word in ((0.1, "thank"), (0.5, "you"), (0.9, "can"), (1.3, "you"), (1.7, "halp"), (2.6, "uh"), (3.0, "it"), (3.4, "is"), (3.7, "daniel"))
    )
    found = await _fixed(client, "call.hyp.ctm", hyp)
    assert sorted(found) == ["4: Replace with “help”"], sorted(found)
    texts, document = found["4: Replace with “help”"]
    assert "call 1 1.70 0.30 help 0.9\n" in document and texts[4] == "help"
    # segment b took no word: what it misses is after the last word before it, not on its STM line
    [missing] = [d for d in await diagnostics(client, (folder / "call.hyp.ctm").as_uri()) if d.message.startswith('missing "bye"')]
    assert (missing.range.start.line, missing.range.start.character) == (4, len("call 1 1.70 0.30 halp"))


async def test_a_fix_into_a_cue_without_text_writes_a_text_line(client):
    """A cue without text is a place at the end of its timing line: a fix's words go on a line of
    their own after it, not onto the timings (where an SRT cue was lost and WebVTT read them as
    cue settings)."""
    for name, header, stamp in (("empty.hyp.srt", "", "00:00:01,000 --> 00:00:02,000"), ("empty.hyp.vtt", "WEBVTT\n\n", "00:00:01.000 --> 00:00:02.000")):
        cue = "1\n" + stamp + "\n{}\n"
        hyp = header + cue.format("").rstrip("\n") + "\n\n2\n" + stamp.replace("01", "03").replace("02", "04") + "\nbird sang\n"
        ref = header + cue.format("R&D cat") + "\n2\n" + stamp.replace("01", "03").replace("02", "04") + "\nthe bird sang\n"
        if name.endswith(".vtt"):
            ref = ref.replace("R&D", "R&amp;D")
        found = await _fixed(client, name, hyp, ref)
        line = 3 if header else 1
        for title in ("Insert “R&D cat”", "Take the whole reference line"):
            texts, document = found[f"{line}: {title}"]
            assert texts == ["R&D cat", "bird sang"], (name, title, document)
