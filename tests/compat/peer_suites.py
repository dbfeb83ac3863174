"""The peers' own test suites, run against ScoreLens's compat modules.

Each peer's source distribution is fetched from PyPI with pip (cached under
``.cache/peer-suites/``), its test files are extracted, and pytest runs them in a subprocess
whose ``sys.path`` starts with a shim directory: ``import sacrebleu`` (``jiwer``,
``rouge_score``) there gives ``scorelens.compat.sacrebleu`` and its submodules, never the peer.
The outcome of every test comes back by node id (``peer_report.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CACHE = ROOT / ".cache" / "peer-suites"
SHARED = ROOT.parent / "shared" / "data"
# a suite's run is cut after this long (each takes well under a minute on 2 cores)
RUN_TIMEOUT = 240
DOWNLOAD_TIMEOUT = 240


@dataclass(frozen=True)
class Peer:
    """A peer and where its suite lives in its source distribution."""

    name: str  # import name
    distribution: str
    version: str
    compat: str  # the compat module its name resolves to
    tests: str  # folder of the test files in the source distribution
    suffix: str  # what the test files' names end with
    # modules of the suite a test imports from the peer's package (name -> file)
    helpers: dict[str, str] = field(default_factory=dict)
    # files of the suite besides the tests (data it reads)
    extra: tuple[str, ...] = ()
    # a link the suite reads its data through -> a folder under ../shared/data
    shared_data: tuple[str, str] | None = None

    @property
    def archive(self) -> Path:
        return CACHE / f"{self.distribution.replace('-', '_')}-{self.version}.tar.gz"

    @property
    def suite(self) -> Path:
        return CACHE / f"{self.name}-{self.version}"

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}"


PEERS = {
    "sacrebleu": Peer(
        "sacrebleu", "sacrebleu", "2.6.0", "scorelens.compat.sacrebleu", "test", ".py", extra=("wmt17_en_de_systems.pkl.bz2",)
    ),
    "jiwer": Peer("jiwer", "jiwer", "4.0.0", "scorelens.compat.jiwer", "tests", ".py"),
    # rouge-score keeps its tests inside its package: they are extracted to tests/, without it
    "rouge_score": Peer(
        "rouge_score",
        "rouge-score",
        "0.1.2",
        "scorelens.compat.rouge_score",
        "rouge_score",
        "_test.py",
        helpers={"test_util": "test_util.py"},
        shared_data=("testdata", "google-rouge-testdata"),
    ),
}


class Unreachable(RuntimeError):
    """PyPI could not be reached for a source distribution."""


def download(peers: list[Peer]) -> None:
    """Fetch the source distributions not cached yet, in parallel; Unreachable if pip fails."""
    missing = [p for p in peers if not p.archive.exists()]
    CACHE.mkdir(parents=True, exist_ok=True)
    runs = [
        (
            p,
            subprocess.Popen(
                [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps", "--disable-pip-version-check",
                 "--retries", "1", "--timeout", "20", "-q", "-d", str(CACHE), p.requirement],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            ),
        )
        for p in missing
    ]
    failures = []
    for p, run in runs:
        try:
            output, _ = run.communicate(timeout=DOWNLOAD_TIMEOUT)
        except subprocess.TimeoutExpired:
            run.kill()
            output = f"no answer in {DOWNLOAD_TIMEOUT} s"
        if run.returncode or not p.archive.exists():
            failures.append(f"{p.requirement}: {output.strip()[-500:]}")
    if failures:
        raise Unreachable("pip download of the peers' source distributions failed:\n" + "\n".join(failures))


def extract(peer: Peer) -> Path:
    """The suite's folder: its test files (and helpers, data) from the source distribution,
    an empty pytest.ini (so no outer configuration applies) and the shim."""
    # rouge-score's tests are extracted to a plain folder: named after the package, it would
    # shadow the shim
    tests = peer.suite / ("tests" if peer.tests == peer.name else peer.tests)
    if not tests.exists():
        prefix = f"{peer.archive.name.removesuffix('.tar.gz')}/{peer.tests}/"
        wanted = {*peer.helpers.values(), *peer.extra}
        with tarfile.open(peer.archive) as archive:
            for member in archive.getmembers():
                name = member.name.removeprefix(prefix)
                if member.name.startswith(prefix) and "/" not in name and (name.endswith(peer.suffix) or name in wanted):
                    member.name = name
                    archive.extract(member, tests, filter="data")
    (peer.suite / "pytest.ini").write_text("[pytest]\n")
    _write_shim(peer, tests)
    return tests


def _write_shim(peer: Peer, tests: Path) -> None:
    package = peer.suite / "shim" / peer.name
    package.mkdir(parents=True, exist_ok=True)
    helpers = {module: str(tests / file) for module, file in peer.helpers.items()}
    (package / "__init__.py").write_text(
        "# generated by tests/compat/peer_suites.py: this name is ScoreLens's compat module\n"
        "from peer_shim import alias\n\n"
        f"alias(__name__, {peer.compat!r}, {helpers!r})\n"
    )


def link_shared_data(peer: Peer, tests: Path) -> Path | None:
    """Point the suite's data link at ``../shared/data``; the folder, or None when it is absent."""
    if peer.shared_data is None:
        return None
    link, folder = peer.shared_data
    target = SHARED / folder
    if not target.is_dir():
        return None
    path = tests / link
    if not path.is_symlink():
        path.symlink_to(target, target_is_directory=True)
    return target


def run(peer: Peer, tests: Path) -> dict[str, str]:
    """Every test's outcome (``passed``, ``failed``, ``skipped``) by node id, a module that
    could not be collected counting as one failed id."""
    report = peer.suite / "report.json"
    report.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(peer.suite / "shim"), str(ROOT / "server"), str(HERE)]),
        "PEER_REPORT": str(report),
    }
    env.pop("SACREBLEU_SEED", None)
    command = [
        sys.executable, "-m", "pytest", "-p", "peer_report", "-p", "no:cacheprovider",
        "-c", str(peer.suite / "pytest.ini"), "--rootdir", str(peer.suite), "-q", "--no-header", "--continue-on-collection-errors",
        str(tests.relative_to(peer.suite)),
    ]
    done = subprocess.run(command, cwd=peer.suite, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    if not report.exists():
        raise RuntimeError(f"the {peer.name} suite wrote no report:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return json.loads(report.read_text(encoding="utf-8"))
