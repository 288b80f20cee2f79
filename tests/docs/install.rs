//! Issue 37 item 4: the install page names every route and the
//! repository once, the `cargo binstall` metadata points at the assets the
//! release workflow publishes, the wheel's `pyproject.toml` builds the
//! binary.

use std::path::{Path, PathBuf};

use yaml_rust2::YamlLoader;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(p: &str) -> String {
    std::fs::read_to_string(repo().join(p)).unwrap()
}

/// The install page names the repository URL once (REPO stands for it
/// everywhere else), and gives every route: the three-line download and
/// check, pip/pipx/uvx, cargo install, cargo binstall, the Action and
/// pre-commit.
#[test]
fn install_page_has_every_route_and_names_the_repository_once() {
    let page = read("docs/src/install.md");
    let url = "https://github.com/OWNER/form-package";
    assert_eq!(page.matches(url).count(), 1, "the repository URL once");
    assert!(!page.contains("example.invalid"));
    let cargo: toml::Table = read("Cargo.toml").parse().unwrap();
    assert_eq!(cargo["package"]["repository"].as_str(), Some(url));
    for route in [
        "sha256sum --ignore-missing -c SHA256SUMS",
        "gh attestation verify",
        "pip install form-package",
        "pipx run form-package",
        "uvx form-package",
        "cargo install --locked",
        "cargo binstall",
        "uses: OWNER/form-package@VERSION",
        "id: form-package-verify",
        "--summary-file \"$GITHUB_STEP_SUMMARY\"",
    ] {
        assert!(page.contains(route), "the install page lacks {route:?}");
    }
    // A five-line workflow example of each Action input the issue asks for.
    for input in ["compat-args:", "baseline-rev:", "baseline:"] {
        assert!(page.contains(input), "no example of {input}");
    }
}

/// `cargo binstall`'s `pkg-url` template, expanded for each target of the
/// release matrix, is the URL of the asset the release workflow
/// publishes (`form-package-<target>[.exe]`), under the repository's
/// release of `v<version>`; the format is a bare binary.
#[test]
fn binstall_metadata_points_at_the_release_assets() {
    let cargo: toml::Table = read("Cargo.toml").parse().unwrap();
    let package = &cargo["package"];
    let bin = &package["metadata"]["binstall"];
    assert_eq!(bin["pkg-fmt"].as_str(), Some("bin"));
    let template = bin["pkg-url"].as_str().unwrap();
    let repo_url = package["repository"].as_str().unwrap();
    let version = package["version"].as_str().unwrap();
    let workflow = YamlLoader::load_from_str(&read(".github/workflows/release.yml"))
        .unwrap()
        .remove(0);
    let matrix = workflow["jobs"]["build"]["strategy"]["matrix"]["include"]
        .as_vec()
        .unwrap();
    assert_eq!(matrix.len(), 5);
    for entry in matrix {
        let target = entry["target"].as_str().unwrap();
        let exe = entry["exe"].as_str().unwrap();
        let url = template
            .replace("{ repo }", repo_url)
            .replace("{ version }", version)
            .replace("{ target }", target)
            .replace("{ binary-ext }", exe);
        assert!(!url.contains('{'), "{url}");
        assert_eq!(
            url,
            format!("{repo_url}/releases/download/v{version}/form-package-{target}{exe}")
        );
    }
    // The workflow's asset name is that one.
    let checksum = read(".github/workflows/release.yml");
    assert!(checksum.contains("asset=\"form-package-$TARGET$EXE\""));
}

/// The wheel: maturin, `bindings = "bin"`, the version from Cargo.toml;
/// `.ci/run` builds it, installs it with pip and runs it.
#[test]
fn pyproject_builds_the_binary_as_a_wheel() {
    let py: toml::Table = read("pyproject.toml").parse().unwrap();
    assert_eq!(
        py["build-system"]["build-backend"].as_str(),
        Some("maturin")
    );
    assert_eq!(py["tool"]["maturin"]["bindings"].as_str(), Some("bin"));
    assert_eq!(py["project"]["name"].as_str(), Some("form-package"));
    let dynamic = py["project"]["dynamic"].as_array().unwrap();
    assert!(dynamic.iter().any(|d| d.as_str() == Some("version")));
    let run = read(".ci/run");
    for step in [
        "maturin\" build",
        "pip\" install",
        "form-package\" version",
        "cargo install --locked --debug --path .",
    ] {
        assert!(run.contains(step), ".ci/run lacks {step:?}");
    }
    assert!(Path::new(&repo().join("pyproject.toml")).is_file());
}
