"""Writes the big-enum compat pair of docs/src/benchmarks.md (issue 35 item 4).

usage: benches/gen_enum_pair.py BIN STORE OUTDIR N

Copies the fixture package STORE three times under OUTDIR, each with a
desired member `tier` whose `enum` holds N values (strings, integers,
fractions, arrays), re-indexed with `BIN index`:
  old    the N values (1.0.0)
  fewer  one value dropped (2.0.0): breaking, the witness that value
  same   the values reversed, integers written as fractions (1.0.1): equivalent
"""
import json, shutil, subprocess, sys, os
bin_, store, out, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
vals = []
for i in range(n):
    m = i % 4
    vals.append(f"v{i}" if m == 0 else i if m == 1 else i + 0.5 if m == 2 else [i, "x"])
def pkg(name, values, version):
    d = os.path.join(out, name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(store, d)
    f = os.path.join(d, "definition.json")
    doc = json.load(open(f))
    doc["desiredSchema"]["properties"]["tier"] = {"enum": values}
    doc["definitionVersion"] = version
    json.dump(doc, open(f, "w"), indent=2)
    subprocess.run([bin_, "index", d], check=True, stdout=subprocess.DEVNULL)
    return d
pkg("old", vals, "1.0.0")
fewer = vals[:n//2+1] + vals[n//2+2:]
pkg("fewer", fewer, "2.0.0")
same = [float(v) if isinstance(v, int) else v for v in reversed(vals)]
pkg("same", same, "1.0.1")
