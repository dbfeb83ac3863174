"""bench/server.py's other-clients part (after --keystrokes keystrokes) with the server under
wrapper.py, which logs when the inlay-hint requests are read, parsed, handled (drained, settled,
collected), answered and written, each event-loop step over 10 ms with its CPU time, and each
garbage collection; the client logs when it sent each hint request and read its first and last
bytes.

    PYTHONPATH=server .venv/bin/python bench/hint_trace/driver.py --lines 100000 --out /tmp/t.log
    python3 bench/hint_trace/show.py /tmp/t.log     # the first request's timeline
    python3 bench/hint_trace/steps.py /tmp/t.log    # the longest steps while warm hints were in flight

Used to trace the first whole-document answer's delays on 2026-11-26 (docs/performance-history.md, the server's scheduling).
"""
import asyncio, json, os, sys, time, argparse
from pathlib import Path
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import server as bench
bench.LOOP_STEPS = (HERE / "wrapper.py").read_text()
sends = []
req = bench.Wire.request
async def treq(self, method, params):
    t = time.perf_counter()
    if method == "textDocument/inlayHint":
        sends.append((t, "client-send-hint", self.next_id + 1))
        fut = self.starts.setdefault(self.next_id + 1, asyncio.get_running_loop().create_future())
        fut.add_done_callback(lambda _: sends.append((time.perf_counter(), "client-first-bytes")))
    r = await req(self, method, params)
    if method == "textDocument/inlayHint":
        sends.append((time.perf_counter(), "client-got-hint", self.sizes.get(self.next_id)))
    return r
bench.Wire.request = treq
async def main():
    p = argparse.ArgumentParser(); p.add_argument("--lines", type=int, default=100000); p.add_argument("--keystrokes", type=int, default=200); p.add_argument("--out")
    a = p.parse_args()
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["SCORELENS_TRACE"] = a.out
        r = await bench.drive(Path(tmp), a.lines, a.keystrokes, {}, 0, 0.05, only_others=True, loop_steps=True)
    open(a.out + ".windows", "w").write(json.dumps(r.pop("hint_windows", None)))
    print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in r.items()}))
    open(a.out + ".client", "w").write("\n".join(json.dumps(s) for s in sends))
asyncio.run(main())
