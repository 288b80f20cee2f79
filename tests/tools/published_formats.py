"""Published-schema formats: our verdict vs the reference's on `validate-revocation`.

Usage: python3 tests/tools/published_formats.py OUR_BINARY [SEED [N_RANDOM]]

Environment:
  FORM_PACKAGE_ORACLE  the reference verifier binary; default, as the test
                       suite finds it (tests/golden/reference_cli.rs):
                       oracle/form-package-reference beside
                       FORM_PACKAGE_CORPUS when that is set, else
                       ../shared/oracle/form-package-reference beside the clone
  FORM_PACKAGE_CORPUS  the corpus; default ../shared/corpus beside the clone

Every `uri`, `uri-reference` and `iri` value of tests/verify/engine_formats.rs
(the URI_AND_REFERENCE, URI_ONLY and URI_REFERENCE_ONLY tables) and every
`date-time` value (DATE_TIME) is put, one at a time, into the legacy
conformance statement `statement-1.json` (`advisoryUrl`, `issuedAt`), plus
N_RANDOM generated https:// URLs and mutated date-times (seeded); both
verifiers' exit codes are compared. Only the legacy v1alpha1 profile: the
oracle predates the v1 trust profile. Needs the corpus and the oracle; a
missing oracle or table stops it with a message. Not run by CI.
"""
import json, os, random, re, subprocess, sys, tempfile
if len(sys.argv) < 2:
    sys.exit(__doc__)
REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORPUS = os.environ.get("FORM_PACKAGE_CORPUS")
ORACLE = os.environ.get("FORM_PACKAGE_ORACLE") or (
    os.path.join(CORPUS, "..", "oracle", "form-package-reference") if CORPUS
    else os.path.join(REPO, "..", "shared", "oracle", "form-package-reference"))
if not os.access(ORACLE, os.X_OK):
    sys.exit(f"no reference verifier at {ORACLE} (set FORM_PACKAGE_ORACLE)")
OURS = sys.argv[1]
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 1
N_RANDOM = int(sys.argv[3]) if len(sys.argv) > 3 else 600
base = os.path.join(CORPUS or os.path.join(REPO, "..", "shared", "corpus"), "conformance/revocation-checkpoint-v1/positive/")
bases = [json.load(open(base + f)) for f in ("statement-1.json",)]
src = open(os.path.join(REPO, "tests", "verify", "engine_formats.rs"), encoding="utf-8").read()
def unrust(s):
    s = re.sub(r"\\u\{([0-9a-fA-F]+)\}", lambda m: chr(int(m.group(1), 16)), s)
    return s.replace('\\"', '"').replace("\\0", "\0").replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r").replace("\\\\", "\\")
def table(name):
    """The strings of the table `name` (rows `("…", verdict, …)`); stops when it is gone."""
    m = re.search(r"const " + name + r": &\[\(&str(?:, bool)+\)\] = &\[(.*?)\n\];", src, re.S)
    if not m:
        sys.exit(f"no table {name} in tests/verify/engine_formats.rs")
    return [unrust(x) for x in re.findall(r'\(\s*"((?:[^"\\]|\\.)*)",\s*(?:true|false)', m.group(1))]
rng = random.Random(SEED)
uri_vals = set(table("URI_AND_REFERENCE") + table("URI_ONLY") + table("URI_REFERENCE_ONLY"))
dt_vals = set(table("DATE_TIME"))
chars = list("<>\"{}|\\^` %25[]:@#?/&=+;,!$'()*~._-") + ["%", "%2", "%zz", "é", "\u00a0", "\x7f", "\t", "2", "a", "Z"]
for _ in range(N_RANDOM):
    host = rng.choice(["example.com", "[::1]", "[fe80::1%25en0]", "a:b@x", "x:80", "x:8a", "", "ex ample", "ex%41mple", "é.com", "[::1"])
    tail = "".join(rng.choice(chars) for _ in range(rng.randint(0, 6)))
    where = rng.choice(["/", "/p?", "?", "#", "/a/b?q=", ""])
    uri_vals.add("https://" + host + where + tail)
    d = list("2024-01-01T00:00:00Z")
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(d)); d[i] = rng.choice(list("0123456789-:TtZz+. ") + ["", "99", ".5", "+01:00"])
    dt_vals.add("".join(d))
cases = [("advisoryUrl", v) for v in sorted(uri_vals)] + [("issuedAt", v) for v in sorted(dt_vals)]
tmp = tempfile.mkdtemp(); path = os.path.join(tmp, "s.json")
agree = dis = 0; bad = []
for field, v in cases:
    for b in bases:
        doc = dict(b); doc[field] = v
        with open(path, "w", encoding="utf-8") as f: json.dump(doc, f, ensure_ascii=True)
        o = subprocess.run([ORACLE, "validate-revocation", path], capture_output=True).returncode
        u = subprocess.run([OURS, "validate-revocation", path], capture_output=True).returncode
        if o == u: agree += 1
        else: dis += 1; bad.append((field, v, b["apiVersion"], o, u))
os.remove(path); os.rmdir(tmp)
print(f"seed {SEED}: {agree + dis} statements ({len(uri_vals)} uri values, {len(dt_vals)} date-time values, legacy v1alpha1 statement: the oracle predates the v1 trust profile), agree {agree}, disagree {dis}")
print("by field:", {f: sum(1 for x in bad if x[0] == f) for f in ("advisoryUrl", "issuedAt")})
for x in bad[:400]: print("DIS", repr(x))
