//! Issue 15, end to end: every case of `corpus/trust/cases.json` through the
//! binary (result, exit code, error class, reported values); the publisher's
//! signed packages by `--package DIR` and by `--package-digest`; and
//! one-edit tampering of the real evidence (trusted-root windows, SET,
//! inclusion proof, checkpoint, timestamp, SCT, policy ref), each refused
//! with its class and code.

use crate::common;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use base64::Engine;
use form_package::codes::Code;
use form_package::trust::policy::parse_policy;
use form_package::trust::verify::{verify_bundle, Subject};
use form_package::trust::ErrorClass;
use libtest_mimic::Trial;
use serde_json::{json, Value};

use crate::common::BIN;
const B64: base64::engine::GeneralPurpose = base64::engine::general_purpose::STANDARD;

fn trust_dir(corpus: &Path) -> PathBuf {
    corpus.join("trust")
}

/// A case's input path: `packages/…` from the corpus root, others from `trust/`.
fn input(corpus: &Path, rel: &str) -> PathBuf {
    if rel.starts_with("packages/") {
        corpus.join(rel)
    } else {
        trust_dir(corpus).join(rel)
    }
}

fn canonical_bytes(path: &Path) -> Vec<u8> {
    let out = Command::new(BIN)
        .arg("canonicalize")
        .arg(path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut b = out.stdout;
    assert_eq!(b.pop(), Some(b'\n'));
    b
}

/// The command line of one case (temporary files for inline pins/FormRefs).
fn case_command(corpus: &Path, c: &Value, tmp: &Path) -> Command {
    let op = c["operation"].as_str().unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["trust", op]);
    if op == "verify-bundle" {
        if let Some(s) = c["subject"].as_str() {
            let mut subject = input(corpus, s);
            if c["subjectForm"]
                .as_str()
                .unwrap_or("")
                .starts_with("RFC 8785")
            {
                let p = tmp.join("subject");
                std::fs::write(&p, canonical_bytes(&subject)).unwrap();
                subject = p;
            }
            cmd.arg("--subject").arg(subject);
        } else {
            cmd.args(["--package-digest", c["packageDigest"].as_str().unwrap()]);
        }
    } else {
        cmd.arg("--checkpoint")
            .arg(input(corpus, c["checkpoint"].as_str().unwrap()));
        if c["previousPin"].is_object() {
            let p = tmp.join("pin.json");
            std::fs::write(&p, c["previousPin"].to_string()).unwrap();
            cmd.arg("--previous-pin").arg(p);
        }
        if op == "check-not-revoked" {
            let p = tmp.join("formref.json");
            std::fs::write(&p, c["formRef"].to_string()).unwrap();
            cmd.args(["--package-digest", c["packageDigest"].as_str().unwrap()]);
            cmd.arg("--form-ref").arg(p);
        }
    }
    for (flag, key) in [
        ("--bundle", "bundle"),
        ("--trusted-root", "trustedRoot"),
        ("--policy", "policy"),
    ] {
        cmd.arg(flag).arg(input(corpus, c[key].as_str().unwrap()));
    }
    cmd
}

fn every_trust_case_gives_its_expected_result_and_class(corpus: &Path) {
    let cases: Value =
        serde_json::from_slice(&std::fs::read(trust_dir(corpus).join("cases.json")).unwrap())
            .unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 44);
    let mut failures = Vec::new();
    let (mut passed, mut refused) = (0, 0);
    for c in cases {
        let id = c["id"].as_str().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let out = case_command(corpus, c, tmp.path()).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        match c["expect"].as_str().unwrap() {
            "fail" => {
                let report: Value = serde_json::from_str(&stderr).unwrap_or(Value::Null);
                let want = c["errorClass"].as_str().unwrap();
                if out.status.code() != Some(1) || report["code"] != want || !stdout.is_empty() {
                    failures.push(format!(
                        "{id}: want {want}, got {:?} {stderr}",
                        out.status.code()
                    ));
                }
                if let Some(gist) = c["errorGist"].as_str() {
                    if !report["message"].as_str().unwrap_or("").contains(gist) {
                        failures.push(format!("{id}: message lacks {gist:?}: {stderr}"));
                    }
                }
                assert!(
                    report["diagnostic"]
                        .as_str()
                        .unwrap_or("")
                        .starts_with("FD8"),
                    "{id}"
                );
                refused += 1;
            }
            expect => {
                let report: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
                if out.status.code() != Some(0) || report["status"] != expect {
                    failures.push(format!("{id}: want {expect}, got {stdout}{stderr}"));
                    continue;
                }
                let bundle = if c["operation"] == "verify-bundle" {
                    &report
                } else if c["operation"] == "verify-checkpoint" {
                    &report["bundle"]
                } else {
                    &report["checkpoint"]["bundle"]
                };
                for (k, v) in c["report"].as_object().into_iter().flatten() {
                    let got = if ["checkpointVersion", "entryCount", "pin"].contains(&k.as_str()) {
                        &report[k]
                    } else {
                        &bundle[k]
                    };
                    if got != v {
                        failures.push(format!("{id}: {k} = {got}, want {v}"));
                    }
                }
                if c["packageDigest"].is_string() && c["operation"] == "verify-bundle" {
                    assert_eq!(bundle["subjectDigest"], c["packageDigest"], "{id}");
                }
                passed += 1;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((passed, refused), (23, 21));
}

fn forms(corpus: &Path) -> PathBuf {
    trust_dir(corpus).join("takoform-forms/forms/trust")
}

fn bundle_of(corpus: &Path, set: &str, digest_prefix: &str) -> PathBuf {
    let sets = forms(corpus).join("sets");
    for s in std::fs::read_dir(&sets).unwrap() {
        let s = s.unwrap().path();
        if !s.file_name().unwrap().to_string_lossy().starts_with(set) {
            continue;
        }
        for r in std::fs::read_dir(s.join("packages")).unwrap() {
            for d in std::fs::read_dir(r.unwrap().path()).unwrap() {
                let d = d.unwrap().path();
                if d.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(&format!("sha256-{digest_prefix}"))
                {
                    return d.join("package-index.sigstore.json");
                }
            }
        }
    }
    panic!("no bundle {set}/{digest_prefix}");
}

/// `--bundle B --trusted-root R --policy P`: the trust inputs of `verify-bundle`.
fn trust_inputs(bundle: &Path, root: &Path, policy: &Path) -> Vec<OsString> {
    vec![
        "--bundle".into(),
        bundle.into(),
        "--trusted-root".into(),
        root.into(),
        "--policy".into(),
        policy.into(),
    ]
}

/// `trust verify-bundle --package PACKAGE` with `bundle` and the publisher's
/// trusted root and policy from the corpus.
fn verify_package_cmd(corpus: &Path, package: &Path, bundle: &Path) -> Output {
    Command::new(BIN)
        .args(["trust", "verify-bundle", "--package"])
        .arg(package)
        .args(trust_inputs(
            bundle,
            &forms(corpus).join("trusted-root.json"),
            &forms(corpus).join("publisher-policy.json"),
        ))
        .output()
        .unwrap()
}

/// The arguments of the README's example: `trust verify-bundle --package
/// PACKAGE` with the publisher's bundle, trusted root and policy from
/// `fixtures/trust` (no corpus needed).
fn readme_example(package: &Path) -> Vec<OsString> {
    let f = readme_fixtures();
    let mut args: Vec<OsString> = vec!["trust".into(), "verify-bundle".into(), "--package".into()];
    args.push(package.into());
    args.extend(trust_inputs(
        &f.join("object-bucket-0.1.0-52a0cd0b11d3.sigstore.json"),
        &f.join("trusted-root.json"),
        &f.join("publisher-policy.json"),
    ));
    args
}

/// `fixtures/trust`: the README example's package and trust inputs.
fn readme_fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/trust")
}

/// Asserts that a trust command verified (exit 0; its stderr shown
/// otherwise) and returns the JSON report it printed on stdout.
fn verified(o: &Output) -> Value {
    common::assert_exit(o, 0);
    serde_json::from_slice(&o.stdout).unwrap()
}

fn the_signed_cdd3_packages_verify_with_package_dir(corpus: &Path) {
    let versionless = corpus.join("packages/versionless");
    for (dir, digest) in [
        (
            "object-bucket-0.1.0-52a0cd0b11d3",
            "sha256:52a0cd0b11d35fbf8ab57ac7d5717f550efa77a2b20997b8ac0abdf3e4752200",
        ),
        (
            "worker-deployment-0.2.0-f90f1b86cc93",
            "sha256:f90f1b86cc9311d9457cd1cf0d665e6a310367d52e3f8e8c5c6c5acff842526d",
        ),
    ] {
        let out = verify_package_cmd(
            corpus,
            &versionless.join(dir),
            &bundle_of(corpus, "cdd3", &digest[7..15]),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{dir}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["status"], "verified");
        assert_eq!(r["subjectDigest"], digest);
        assert_eq!(r["package"]["packageDigest"], digest);
        assert_eq!(
            r["sourceCommit"],
            "cdd30b711e2c6857b1b4d247b1471f5676904933"
        );
        assert_eq!(r["publisherIdentity"], "https://github.com/tako0614/takoform-forms/.github/workflows/form-package-signing.yml@refs/heads/main");
        // Issue 26 item 3: a human summary beside the JSON, on stderr.
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(
            summary.starts_with(&format!(
                "form-package: bundle verified: {digest} signed by https://github.com/tako0614/takoform-forms/.github/workflows/form-package-signing.yml@refs/heads/main at source commit cdd30b711e2c6857b1b4d247b1471f5676904933\nform-package: package "
            )),
            "{summary}"
        );
        assert!(
            summary.contains(&format!(", package digest {digest}\n")),
            "{summary}"
        );
    }
    // The third is an incomplete copy (only its index: manifest
    // "fail: listed files missing"), so `--package` refuses the package
    // itself; its signature still verifies over its index's RFC 8785 form.
    let wv = versionless.join("worker-version-0.3.0-d1ccfb0b47a4");
    let bundle = bundle_of(corpus, "cdd3", "d1ccfb0b");
    let out = verify_package_cmd(corpus, &wv, &bundle);
    let err: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(err["code"], "input-error");
    assert_eq!(err["diagnostic"], "FD815");
    assert!(err["message"].as_str().unwrap().contains("FD019"), "{err}");
    let subject = canonical_bytes(&wv.join("package-index.json"));
    let r = verify_bundle(
        &Subject::Bytes(subject),
        &std::fs::read(&bundle).unwrap(),
        &std::fs::read(forms(corpus).join("trusted-root.json")).unwrap(),
        &parse_policy(&std::fs::read(forms(corpus).join("publisher-policy.json")).unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        r.subject_digest,
        "sha256:d1ccfb0b47a4110f4ffbe6e842433639b1114feb11d5a690c9dc2ee1f938dd52"
    );
}

fn the_seventeen_e7f8_bundles_verify_by_digest(corpus: &Path) {
    let root = std::fs::read(forms(corpus).join("trusted-root.json")).unwrap();
    let policy =
        parse_policy(&std::fs::read(forms(corpus).join("publisher-policy.json")).unwrap()).unwrap();
    let mut n = 0;
    let sets = forms(corpus).join("sets");
    let e7f8 = std::fs::read_dir(&sets)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("e7f8"))
        .unwrap();
    for release in std::fs::read_dir(e7f8.join("packages")).unwrap() {
        for d in std::fs::read_dir(release.unwrap().path()).unwrap() {
            let d = d.unwrap().path();
            let name = d.file_name().unwrap().to_string_lossy().to_string();
            let digest = format!("sha256:{}", name.strip_prefix("sha256-").unwrap());
            let bundle = std::fs::read(d.join("package-index.sigstore.json")).unwrap();
            let r = verify_bundle(
                &Subject::from_digest_text(&digest).unwrap(),
                &bundle,
                &root,
                &policy,
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(r.subject_digest, digest);
            assert_eq!(r.source_commit, "e7f8a39311dd011b8467e97e7f300cabb9a6b06c");
            // near miss: the neighbour digest (last hex digit changed) is refused
            let mut other = digest.clone();
            let last = if other.ends_with('0') { "1" } else { "0" };
            other.replace_range(70.., last);
            let e = verify_bundle(
                &Subject::from_digest_text(&other).unwrap(),
                &bundle,
                &root,
                &policy,
            )
            .unwrap_err();
            assert_eq!(
                (e.class, e.code),
                (ErrorClass::VerificationFailed, Code::TrustSignature)
            );
            n += 1;
        }
    }
    assert_eq!(n, 17);
}

/// The probe's inputs, as JSON values to edit.
struct Probe {
    subject: Vec<u8>,
    bundle: Value,
    root: Value,
    policy: Value,
}

fn probe() -> Probe {
    let corpus = common::corpus_root();
    let p = trust_dir(&corpus).join("probe");
    let json = |f: &str| serde_json::from_slice(&std::fs::read(p.join(f)).unwrap()).unwrap();
    Probe {
        subject: std::fs::read(p.join("subject.txt")).unwrap(),
        bundle: json("cosign-v3.0.6-message-signature.sigstore.json"),
        root: json("trusted-root.json"),
        policy: json("publisher-policy.json"),
    }
}

impl Probe {
    /// Verifies; `Ok(())` or the (class, code) of the refusal.
    fn run(&self) -> Result<(), (ErrorClass, Code, String)> {
        let policy = parse_policy(&serde_json::to_vec(&self.policy).unwrap())
            .map_err(|e| (e.class, e.code, e.message))?;
        verify_bundle(
            &Subject::Bytes(self.subject.clone()),
            &serde_json::to_vec(&self.bundle).unwrap(),
            &serde_json::to_vec(&self.root).unwrap(),
            &policy,
        )
        .map(|_| ())
        .map_err(|e| (e.class, e.code, e.message))
    }

    fn entry(&mut self) -> &mut Value {
        &mut self.bundle["verificationMaterial"]["tlogEntries"][0]
    }
}

/// Flips one bit of the byte at `at` of a base64 field.
fn flip_b64(v: &mut Value, at: usize) {
    let mut b = B64.decode(v.as_str().unwrap()).unwrap();
    let i = at.min(b.len() - 1);
    b[i] ^= 0x01;
    *v = Value::String(B64.encode(b));
}

fn refused(p: &Probe, class: ErrorClass, code: Code) {
    match p.run() {
        Err((c, k, m)) => assert_eq!((c, k), (class, code), "{m}"),
        Ok(()) => panic!("verified; want {code:?}"),
    }
}

fn the_unedited_probe_verifies() {
    let p = probe();
    assert_eq!(p.run(), Ok(()));
}

fn a_root_whose_windows_exclude_the_signing_time_is_refused() {
    let base = probe();
    // Fulcio CAs: both windows start after the signing time (2026-07-19).
    let mut p = probe();
    for ca in p.root["certificateAuthorities"].as_array_mut().unwrap() {
        ca["validFor"] = json!({"start": "2030-01-01T00:00:00Z"});
    }
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustCertificateChain,
    );
    // One member: the current CA's window ends before the signing time.
    let mut p = probe();
    p.root["certificateAuthorities"][1]["validFor"]["end"] = json!("2026-01-01T00:00:00Z");
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustCertificateChain,
    );
    // The Rekor key's window.
    let mut p = probe();
    p.root["tlogs"][0]["publicKey"]["validFor"]["end"] = json!("2026-01-01T00:00:00Z");
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogEntry);
    // The TSA's window.
    let mut p = probe();
    p.root["timestampAuthorities"][0]["validFor"]["start"] = json!("2027-01-01T00:00:00Z");
    refused(&p, ErrorClass::VerificationFailed, Code::TrustTimestamp);
    // near miss: a window ending one second after the later signing time still holds
    let mut p = probe();
    p.root["certificateAuthorities"][1]["validFor"]["end"] = json!("2026-07-19T01:10:00Z");
    assert_eq!(p.run(), Ok(()));
    let _ = base;
}

fn tampered_transparency_evidence_is_refused() {
    // The SET: one byte of the signature.
    let mut p = probe();
    flip_b64(
        &mut p.entry()["inclusionPromise"]["signedEntryTimestamp"],
        40,
    );
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogEntry);
    // What the SET signs: the integrated time.
    let mut p = probe();
    p.entry()["integratedTime"] = json!("1784423400");
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogEntry);
    // The inclusion proof: one byte of one audit-path hash, of the root hash.
    let mut p = probe();
    flip_b64(&mut p.entry()["inclusionProof"]["hashes"][3], 0);
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustInclusionProof,
    );
    let mut p = probe();
    flip_b64(&mut p.entry()["inclusionProof"]["rootHash"], 31);
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustInclusionProof,
    );
    // The proof's leaf index.
    let mut p = probe();
    p.entry()["inclusionProof"]["logIndex"] = json!("2073648133");
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustInclusionProof,
    );
    // The signed checkpoint: one byte of its signature.
    let mut p = probe();
    let env = p.entry()["inclusionProof"]["checkpoint"]["envelope"]
        .as_str()
        .unwrap()
        .to_owned();
    let (body, sig_line) = env.split_once("\n\n").unwrap();
    let (name, sig) = sig_line.trim_end().rsplit_once(' ').unwrap();
    let mut s = Value::String(sig.to_owned());
    flip_b64(&mut s, 20);
    p.entry()["inclusionProof"]["checkpoint"]["envelope"] =
        json!(format!("{body}\n\n{name} {}\n", s.as_str().unwrap()));
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogCheckpoint);
    // The entry body (another digest logged).
    let mut p = probe();
    let body = String::from_utf8(
        B64.decode(p.entry()["canonicalizedBody"].as_str().unwrap())
            .unwrap(),
    )
    .unwrap();
    let edited = body.replacen("7ac5d57c", "7ac5d57d", 1);
    assert_ne!(body, edited);
    p.entry()["canonicalizedBody"] = json!(B64.encode(edited));
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogEntry);
    // The log id (no log of the root).
    let mut p = probe();
    p.entry()["logId"]["keyId"] = json!(B64.encode([0u8; 32]));
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogEntry);
}

fn timestamps_scts_and_thresholds() {
    // No TSA in the root while the bundle carries a token.
    let mut p = probe();
    p.root["timestampAuthorities"] = json!([]);
    refused(&p, ErrorClass::VerificationFailed, Code::TrustTimestamp);
    // A token over another signature: the imprint no longer matches.
    let mut p = probe();
    let other = probe();
    let _ = other;
    flip_b64(
        &mut p.bundle["verificationMaterial"]["timestampVerificationData"]["rfc3161Timestamps"][0]
            ["signedTimestamp"],
        80,
    );
    assert!(p
        .run()
        .is_err_and(|(c, k, _)| c == ErrorClass::VerificationFailed && k == Code::TrustTimestamp));
    // No CT log: no SCT verifies.
    let mut p = probe();
    p.root["ctlogs"] = json!([]);
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustCertificateTimestamp,
    );
    // Without the SET, the RFC 3161 time alone still suffices (threshold 1 time) …
    let mut p = probe();
    p.entry()
        .as_object_mut()
        .unwrap()
        .remove("inclusionPromise");
    assert_eq!(p.run(), Ok(()));
    // … and without both there is no verified time.
    p.bundle["verificationMaterial"]
        .as_object_mut()
        .unwrap()
        .remove("timestampVerificationData");
    refused(&p, ErrorClass::VerificationFailed, Code::TrustThreshold);
    // No log entry at all.
    let mut p = probe();
    p.bundle["verificationMaterial"]["tlogEntries"] = json!([]);
    refused(
        &p,
        ErrorClass::MissingTransparency,
        Code::TrustMissingTransparency,
    );
}

fn a_policy_with_one_member_changed_is_refused() {
    let mut p = probe();
    p.policy["ref"] = json!("refs/heads/agent/cosign-v3-shape-probf");
    refused(&p, ErrorClass::VerificationFailed, Code::TrustIdentity);
    let mut p = probe();
    p.policy["oidcIssuer"] = json!("https://token.actions.githubusercontent.co");
    refused(&p, ErrorClass::VerificationFailed, Code::TrustIdentity);
    let mut p = probe();
    p.policy["ref"] = json!("refs/heads/*");
    refused(&p, ErrorClass::InvalidPolicy, Code::TrustInvalidPolicy);
}

fn usage_and_input_errors() {
    // `trust verify-bundle SUBJECT-FLAGS… --bundle c --trusted-root d --policy e`.
    let verify_bundle = |subject: &[&str]| {
        Command::new(BIN)
            .args(["trust", "verify-bundle"])
            .args(subject)
            .args(["--bundle", "c", "--trusted-root", "d", "--policy", "e"])
            .output()
            .unwrap()
    };
    // Two subjects at once, or none: usage (exit 2).
    let out = verify_bundle(&["--subject", "a", "--package-digest", "b"]);
    assert_eq!(out.status.code(), Some(2));
    let out = verify_bundle(&[]);
    assert_eq!(out.status.code(), Some(2));
    // A missing file or package: input-error, and the command could not
    // run (exit 2, as `verify` exits for a PATH that does not exist).
    for flag in ["--subject", "--package"] {
        let out = verify_bundle(&[flag, "/nonexistent/a"]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let err: Value = serde_json::from_slice(&out.stderr).unwrap();
        assert_eq!(err["code"], "input-error");
        assert!(
            err["message"].as_str().unwrap().contains("/nonexistent/a"),
            "{err}"
        );
    }
    // A malformed digest: input-error, and a usage error (exit 2).
    let out = verify_bundle(&["--package-digest", "sha256:ABC"]);
    let err: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(
        (out.status.code(), &err["code"]),
        (Some(2), &json!("input-error"))
    );
}

/// One verdict to compare: label, subject file or digest hex, bundle, root, policy.
type Job = (
    String,
    Option<PathBuf>,
    Option<String>,
    PathBuf,
    PathBuf,
    PathBuf,
);

/// The Python interpreter that has `sigstore` 4.5.x (`FORM_PACKAGE_SIGSTORE_PYTHON`,
/// else `python3`), or why there is none.
fn sigstore_python() -> Result<String, String> {
    let python = std::env::var("FORM_PACKAGE_SIGSTORE_PYTHON").unwrap_or_else(|_| "python3".into());
    let out = Command::new(&python)
        .args(["-c", "import sigstore; print(sigstore.__version__)"])
        .output()
        .map_err(|e| format!("{python} could not start ({e})"))?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if version.starts_with("4.5") {
        Ok(python)
    } else {
        Err(format!(
            "{python} has no `sigstore` 4.5.x ({}; set FORM_PACKAGE_SIGSTORE_PYTHON)",
            if version.is_empty() { "none" } else { &version }
        ))
    }
}

/// Whether `strace` (from PATH) can trace here: `Err` says why not (not
/// installed, or ptrace refused, as in some sandboxes: it wrote no trace of
/// `true`).
fn strace_usable() -> Result<(), String> {
    let tmp = tempfile::tempdir().map_err(|e| format!("no temporary directory ({e})"))?;
    let trace = tmp.path().join("trace");
    let out = Command::new("strace")
        .args(["-f", "-qq", "-o"])
        .arg(&trace)
        .arg("true")
        .output()
        .map_err(|e| format!("strace could not start ({e})"))?;
    if std::fs::metadata(&trace).is_ok_and(|m| m.len() > 0) {
        Ok(())
    } else {
        Err(format!(
            "strace could not trace `true` ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

fn agrees_with_python_sigstore_on_every_verify_bundle_verdict(corpus: &Path, python: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let mut jobs: Vec<Job> = Vec::new();
    let cases: Value =
        serde_json::from_slice(&std::fs::read(trust_dir(corpus).join("cases.json")).unwrap())
            .unwrap();
    for c in cases["cases"].as_array().unwrap() {
        // The policy-parser cases have no counterpart there (it has no policy document).
        if c["operation"] != "verify-bundle" || c["errorClass"] == "invalid-policy" {
            continue;
        }
        let id = c["id"].as_str().unwrap().to_owned();
        let (subject, digest) = match c["subject"].as_str() {
            Some(s) => {
                let mut p = input(corpus, s);
                if c["subjectForm"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("RFC 8785")
                {
                    let q = tmp.path().join(format!("{id}.subject"));
                    std::fs::write(&q, canonical_bytes(&p)).unwrap();
                    p = q;
                }
                (Some(p), None)
            }
            None => (
                None,
                Some(c["packageDigest"].as_str().unwrap()[7..].to_owned()),
            ),
        };
        let f = |k: &str| input(corpus, c[k].as_str().unwrap());
        jobs.push((
            id,
            subject,
            digest,
            f("bundle"),
            f("trustedRoot"),
            f("policy"),
        ));
    }
    // One-edit variants of the probe.
    type Edit = fn(&mut Probe);
    let edits: Vec<(&str, Edit)> = vec![
        ("set-flipped", |p| {
            flip_b64(
                &mut p.entry()["inclusionPromise"]["signedEntryTimestamp"],
                40,
            )
        }),
        ("integrated-time-shifted", |p| {
            p.entry()["integratedTime"] = json!("1784423400")
        }),
        ("proof-hash-flipped", |p| {
            flip_b64(&mut p.entry()["inclusionProof"]["hashes"][3], 0)
        }),
        ("root-hash-flipped", |p| {
            flip_b64(&mut p.entry()["inclusionProof"]["rootHash"], 31)
        }),
        ("log-id-zeroed", |p| {
            p.entry()["logId"]["keyId"] = json!(B64.encode([0u8; 32]))
        }),
        ("ca-windows-after-signing", |p| {
            for ca in p.root["certificateAuthorities"].as_array_mut().unwrap() {
                ca["validFor"] = json!({"start": "2030-01-01T00:00:00Z"});
            }
        }),
        ("ctlogs-emptied", |p| p.root["ctlogs"] = json!([])),
        ("policy-ref-changed", |p| {
            p.policy["ref"] = json!("refs/heads/agent/cosign-v3-shape-probf")
        }),
        ("set-removed-tsa-kept", |p| {
            p.entry()
                .as_object_mut()
                .unwrap()
                .remove("inclusionPromise");
        }),
        ("unedited", |_| {}),
    ];
    for (label, edit) in edits {
        let mut p = probe();
        edit(&mut p);
        let dir = tmp.path().join(label);
        std::fs::create_dir(&dir).unwrap();
        let w = |name: &str, bytes: Vec<u8>| {
            let f = dir.join(name);
            std::fs::write(&f, bytes).unwrap();
            f
        };
        jobs.push((
            label.to_owned(),
            Some(w("subject", p.subject.clone())),
            None,
            w("bundle.json", serde_json::to_vec(&p.bundle).unwrap()),
            w("root.json", serde_json::to_vec(&p.root).unwrap()),
            w("policy.json", serde_json::to_vec(&p.policy).unwrap()),
        ));
    }
    let input_lines: String = jobs
        .iter()
        .map(|(_, s, d, b, r, p)| {
            format!(
                "{}\n",
                json!({"subject": s, "digest": d, "bundle": b, "root": r, "policy": p})
            )
        })
        .collect();
    let mut child = Command::new(python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tools/sigstore_verdicts.py"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), input_lines.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(theirs.len(), jobs.len());
    let mut disagreements = Vec::new();
    for ((label, s, d, b, r, p), their) in jobs.iter().zip(&theirs) {
        let mut cmd = Command::new(BIN);
        cmd.args(["trust", "verify-bundle"]);
        match (s, d) {
            (Some(s), _) => cmd.arg("--subject").arg(s),
            (None, d) => cmd.args([
                "--package-digest",
                &format!("sha256:{}", d.as_deref().unwrap()),
            ]),
        };
        let ours = cmd.args(trust_inputs(b, r, p)).output().unwrap();
        let ours_ok = ours.status.success();
        if ours_ok != (their == "verified") {
            disagreements.push(format!(
                "{label}: ours {} / sigstore-python {their}",
                if ours_ok {
                    "verified".into()
                } else {
                    String::from_utf8_lossy(&ours.stderr).into_owned()
                }
            ));
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    println!(
        "agreed with sigstore-python on {} verify-bundle verdicts",
        jobs.len()
    );
}

/// The README's example, from the clone alone (no corpus): the publisher's
/// policy and trusted root, one of its signed packages, verified end to end.
fn the_readme_example_verifies_from_the_clone() {
    let run = |package: &Path| {
        Command::new(BIN)
            .args(readme_example(package))
            .output()
            .unwrap()
    };
    let pkg = readme_fixtures().join("object-bucket-0.1.0-52a0cd0b11d3");
    let r = verified(&run(&pkg));
    assert_eq!(
        r["subjectDigest"],
        "sha256:52a0cd0b11d35fbf8ab57ac7d5717f550efa77a2b20997b8ac0abdf3e4752200"
    );
    assert_eq!(
        r["trustedRootDigest"],
        "sha256:6494e21ea73fa7ee769f85f57d5a3e6a08725eae1e38c755fc3517c9e6bc0b66"
    );
    assert_eq!(r["package"]["formRef"]["kind"], "ObjectBucket");
    assert_eq!(r["evidence"]["logEntries"], 1);
    // near miss: the same package with one payload byte changed no longer
    // verifies as a package, so the signature is not even consulted.
    let tmp = tempfile::tempdir().unwrap();
    let copy = tmp.path().join("pkg");
    common::copy_dir(&pkg, &copy);
    let d = copy.join("fixtures/desired.json");
    let mut bytes = std::fs::read(&d).unwrap();
    bytes[0] = b' ';
    std::fs::write(&d, bytes).unwrap();
    let out = run(&copy);
    assert_eq!(out.status.code(), Some(1));
    let err: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(err["code"], "input-error");
    assert!(err["message"].as_str().unwrap().contains("FD01"), "{err}");
}

/// Each signature check bites on its own: another real key or chain in the
/// root's place, or the ECDSA check over the subject without the digest
/// shortcut.
fn every_signature_check_is_load_bearing() {
    // Fulcio CAs replaced by the (real, valid) TSA chain: no chain.
    let mut p = probe();
    let tsa_chain = p.root["timestampAuthorities"][0]["certChain"].clone();
    for ca in p.root["certificateAuthorities"].as_array_mut().unwrap() {
        ca["certChain"] = tsa_chain.clone();
    }
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustCertificateChain,
    );
    // The TSA replaced by the Fulcio chain: the token's signer is unknown.
    let mut p = probe();
    p.root["timestampAuthorities"][0]["certChain"] =
        p.root["certificateAuthorities"][1]["certChain"].clone();
    refused(&p, ErrorClass::VerificationFailed, Code::TrustTimestamp);
    // The CT log's key swapped for the other CT log's key (same log id).
    let mut p = probe();
    let other = p.root["ctlogs"][0]["publicKey"]["rawBytes"].clone();
    p.root["ctlogs"][1]["publicKey"]["rawBytes"] = other;
    refused(
        &p,
        ErrorClass::VerificationFailed,
        Code::TrustCertificateTimestamp,
    );
    // The Rekor key swapped for the CT log's key (same log id and window).
    let mut p = probe();
    p.root["tlogs"][0]["publicKey"]["rawBytes"] =
        p.root["ctlogs"][1]["publicKey"]["rawBytes"].clone();
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogEntry);
    // Without messageDigest, a changed subject meets the ECDSA check itself.
    let mut p = probe();
    p.bundle["messageSignature"]
        .as_object_mut()
        .unwrap()
        .remove("messageDigest");
    assert_eq!(p.run(), Ok(()));
    p.subject.push(b'!');
    refused(&p, ErrorClass::VerificationFailed, Code::TrustSignature);
    // The checkpoint signed by a key the root does not hold under that hint.
    let mut p = probe();
    let env = p.entry()["inclusionProof"]["checkpoint"]["envelope"]
        .as_str()
        .unwrap()
        .to_owned();
    let edited = env.replacen("\n2073648137\n", "\n2073648138\n", 1);
    assert_ne!(env, edited);
    p.entry()["inclusionProof"]["checkpoint"]["envelope"] = json!(edited);
    refused(&p, ErrorClass::VerificationFailed, Code::TrustLogCheckpoint);
}

/// The trust commands' checkpoint path (`trust::revocation`, over the one
/// revocation model) against the `advance` cases of
/// `corpus/conformance/revocation-checkpoint-v1`: every verdict, every
/// resulting pin; and a revoked lookup on the one current checkpoint with
/// an entry.
fn the_checkpoint_reader_agrees_with_the_advance_cases(corpus: &Path) {
    use form_package::trust::revocation::{
        advance, check_not_revoked, parse_pin, validate_checkpoint, Lookup,
    };
    let dir = corpus.join("conformance/revocation-checkpoint-v1");
    let cases: Value =
        serde_json::from_slice(&std::fs::read(dir.join("cases.json")).unwrap()).unwrap();
    let read = |file: &str| {
        let value: Value = serde_json::from_slice(&std::fs::read(dir.join(file)).unwrap()).unwrap();
        validate_checkpoint(file, &value)
    };
    let mut n = 0;
    for c in cases["cases"].as_array().unwrap() {
        if c["operation"] != "advance" {
            continue;
        }
        let file = c["file"].as_str().unwrap();
        let got = (|| {
            let pin = match &c["previousPin"] {
                Value::Null => None,
                p => Some(parse_pin("pin.json", p.to_string().as_bytes())?),
            };
            advance(file, pin.as_ref(), &read(file)?, false)
        })();
        match c["expect"].as_str().unwrap() {
            "valid" => {
                let pin = got.unwrap_or_else(|e| panic!("{file}: {e}")).pin;
                assert_eq!(
                    serde_json::to_value(&pin).unwrap(),
                    c["expectPin"],
                    "{file}"
                );
            }
            _ => assert!(got.is_err(), "{file} with {}: {got:?}", c["previousPin"]),
        }
        n += 1;
    }
    assert_eq!(n, 18);
    // checkpoint-1-from-genesis revokes its one entry's package, with its FormRef only.
    let cp = read("positive/checkpoint-1-from-genesis.json").unwrap();
    let digest = cp.checkpoint.entries[0].package_digest.clone();
    let form_ref = cp.entries[0]["formRef"].as_object().unwrap().clone();
    assert!(matches!(
        check_not_revoked(&cp, &digest, &form_ref),
        Ok(Lookup::Revoked(_, 1))
    ));
    let mut other = form_ref.clone();
    other.insert("definitionVersion".into(), json!("9.9.9"));
    assert!(check_not_revoked(&cp, &digest, &other).is_err_and(|e| e.contains("different FormRef")));
    let unrelated = format!("sha256:{}", "0".repeat(64));
    assert_eq!(
        check_not_revoked(&cp, &unrelated, &form_ref),
        Ok(Lookup::NotRevoked)
    );
}

/// Runs the binary with `args` under `strace -f -e trace=%network,openat`,
/// asserts that its exit status is `exit`, that the tracer saw it open a file
/// whose path contains `opened` and that it made no network system call at all
/// (not even `socket(2)`); gives its output. The probe of `trials`
/// ([`strace_usable`]) saw strace trace `true`: an empty trace now is a failure.
fn assert_no_network_call(args: &[OsString], exit: i32, opened: &str) -> Output {
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("trace");
    let out = Command::new("strace")
        .args(["-f", "-qq", "-e", "trace=%network,openat", "-o"])
        .arg(&trace)
        .arg(BIN)
        .args(args)
        .output()
        .unwrap();
    let log = std::fs::read_to_string(&trace).unwrap_or_default();
    assert!(
        !log.is_empty(),
        "strace wrote no trace ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    common::assert_exit(&out, exit);
    assert!(
        log.contains(opened),
        "the tracer did not see the verifier open {opened}:\n{log}"
    );
    let network: Vec<&str> = log.lines().filter(|l| !l.contains("openat(")).collect();
    assert_eq!(network, Vec::<&str>::new(), "network system calls");
    out
}

/// `trust verify-bundle` makes no network system call (the README example,
/// under `strace`; `.ci/run` installs strace).
fn verify_bundle_makes_no_network_call() {
    let args = readme_example(&readme_fixtures().join("object-bucket-0.1.0-52a0cd0b11d3"));
    assert_no_network_call(&args, 0, "trusted-root.json");
}

/// `verify` of a package whose desired schema has a remote `$ref`
/// (`https://attacker.invalid/x.json`) refuses it (FD200) and makes no network
/// system call at all, under `strace`. Moved here from tests/verify/hostile.rs
/// (whose `remote_ref_is_refused` checks the finding in process) to share
/// [`strace_usable`]: without an strace that can trace it is reported ignored,
/// never passed. It no longer falls back to `unshare -n`: a run without a
/// network shows that the verdict needs none, not that no connection was tried.
fn remote_ref_makes_no_network_connection() {
    let (_t, dir) = common::copy_package(
        &common::fixtures().join("packages/v1alpha1/example-store-1.0.0-f486d5e31632"),
    );
    let path = dir.join("definition.json");
    let mut def: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    def["desiredSchema"] = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "additionalProperties": false,
        "properties": {"name": {"$ref": "https://attacker.invalid/x.json"}},
        "required": ["name"]
    });
    std::fs::write(&path, serde_json::to_vec(&def).unwrap()).unwrap();
    common::reindex(&dir);
    let args: Vec<OsString> = vec![
        "verify".into(),
        "--format".into(),
        "json".into(),
        dir.into(),
    ];
    let out = assert_no_network_call(&args, 1, "definition.json");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes = common::codes(&v);
    assert!(codes.contains(&"FD200"), "{codes:?}");
}

/// The genesis checkpoint's trust inputs from the corpus, as flags.
fn genesis_flags(corpus: &Path) -> Vec<OsString> {
    let set =
        "takoform-forms/forms/trust/sets/e7f8a39311dd011b8467e97e7f300cabb9a6b06c/revocations";
    let mut v = Vec::new();
    for (flag, rel) in [
        ("--checkpoint", format!("{set}/checkpoint.json")),
        ("--bundle", format!("{set}/checkpoint.sigstore.json")),
        (
            "--trusted-root",
            "takoform-forms/forms/trust/trusted-root.json".to_owned(),
        ),
        (
            "--policy",
            "takoform-forms/forms/trust/publisher-policy.json".to_owned(),
        ),
    ] {
        v.push(flag.into());
        v.push(input(corpus, &rel).into_os_string());
    }
    v
}

/// Runs `form-package trust ARGS…` with the genesis checkpoint's trust
/// inputs ([`genesis_flags`]), then `extra`.
fn on_genesis(corpus: &Path, args: &[&str], extra: &[&OsStr]) -> Output {
    Command::new(BIN)
        .arg("trust")
        .args(args)
        .args(genesis_flags(corpus))
        .args(extra)
        .output()
        .unwrap()
}

/// Issue 26 item 3: `--pin-out` writes the pin; the whole
/// `verify-checkpoint` report is read as `--previous-pin`; with
/// `--allow-unchanged` the checkpoint the pin names is a success (near
/// miss: without it the Core's continuity rule refuses it, as the trust
/// corpus' `forms-genesis-replayed` wants).
fn the_report_is_a_pin_and_an_unchanged_checkpoint_can_be_a_success(corpus: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let pin = tmp.path().join("pin.json");
    let o = on_genesis(
        corpus,
        &["verify-checkpoint"],
        &[OsStr::new("--pin-out"), pin.as_os_str()],
    );
    let report = verified(&o);
    assert_eq!(report["status"], "verified");
    // The human summary beside the JSON (stderr), naming the pin file.
    let summary = String::from_utf8_lossy(&o.stderr);
    assert!(
        summary.starts_with(
            "form-package: revocation checkpoint 0.0.0 verified (sequence 0, 0 entries) signed by https://github.com/tako0614/takoform-forms/"
        ),
        "{summary}"
    );
    assert!(
        summary.contains("form-package: pin written to "),
        "{summary}"
    );
    let written: Value = serde_json::from_slice(&std::fs::read(&pin).unwrap()).unwrap();
    assert_eq!(written, report["pin"]);
    let whole = tmp.path().join("report.json");
    std::fs::write(&whole, &o.stdout).unwrap();
    let previous_pin = [OsStr::new("--previous-pin"), whole.as_os_str()];
    let o = on_genesis(
        corpus,
        &["verify-checkpoint", "--allow-unchanged"],
        &previous_pin,
    );
    let again = verified(&o);
    assert_eq!(again["status"], "unchanged");
    assert_eq!(again["pin"], report["pin"]);
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("unchanged since the pin (sequence 0, 0 entries"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = on_genesis(corpus, &["verify-checkpoint"], &previous_pin);
    assert_eq!(o.status.code(), Some(1));
    let e: Value = serde_json::from_slice(&o.stderr).unwrap();
    assert_eq!(e["code"], "invalid-checkpoint");
    let m = e["message"].as_str().unwrap();
    assert!(m.contains("sequence is 0, want 1"), "{m}");
    assert!(m.contains("--allow-unchanged"), "{m}");
}

/// Issue 26 item 3: `check-not-revoked --package DIR` derives the digest
/// and the FormRef together, a package index is accepted as `--form-ref`,
/// and a digest that is not the package's is refused (it answered
/// `not-revoked` for an all-zero digest); near miss: the right digest
/// beside `--package` is accepted.
fn check_not_revoked_derives_and_cross_checks_the_package(corpus: &Path) {
    let pkg = readme_fixtures().join("object-bucket-0.1.0-52a0cd0b11d3");
    let digest = "sha256:52a0cd0b11d35fbf8ab57ac7d5717f550efa77a2b20997b8ac0abdf3e4752200";
    let zero = format!("sha256:{}", "0".repeat(64));
    let run = |extra: &[&OsStr]| on_genesis(corpus, &["check-not-revoked"], extra);
    let index = pkg.join("package-index.json");
    let os = |s: &str| OsString::from(s);
    let o = run(&[os("--package").as_os_str(), pkg.as_os_str()]);
    let v = verified(&o);
    assert_eq!(v["status"], "not-revoked");
    assert_eq!(v["packageDigest"], digest);
    assert_eq!(v["package"]["packageDigest"], digest);
    assert_eq!(v["crossChecked"], true);
    let summary = String::from_utf8_lossy(&o.stderr);
    assert!(summary.contains("form-package: not revoked: edge.forms.takoform.com ObjectBucket 0.1.0 (sha256:52a0cd0b"), "{summary}");
    assert!(!summary.contains("warning"), "{summary}");
    let o = run(&[os("--form-ref").as_os_str(), index.as_os_str()]);
    let v = verified(&o);
    assert_eq!(v["packageDigest"], digest);
    assert_eq!(v["crossChecked"], true);
    // Near miss: a bare digest beside a bare FormRef cannot be checked
    // against each other; it is answered, and the summary says so.
    let bare = tempfile::NamedTempFile::new().unwrap();
    let idx: Value = serde_json::from_slice(&std::fs::read(&index).unwrap()).unwrap();
    std::fs::write(bare.path(), serde_json::to_vec(&idx["formRef"]).unwrap()).unwrap();
    let o = run(&[
        os("--form-ref").as_os_str(),
        bare.path().as_os_str(),
        os("--package-digest").as_os_str(),
        os(&zero).as_os_str(),
    ]);
    let v = verified(&o);
    assert_eq!(v["crossChecked"], false);
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("warning: --package-digest and --form-ref were given separately"));
    for extra in [
        vec![
            os("--package"),
            pkg.clone().into_os_string(),
            os("--package-digest"),
            os(&zero),
        ],
        vec![
            os("--form-ref"),
            index.clone().into_os_string(),
            os("--package-digest"),
            os(&zero),
        ],
    ] {
        let args: Vec<&std::ffi::OsStr> = extra.iter().map(|s| s.as_os_str()).collect();
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{extra:?}");
        let e: Value = serde_json::from_slice(&o.stderr).unwrap();
        assert_eq!(e["code"], "input-error");
        assert!(e["message"].as_str().unwrap().contains(&zero), "{e}");
    }
    let o = run(&[
        os("--package").as_os_str(),
        pkg.as_os_str(),
        os("--package-digest").as_os_str(),
        os(digest).as_os_str(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    // Neither a package nor a digest: the command could not run.
    assert_eq!(run(&[]).status.code(), Some(2));
}

/// Breaker G2: `check-not-revoked --package DIR --pin-out FILE` with FILE
/// inside DIR (named there, or through a symlink outside it) is refused,
/// exit 2, nothing written, since nothing is written to a package being
/// verified; near miss: a pin file beside the package is written (exit 0).
fn the_pin_is_never_written_into_the_package_checked(corpus: &Path) {
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("object-bucket");
    common::copy_dir(
        &readme_fixtures().join("object-bucket-0.1.0-52a0cd0b11d3"),
        &pkg,
    );
    let inside = pkg.join("pin.json");
    let link = tmp.path().join("link.json");
    std::os::unix::fs::symlink(&inside, &link).unwrap();
    let run = |pin: &Path| {
        on_genesis(
            corpus,
            &["check-not-revoked"],
            &[
                OsStr::new("--package"),
                pkg.as_os_str(),
                OsStr::new("--pin-out"),
                pin.as_os_str(),
            ],
        )
    };
    for pin in [&inside, &link] {
        let o = run(pin);
        assert_eq!(o.status.code(), Some(2), "{}", pin.display());
        let e: Value = serde_json::from_slice(&o.stderr).unwrap();
        assert_eq!(e["code"], "usage", "{e}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .contains("nothing is written to a package being verified"),
            "{e}"
        );
        assert!(!inside.exists(), "{}", pin.display());
    }
    let beside = tmp.path().join("pin.json");
    let o = run(&beside);
    assert_eq!(verified(&o)["status"], "not-revoked");
    let written: Value = serde_json::from_slice(&std::fs::read(&beside).unwrap()).unwrap();
    assert!(written.is_object(), "{written}");
    assert!(!inside.exists());
}

/// This file's trials, each listed as `[trust] name`. The corpus tests are
/// ignored without the corpus; the three that need a tool are ignored without
/// it, decided by a probe when the trials are listed: the agreement with
/// Python `sigstore` 4.5.x (failed instead when `FORM_PACKAGE_REQUIRE_SIGSTORE`
/// is set; `.ci/run` installs it where it can) and the two no-network traces
/// (`trust verify-bundle` and `verify` of a remote `$ref`: an `strace` that
/// can trace, one probe for both; failed instead when `CI` is set, as
/// `.ci/run` installs strace).
pub fn trials() -> Vec<Trial> {
    let corpus = common::corpus();
    let with_corpus = |name: &str, f: fn(&Path)| common::corpus_test(name, &corpus, f);
    let sigstore = "agrees_with_python_sigstore_on_every_verify_bundle_verdict";
    let sigstore = common::needs_tool(
        sigstore,
        sigstore_python(),
        "FORM_PACKAGE_REQUIRE_SIGSTORE",
        |python| {
            common::corpus_trial(sigstore, &corpus, move |c| {
                agrees_with_python_sigstore_on_every_verify_bundle_verdict(c, &python);
                Ok(())
            })
        },
    );
    let strace = strace_usable();
    let network = "verify_bundle_makes_no_network_call";
    let network = common::needs_tool(network, strace.clone(), "CI", |()| {
        common::test(network, verify_bundle_makes_no_network_call)
    });
    let remote_ref = "remote_ref_makes_no_network_connection";
    let remote_ref = common::needs_tool(remote_ref, strace, "CI", |()| {
        common::test(remote_ref, remote_ref_makes_no_network_connection)
    });
    vec![
        with_corpus(
            "every_trust_case_gives_its_expected_result_and_class",
            every_trust_case_gives_its_expected_result_and_class,
        ),
        with_corpus(
            "the_signed_cdd3_packages_verify_with_package_dir",
            the_signed_cdd3_packages_verify_with_package_dir,
        ),
        with_corpus(
            "the_seventeen_e7f8_bundles_verify_by_digest",
            the_seventeen_e7f8_bundles_verify_by_digest,
        ),
        with_corpus("the_unedited_probe_verifies", |_| {
            the_unedited_probe_verifies()
        }),
        with_corpus(
            "a_root_whose_windows_exclude_the_signing_time_is_refused",
            |_| a_root_whose_windows_exclude_the_signing_time_is_refused(),
        ),
        with_corpus("tampered_transparency_evidence_is_refused", |_| {
            tampered_transparency_evidence_is_refused()
        }),
        with_corpus("timestamps_scts_and_thresholds", |_| {
            timestamps_scts_and_thresholds()
        }),
        with_corpus("a_policy_with_one_member_changed_is_refused", |_| {
            a_policy_with_one_member_changed_is_refused()
        }),
        common::test("usage_and_input_errors", usage_and_input_errors),
        sigstore,
        common::test(
            "the_readme_example_verifies_from_the_clone",
            the_readme_example_verifies_from_the_clone,
        ),
        with_corpus("every_signature_check_is_load_bearing", |_| {
            every_signature_check_is_load_bearing()
        }),
        with_corpus(
            "the_checkpoint_reader_agrees_with_the_advance_cases",
            the_checkpoint_reader_agrees_with_the_advance_cases,
        ),
        network,
        remote_ref,
        with_corpus(
            "the_report_is_a_pin_and_an_unchanged_checkpoint_can_be_a_success",
            the_report_is_a_pin_and_an_unchanged_checkpoint_can_be_a_success,
        ),
        with_corpus(
            "check_not_revoked_derives_and_cross_checks_the_package",
            check_not_revoked_derives_and_cross_checks_the_package,
        ),
        with_corpus(
            "the_pin_is_never_written_into_the_package_checked",
            the_pin_is_never_written_into_the_package_checked,
        ),
    ]
}
