"""Per driver.py trace: the first answer's time, the longest event-loop steps (wall ms, CPU ms,
what) while warm whole-document hints were in flight, and the collections then: steps.py LOG..."""
import json, sys
for out in sys.argv[1:]:
    ev = [json.loads(l) for l in open(out)]
    w = json.load(open(out + ".windows"))
    cl = [json.loads(l) for l in open(out + ".client")]
    inw = [e for e in ev if e[1] == "step" and any(a < e[0] + e[2]/1000 and e[0] < b for a, b in w)]
    inw.sort(key=lambda e: -e[2])
    gcs = [e for e in ev if e[1] == "gc" and any(a < e[0] and e[0] < b for a, b in w)]
    print(out, "cold", round(cl[1][0]-cl[0][0], 3), "top steps in warm windows (wall ms, cpu ms, what):", [e[2:] for e in inw[:4]], "gc in windows:", [e[2:4] for e in gcs if e[3] > 3][:6])
