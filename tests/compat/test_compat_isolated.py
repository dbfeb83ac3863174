"""The compat modules work without the peers: none of them imports sacreBLEU, jiwer or rouge-score."""

from __future__ import annotations

import subprocess
import sys

from peer_suites import ROOT

# the same calls on the compat modules (in a process where the peers cannot be imported) and on
# the peers themselves
CALLS = """
values = [
    sacrebleu.corpus_bleu(["a cat sat on the mat"], [["the cat sat on a mat"]]).score,
    sacrebleu.corpus_chrf(["a cat sat"], [["the cat sat"]]).score,
    sacrebleu.corpus_ter(["a cat sat"], [["the cat sat"]]).score,
    jiwer.wer("the cat sat", "a cat sat"),
    jiwer.process_characters("ab", "b").cer,
    rouge_scorer.RougeScorer(["rouge1", "rougeL"]).score("the cat sat", "a cat sat")["rougeL"].fmeasure,
]
"""
ISOLATED = f"""
import sys
for peer in ("sacrebleu", "jiwer", "rouge_score"):
    sys.modules[peer] = None  # any import of it now fails
from scorelens.compat import jiwer, sacrebleu
from scorelens.compat.rouge_score import rouge_scorer
{CALLS}
print(repr(values))
"""


def test_no_peer_is_imported():
    done = subprocess.run([sys.executable, "-c", ISOLATED], capture_output=True, text=True, env={"PYTHONPATH": str(ROOT / "server")})
    assert done.returncode == 0, done.stderr
    import jiwer
    import sacrebleu
    from rouge_score import rouge_scorer

    found: dict = {"sacrebleu": sacrebleu, "jiwer": jiwer, "rouge_scorer": rouge_scorer}
    exec(CALLS, found)
    assert done.stdout.strip() == repr(found["values"])
