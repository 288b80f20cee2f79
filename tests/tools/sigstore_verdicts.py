"""Verdicts of the independent Python `sigstore` verifier (4.5.x), for the
agreement test in tests/trust/trust.rs. Reads one JSON job per line on stdin:
{"subject": PATH | null, "digest": HEX | null, "bundle": PATH,
 "root": PATH, "policy": PATH}; prints one line per job: "verified" or
"fail: <reason>". Offline: the trusted root is the given file; nothing is
fetched. The policy is applied exactly (issuer, SAN = workflow@ref, source
repository URI and ref, build signer URI)."""
import json
import sys

from sigstore.hashes import Hashed
from sigstore.models import Bundle, TrustedRoot
from sigstore.verify import Verifier, policy as P
from sigstore_models.common.v1 import HashAlgorithm  # type: ignore


def verdict(job):
    try:
        pol = json.load(open(job["policy"], "rb"))
        identity = pol["workflow"] + "@" + pol["ref"]
        policy = P.AllOf([
            P.Identity(identity=identity, issuer=pol["oidcIssuer"]),
            P.OIDCSourceRepositoryURI(pol["sourceRepository"]),
            P.OIDCSourceRepositoryRef(pol["ref"]),
            P.OIDCBuildSignerURI(identity),
        ])
        root = TrustedRoot.from_file(job["root"])
        verifier = Verifier(trusted_root=root)
        bundle = Bundle.from_json(open(job["bundle"], "rb").read())
        if job.get("subject"):
            subject = open(job["subject"], "rb").read()
        else:
            subject = Hashed(algorithm=HashAlgorithm.SHA2_256, digest=bytes.fromhex(job["digest"]))
        verifier.verify_artifact(subject, bundle, policy)
        return "verified"
    except Exception as e:  # every refusal is a verdict
        return "fail: " + (str(e).splitlines() or [type(e).__name__])[0]


for line in sys.stdin:
    if line.strip():
        print(verdict(json.loads(line)), flush=True)
