"""NumPy's AVX2 sort instead of its AVX-512 one on AMD Zen 4, for the command line's processes.

NumPy 2 sorts 32- and 64-bit numbers with x86-simd-sort, whose AVX-512 partition stores each
vector with a memory-destination compress, an instruction Zen 4 microcodes (about 100 cycles;
numpy/x86-simd-sort#6). There its AVX-512 sort of int64 is 4-5 times slower than its AVX2 sort,
and BLEU's, chrF's, ROUGE-N's and TER's matching sort n-gram keys: a command scores 10-25 % faster
with NumPy's AVX-512 targets turned off (OpenJDK turns off its AVX-512 sort on Zen 4 likewise).
Zen 4 is AMD's family 19h with AVX-512 (Zen 3, the family's other members, has none; Zen 5, family
1Ah, is fixed). NumPy reads ``NPY_DISABLE_CPU_FEATURES`` once, as it loads, so this is set before
that, and never over the user's own setting. The library leaves NumPy alone: a program that
imports it may have loaded NumPy already, and its other uses of NumPy are not ours to change.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from typing import MutableMapping

VARIABLE = "NPY_DISABLE_CPU_FEATURES"


def is_zen4(cpuinfo: str) -> bool:
    """Whether the first processor that ``/proc/cpuinfo``'s text describes is a Zen 4."""
    fields = {}
    for line in cpuinfo.splitlines():
        if not line.strip():
            break
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    return fields.get("vendor_id") == "AuthenticAMD" and fields.get("cpu family") == "25" and "avx512f" in fields.get("flags", "").split()


def avx512_targets(numpy_version: tuple[int, int]) -> str | None:
    """The value that turns off a NumPy version's AVX-512 targets (its names for them changed in
    2.4; a name a version does not know only warns), or None before 2.0, which had no AVX2 sort."""
    if numpy_version >= (2, 4):
        return "X86_V4 AVX512_ICL AVX512_SPR"
    if numpy_version >= (2, 0):
        return "AVX512F"  # the targets that need it go with it
    return None


def _numpy_version() -> tuple[int, int] | None:
    """The installed NumPy's (major, minor), read from its version module without loading NumPy."""
    spec = importlib.util.find_spec("numpy")
    if spec is None or spec.origin is None:
        return None
    try:
        found = re.search(r'^version\s*(?::\s*str\s*)?=\s*"(\d+)\.(\d+)', _read(os.path.join(os.path.dirname(spec.origin), "version.py")), re.M)
    except OSError:
        return None
    return (int(found[1]), int(found[2])) if found else None


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def prefer_avx2_sort(environ: MutableMapping[str, str] = os.environ, cpuinfo: str = "/proc/cpuinfo") -> None:
    """Sets ``NPY_DISABLE_CPU_FEATURES`` for NumPy not yet loaded on a Zen 4 (Linux tells)."""
    if VARIABLE in environ or "numpy" in sys.modules:
        return
    try:
        with open(cpuinfo, encoding="ascii", errors="replace") as f:
            first = f.read(8192)  # the first processor's lines
    except OSError:
        return
    if not is_zen4(first):
        return
    version = _numpy_version()
    value = avx512_targets(version) if version else None
    if value:
        environ[VARIABLE] = value
