#!/usr/bin/env python3
"""Records cases.json from cases.src.json with ../shared/oracle/snapshot-oracle
(FORM_PACKAGE_CORPUS as the tests read it: the oracle is beside the corpus)."""
import json, os, subprocess, sys
here = os.path.dirname(os.path.abspath(__file__))
corpus = os.environ.get("FORM_PACKAGE_CORPUS", os.path.join(here, "../../../../shared/corpus"))
oracle = os.path.join(corpus, "../oracle/snapshot-oracle")
cases = json.load(open(os.path.join(here, "cases.src.json")))
out = []
for c in cases:
    dirs = ",".join("packages/" + p for p in c["packages"])
    ref = c["ref"] if "@" in c["ref"] else "documents/" + c["ref"]
    for mode in ("validate", "materialize"):
        r = subprocess.run([oracle, mode, "dirs:" + dirs, ref, "documents/" + c["document"]],
                           cwd=here, capture_output=True)
        rec = dict(c, mode=mode, exit=r.returncode)
        if mode == "materialize" and r.returncode == 0:
            rec["stdout"] = r.stdout.decode()
        out.append(rec)
with open(os.path.join(here, "cases.json"), "w") as f:
    f.write(json.dumps(out, indent=1) + "\n")
