"""The server under a tracer (run as ``python -c <this file>`` by driver.py): events to
$SCORELENS_TRACE and the loop's steps to $SCORELENS_LOOP_STEPS (bench/server.py's format) at exit."""
import asyncio, asyncio.events, atexit, gc, os, sys, time, json
P = time.perf_counter
events = []
steps = []
def ev(*a): events.append((P(),) + a)
run = asyncio.events.Handle._run
T = time.thread_time
def name(cb):
    task = getattr(cb, "__self__", None)
    coro = getattr(task, "get_coro", None)
    if coro is not None and coro() is not None:
        return coro().__qualname__
    return repr(cb)[:60]
def timed(self):
    s = P(); c = T()
    try:
        return run(self)
    finally:
        t = P() - s
        if t > 0.001:
            steps.append((s, t, T() - c))
        if t > 0.010:
            events.append((s, "step", round(t*1000, 1), round((T() - c)*1000, 1), name(self._callback)))
asyncio.events.Handle._run = timed
gcstart = {}
def gccb(phase, info):
    if phase == "start": gcstart["t"] = P()
    else:
        t = P() - gcstart.get("t", P())
        if info["generation"] == 2 or t > 0.005:
            events.append((gcstart["t"], "gc", info["generation"], round(t*1000, 1), info["collected"]))
gc.callbacks.append(gccb)
from scorelens.lsp import wire, protocol, writer, scheduler, inlay_hints as ih
read = wire.BoundedReader.read
def tread(self, n):
    d = read(self, n)
    if b'"inlayHint"' in d[:200] or b'textDocument/inlayHint' in d[:300]:
        ev("read-body-hint", n)
    elif n > 100000:
        ev("read-body-big", n)
    return d
wire.BoundedReader.read = tread
hm = protocol.ScoreLensProtocol.handle_message
def thm(self, m):
    meth = getattr(m, "method", None)
    if meth == "textDocument/inlayHint":
        ev("parsed-hint", m.id)
    elif meth == "textDocument/didChange":
        ev("parsed-change")
    return hm(self, m)
protocol.ScoreLensProtocol.handle_message = thm
def wrap_async(obj, name, label):
    f = getattr(obj, name)
    async def w(*a, **k):
        ev(label + "-begin")
        try:
            return await f(*a, **k)
        finally:
            ev(label + "-end")
    setattr(obj, name, w)
wrap_async(ih, "_answer", "answer")
wrap_async(scheduler.Scheduler, "settled", "settled")
wrap_async(writer.OrderedWriter, "drained", "drained")
col = ih._collect
async def tcol(ls, review, start, end, ticket, build_until):
    ev("collect-begin", build_until is not None, len(review.hints))
    r = await col(ls, review, start, end, ticket, build_until)
    ev("collect-end", None if r is None else (len(r[0]), r[1]), len(review.hints))
    return r
ih._collect = tcol
sr = protocol.ScoreLensProtocol._send_response
def tsr(self, msg_id, result=None, error=None):
    if isinstance(result, writer.RawResult):
        ev("send-hints", msg_id, len(result.items))
    return sr(self, msg_id, result, error)
protocol.ScoreLensProtocol._send_response = tsr
wq = writer.OrderedWriter._write_now
def twq(self, data):
    if len(data) > 100000: ev("write-begin", len(data))
    r = wq(self, data)
    if len(data) > 100000: ev("written-chunk", len(data))
    return r
writer.OrderedWriter._write_now = twq
pr = ih._prepare
async def tpr(ls, review):
    ev("prepare-begin", len(review.hints))
    try:
        return await pr(ls, review)
    finally:
        ev("prepare-end", len(review.hints))
ih._prepare = tpr
rs = scheduler.Scheduler._run
async def trs(self, review, delay):
    ev("rescore-begin", delay)
    try:
        return await rs(self, review, delay)
    finally:
        ev("rescore-end")
scheduler.Scheduler._run = trs
atexit.register(lambda: open(os.environ["SCORELENS_LOOP_STEPS"], "w").write("\n".join(f"{a} {b} {c}" for a, b, c in steps)))
atexit.register(lambda: open(os.environ["SCORELENS_TRACE"], "w").write("\n".join(json.dumps(e) for e in events)))
from scorelens.cli import main
sys.exit(main(["serve"]))
