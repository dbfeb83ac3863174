"""The command line turns NumPy's AVX-512 sort off on AMD Zen 4 (``scorelens.cli.numpy_sort``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy
import pytest

from cli_support import ROOT, sample
from scorelens.cli import numpy_sort
from scorelens.cli.numpy_sort import VARIABLE, avx512_targets, is_zen4, prefer_avx2_sort


def cpuinfo(vendor: str, family: int, flags: str) -> str:
    block = f"processor\t: 0\nvendor_id\t: {vendor}\ncpu family\t: {family}\nmodel\t\t: 17\nflags\t\t: fpu sse2 {flags} sse4_2\nbogomips\t: 5192.24\n"
    return block + "\n" + block.replace("processor\t: 0", "processor\t: 1")


ZEN4 = cpuinfo("AuthenticAMD", 25, "avx2 avx512f avx512dq")


@pytest.mark.parametrize(
    "text, expected",
    [
        (ZEN4, True),
        (cpuinfo("AuthenticAMD", 25, "avx2"), False),  # Zen 3: the same family, no AVX-512
        (cpuinfo("AuthenticAMD", 26, "avx2 avx512f"), False),  # Zen 5 stores compressed vectors fast
        (cpuinfo("GenuineIntel", 6, "avx2 avx512f"), False),
        ("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\nflags\t\t: avx512f\n", False),  # another processor's flags
        ("", False),
    ],
)
def test_zen4_is_amd_family_19h_with_avx512(text, expected):
    assert is_zen4(text) is expected


def test_the_targets_are_named_as_each_numpy_version_names_them():
    assert avx512_targets((2, 4)) == avx512_targets((3, 0)) == "X86_V4 AVX512_ICL AVX512_SPR"
    assert avx512_targets((2, 0)) == avx512_targets((2, 3)) == "AVX512F"
    assert avx512_targets((1, 26)) is None  # no AVX2 sort to fall back on


@pytest.fixture
def numpy_not_loaded(monkeypatch):
    monkeypatch.delitem(sys.modules, "numpy")
    monkeypatch.setattr(numpy_sort, "_numpy_version", lambda: (2, 4))


def test_set_on_zen4_only_and_never_over_the_users_setting(tmp_path: Path, numpy_not_loaded):
    zen4, intel = tmp_path / "zen4", tmp_path / "intel"
    zen4.write_text(ZEN4)
    intel.write_text(cpuinfo("GenuineIntel", 6, "avx2 avx512f"))
    environ: dict[str, str] = {}
    prefer_avx2_sort(environ, str(intel))
    assert environ == {}
    prefer_avx2_sort(environ, str(zen4))
    assert environ == {VARIABLE: "X86_V4 AVX512_ICL AVX512_SPR"}
    mine = {VARIABLE: "AVX512_SPR"}
    prefer_avx2_sort(mine, str(zen4))
    assert mine == {VARIABLE: "AVX512_SPR"}
    prefer_avx2_sort(environ := {}, str(tmp_path / "absent"))  # not Linux: nothing to tell
    assert environ == {}


def test_not_set_once_numpy_is_loaded(tmp_path: Path):
    assert "numpy" in sys.modules  # (this module imports it)
    (tmp_path / "zen4").write_text(ZEN4)
    environ: dict[str, str] = {}
    prefer_avx2_sort(environ, str(tmp_path / "zen4"))  # it would change nothing now, and leak to children
    assert environ == {}


def test_a_command_runs_with_numpy_accepting_the_setting():
    """In a fresh interpreter, the command sets the variable before NumPy loads, on this machine's
    processor: NumPy knows each name it is given (an unknown one warns) and turns its AVX-512 off."""
    program = f"""
import os, sys
from scorelens.cli import main
main(["score", {sample("mt/news.hyp.en")!r}, "-m", "bleu,chrf"])
import numpy
features = numpy._core._multiarray_umath.__cpu_features__
print(repr(os.environ.get({VARIABLE!r})), features.get("X86_V4", features.get("AVX512F")), file=sys.stderr)
"""
    env = {k: v for k, v in os.environ.items() if k != VARIABLE}
    done = subprocess.run([sys.executable, "-W", "error::ImportWarning", "-c", program], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    setting, avx512 = done.stderr.splitlines()[-1].rsplit(" ", 1)
    with open("/proc/cpuinfo") as f:
        zen4 = is_zen4(f.read())
    version = tuple(map(int, numpy.__version__.split(".")[:2]))
    expected = avx512_targets(version) if zen4 else None
    assert setting == repr(expected)
    if expected:
        assert avx512 == "False"
