// What the bigfile scenario measures besides wall time: the workbench's long tasks (the browser's
// own PerformanceObserver), where the workbench's main thread spends them (a CPU profile through the
// DevTools protocol) and the extension host's resident memory (from ps, in code-server's session).
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');

/** Starts collecting the page's long tasks (main-thread tasks over 50 ms) into a window global. */
async function watchLongTasks(page) {
  await page.evaluate(() => {
    if (window.__longTasks) return;
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longTasks.push({ start: Math.round(e.startTime), ms: Math.round(e.duration) });
    }).observe({ type: 'longtask' });
  });
}

/** The long tasks since the last call (and forgets them): count, longest, total, each over 100 ms. */
async function takeLongTasks(page) {
  const tasks = await page.evaluate(() => window.__longTasks.splice(0));
  return {
    count: tasks.length,
    longestMs: Math.max(0, ...tasks.map((t) => t.ms)),
    totalMs: tasks.reduce((a, t) => a + t.ms, 0),
    over100ms: tasks.filter((t) => t.ms > 100).map((t) => t.ms),
  };
}

/**
 * Runs `body` under the DevTools protocol's sampling profiler on the page's main thread (webviews
 * from the same site run on it too) and returns `body`'s value, the functions with the most self
 * time, the self time per script, and the WebSocket frames and bytes the page received and sent.
 * A built-in (a DOM call, `send`) is named with the script that called it, so
 * `replaceWith <- report.js` is the report's own rendering and `<- workbench.js` VS Code's.
 * A performance trace of the same time gives each long task with its time on a core
 * (`taskCpu`). With `saveAs` (a path without extension), the profile and the trace are written
 * there, `.cpuprofile` and `.trace.json`, for Chrome DevTools' Performance panel.
 */
async function profiled(page, body, { top = 15, saveAs } = {}) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  // what crosses the workbench's one connection to code-server: the extension host's messages
  // (markers, hints, webview posts) one way, the workbench's (edits, backups) the other
  const socket = { framesIn: 0, bytesIn: 0, framesOut: 0, bytesOut: 0 };
  const bytes = ({ opcode, payloadData }) => (opcode === 2 ? Math.floor((payloadData.length * 3) / 4) : Buffer.byteLength(payloadData));
  cdp.on('Network.webSocketFrameReceived', ({ response }) => { socket.framesIn++; socket.bytesIn += bytes(response); });
  cdp.on('Network.webSocketFrameSent', ({ response }) => { socket.framesOut++; socket.bytesOut += bytes(response); });
  await cdp.send('Network.enable');
  const events = [];
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  let value, profile;
  try {
    value = await body();
  } finally {
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await complete;
    if (saveAs) fs.writeFileSync(`${saveAs}.trace.json`, JSON.stringify(events));
    ({ profile } = await cdp.send('Profiler.stop'));
    if (saveAs) fs.writeFileSync(`${saveAs}.cpuprofile`, JSON.stringify(profile));
    await cdp.detach().catch(() => undefined);
  }
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const scriptOf = (url) => url.slice(url.lastIndexOf('/') + 1).replace(/\?.*$/, '') || '(inline)';
  /** The script of the nearest caller that has one. */
  const callerScript = (id) => {
    for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
      const url = byId.get(at).callFrame.url;
      if (url) return scriptOf(url);
    }
    return '(none)';
  };
  const selfMs = new Map();
  const scriptMs = new Map();
  const add = (map, key, ms) => map.set(key, (map.get(key) ?? 0) + ms);
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id).callFrame;
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const script = frame.url ? scriptOf(frame.url) : `<- ${callerScript(id)}`;
    add(selfMs, `${frame.functionName || '(anonymous)'} ${script}${frame.url ? `:${frame.lineNumber + 1}` : ''}`, ms);
    add(scriptMs, frame.url ? scriptOf(frame.url) : callerScript(id), ms);
  });
  const heaviest = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n).map(([what, ms]) => `${Math.round(ms)} ms ${what}`);
  // Who calls the three heaviest: their callers' chains (function script:line:column, four deep).
  const where = (f) => `${f.functionName || '(anonymous)'} ${scriptOf(f.url)}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
  const heavy = new Set(heaviest(selfMs, 3).map((line) => line.replace(/^\d+ ms /, '')));
  const chains = new Map();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id).callFrame;
    const script = frame.url ? scriptOf(frame.url) : `<- ${callerScript(id)}`;
    const key = `${frame.functionName || '(anonymous)'} ${script}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    if (!heavy.has(key)) return;
    const chain = [];
    for (let at = parent.get(id); at !== undefined && chain.length < 4; at = parent.get(at)) {
      const f = byId.get(at).callFrame;
      if (f.url) chain.push(where(f));
    }
    add(chains, `${key} <= ${chain.join(' <= ')}`, (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return { value, socket, hottest: heaviest(selfMs, top), byScript: heaviest(scriptMs, 8), callers: heaviest(chains, 8), taskCpu: taskCpu(events) };
}

/**
 * From a trace: each long task (over 50 ms) of a page's main thread, its wall time and the time
 * its thread had a core (`tdur`); the difference is time spent waiting for one. On this 2-core
 * machine most of a long task's wall time was such waiting (e.g. 146 ms with 28 ms on a core).
 */
function taskCpu(events) {
  const mainThreads = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events
    .filter((e) => e.name === 'RunTask' && e.dur > 50_000 && mainThreads.has(`${e.pid}:${e.tid}`))
    .map((e) => ({ wallMs: Math.round(e.dur / 1000), cpuMs: Math.round((e.tdur ?? 0) / 1000) }));
}

/** Pid and resident memory (MB) of code-server's extension host, the process that runs the extension. */
function extensionHost(session) {
  const hosts = execFileSync('ps', ['-s', String(session), '-o', 'pid=,rss=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => /extensionHost/.test(line));
  if (hosts.length !== 1) throw new Error(`expected one extension host in session ${session}, found ${hosts.length}`);
  const [pid, rss] = hosts[0].trim().split(/\s+/).map(Number);
  return { pid, rssMb: Math.round(rss / 1024) };
}

const extensionHostRssMb = (session) => extensionHost(session).rssMb;

/**
 * Tells apart memory the extension host still uses from garbage it has not collected: opens its
 * inspector (SIGUSR1, as `node --inspect` would), forces a full collection over the DevTools
 * protocol and returns the JS heap in use and the resident memory after it (MB).
 */
async function collectExtensionHostGarbage(session) {
  const { pid } = extensionHost(session);
  process.kill(pid, 'SIGUSR1');
  let port;
  for (let i = 0; i < 50 && !port; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const listening = execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' }).split('\n').find((l) => l.includes(`pid=${pid},`));
    port = listening && /127\.0\.0\.1:(\d+)/.exec(listening)?.[1];
  }
  if (!port) throw new Error(`the extension host (${pid}) opened no inspector`);
  const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => Object.assign(socket, { onopen: resolve, onerror: reject }));
  let id = 0;
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    pending.get(message.id)?.(message.result);
  };
  const call = (method, params = {}) => new Promise((resolve) => {
    pending.set(++id, resolve);
    socket.send(JSON.stringify({ id, method, params }));
  });
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  const { usedSize } = await call('Runtime.getHeapUsage');
  socket.close();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  return { heapUsedMb: Math.round(usedSize / 2 ** 20), rssMb: extensionHostRssMb(session) };
}

module.exports = { collectExtensionHostGarbage, extensionHostRssMb, profiled, takeLongTasks, watchLongTasks };
