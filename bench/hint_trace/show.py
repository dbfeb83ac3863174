"""The timeline of the first inlay-hint request in a driver.py trace: show.py LOG [SECONDS BEFORE]."""
import json, sys
out = sys.argv[1]
ev = [json.loads(l) for l in open(out)] + [json.loads(l) for l in open(out + ".client")]
ev.sort(key=lambda e: e[0])
# show from 2 s before the first client hint send until the first answer received + 0.5
first = next(e[0] for e in ev if e[1] == "client-send-hint")
got = next(e[0] for e in ev if e[1] == "client-got-hint")
lo = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
for e in ev:
    if first - lo <= e[0] <= got + 0.3:
        print(f"{(e[0]-first)*1000:9.1f} ms", *e[1:])
