"""Reading a file before any format reader sees it: codecs that are no text encodings, a Parquet
file, a FIFO nothing writes to; each one clear error, never a traceback nor an empty text."""

from __future__ import annotations

import gzip
import os

import pytest

from scorelens.cli import main
from scorelens.textfile import TooLarge, UnreadableText, decode, read_bytes, read_text

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")


@pytest.mark.parametrize("encoding", ["hex", "rot13", "base64", "zlib", "uu_codec"])
def test_a_codec_that_is_no_text_encoding_is_named(encoding):
    with pytest.raises(UnreadableText, match=rf"^h\.txt: '{encoding}' is not a text encoding"):
        decode("h.txt", b"a b\n", encoding)


def test_a_codec_that_names_no_byte_says_its_own_reason():
    with pytest.raises(UnreadableText, match=r"^h\.txt: not punycode: Invalid extended code point ' '$"):
        decode("h.txt", b"a b\n", "punycode")


def test_cli_names_a_codec_that_is_no_text_encoding(tmp_path, capsys):
    (tmp_path / "e.hyp.txt").write_text("a b\n")
    (tmp_path / "e.ref.txt").write_text("a b\n")
    assert main(["score", str(tmp_path / "e.hyp.txt"), "-e", "hex", "-m", "wer"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'hex' is not a text encoding" in err and "Traceback" not in err


def test_a_parquet_file_is_named_and_sent_to_dask():
    data = b"PAR1\x15\x04\x15\x10\x15\x14L\x15\x02\x15\x00\x00\x00\x00" + b"\x00" * 16 + b"PAR1"
    with pytest.raises(UnreadableText, match=r"^p\.parquet: a Parquet file, not text; .*--dask"):
        decode("p.parquet", data)
    with pytest.raises(UnreadableText, match="binary file"):  # text that starts so is not Parquet
        decode("h.txt", b"PAR2\x00")
    assert decode("h.txt", b"PAR1 is a word\n") == "PAR1 is a word\n"


@needs_fifo
def test_a_fifo_without_a_writer_is_refused_not_read_as_empty(tmp_path):
    fifo = tmp_path / "h.hyp.txt"
    os.mkfifo(fifo)
    with pytest.raises(UnreadableText, match=r"nothing to read from this FIFO or pipe: no writer had it open"):
        read_bytes(fifo, streams=True)
    with pytest.raises(UnreadableText, match="not a regular file"):  # where only files are read: never waited on
        read_bytes(fifo)


@needs_fifo
def test_a_fifo_written_to_is_read(tmp_path):
    fifo = tmp_path / "h.hyp.txt"
    os.mkfifo(fifo)
    # a reader held open lets the writer open and write without waiting; what it wrote stays in
    # the FIFO for the next reader
    held = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        writer = os.open(fifo, os.O_WRONLY)
        os.write(writer, b"a b c\n")
        os.close(writer)
        assert read_bytes(fifo, streams=True) == b"a b c\n"
    finally:
        os.close(held)


@needs_fifo
def test_cli_check_of_fifos_without_writers_fails(tmp_path, capsys):
    hyp, ref = tmp_path / "h.hyp.txt", tmp_path / "r.ref.txt"
    os.mkfifo(hyp)
    os.mkfifo(ref)
    assert main(["check", str(hyp), "-r", str(ref), "--max-wer", "0.1"]) == 2
    err = capsys.readouterr().err
    assert f"{hyp}: nothing to read from this FIFO or pipe" in err and "PASS" not in err


def test_gzip_is_read_decompressed_within_the_limit_whatever_it_holds(tmp_path):
    path = tmp_path / "h.txt.gz"
    path.write_bytes(gzip.compress("ünï\n".encode()) + gzip.compress(b"two\n") + b"\0\0")  # two members, zero padding
    assert read_text(path) == "ünï\ntwo\n"
    path.write_bytes(gzip.compress(b"a " * 600_000))  # 1.2 MB of text from 2 KB
    with pytest.raises(TooLarge, match=r"h\.txt\.gz \(decompressed\): larger than the limit of 1,000,000 bytes"):
        read_text(path, max_bytes=1_000_000)
    path.write_bytes(gzip.compress(b"a b c\n" * 1000)[:40])
    with pytest.raises(UnreadableText, match="gzip data that ends early"):
        read_text(path)
    path.write_bytes(b"\x1f\x8b\x08\x00" + b"\xff" * 20)
    with pytest.raises(UnreadableText, match="gzip data it cannot decompress"):
        read_text(path)


def test_cli_scores_gzip_files_as_sacrebleu_reads_them(tmp_path, capsys):
    (tmp_path / "e.hyp.jsonl.gz").write_bytes(gzip.compress(b'{"id": "1", "prediction": "a b c d"}\n'))
    (tmp_path / "e.ref.jsonl.gz").write_bytes(gzip.compress(b'{"id": "1", "reference": "a b x d"}\n'))
    assert main(["score", str(tmp_path / "e.hyp.jsonl.gz"), "-m", "wer", "--json"]) == 0
    assert '"substitutions": 1' in capsys.readouterr().out  # read as JSONL: its fields, not its braces
