//! Embeds which bee-rs this binary is built against, as `info` and the result file report it:
//! `BEE_RS_VERSION`, `BEE_RS_SOURCE` (`registry` | `path`), `BEE_RS_COMMIT` (git HEAD of a path
//! checkout, empty otherwise) and `RUSTC_VERSION`.
//!
//! The truth is the resolved graph, i.e. Cargo.lock as cargo has just written it for this build
//! (a `--config 'patch.crates-io.bee-rs.path="..."'` build rewrites the bee-rs entry without a
//! `source`). Only a path checkout's directory is not in the lockfile: it is asked of
//! `cargo metadata --locked`, given the same `--config` arguments as the cargo running this
//! script (read from its command line where the OS exposes it) and started in its directory, so
//! it sees the same configuration files too.

use std::path::{Path, PathBuf};
use std::process::Command;

const PACKAGE: &str = "bee-rs";

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=Cargo.lock");

    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR"));
    let lock = std::fs::read_to_string(manifest_dir.join("Cargo.lock"))
        .unwrap_or_else(|e| panic!("cannot read Cargo.lock: {e}"));
    let (version, source) =
        locked_package(&lock, PACKAGE).unwrap_or_else(|| panic!("{PACKAGE} is not in Cargo.lock"));
    let from_registry = source
        .as_deref()
        .is_some_and(|s| s.starts_with("registry+") || s.starts_with("sparse+"));

    let mut commit = String::new();
    if !from_registry {
        match checkout_dir() {
            Some(dir) => {
                watch_git(&dir);
                commit = git(&dir, &["rev-parse", "HEAD"]).unwrap_or_default();
                if commit.is_empty() {
                    println!(
                        "cargo::warning={PACKAGE} checkout {} is not a git work tree: no commit recorded",
                        dir.display()
                    );
                }
            }
            None => println!(
                "cargo::warning=could not locate the {PACKAGE} path checkout: no commit recorded"
            ),
        }
    }

    println!("cargo::rustc-env=BEE_RS_VERSION={version}");
    println!(
        "cargo::rustc-env=BEE_RS_SOURCE={}",
        if from_registry { "registry" } else { "path" }
    );
    println!("cargo::rustc-env=BEE_RS_COMMIT={commit}");
    let rustc = Command::new(env("RUSTC")).arg("--version").output().ok();
    let rustc = rustc
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!(
        "cargo::rustc-env=RUSTC_VERSION={}",
        if rustc.is_empty() {
            "rustc (unknown)"
        } else {
            &rustc
        }
    );
}

fn env(name: &str) -> String {
    std::env::var(name)
        .unwrap_or_else(|_| panic!("{name} is not set (build scripts run under cargo)"))
}

/// `(version, source)` of the `[[package]]` named `name`; `source` is absent for path packages.
fn locked_package(lock: &str, name: &str) -> Option<(String, Option<String>)> {
    let wanted = format!("name = \"{name}\"");
    lock.split("[[package]]").find_map(|block| {
        let lines = block.lines().map(str::trim);
        if !lines.clone().any(|l| l == wanted) {
            return None;
        }
        let field = |key: &str| {
            let prefix = format!("{key} = \"");
            lines.clone().find_map(|l| {
                l.strip_prefix(&prefix)?
                    .strip_suffix('"')
                    .map(str::to_string)
            })
        };
        Some((field("version")?, field("source")))
    })
}

/// The directory cargo compiles bee-rs from, per `cargo metadata` under this build's config.
fn checkout_dir() -> Option<PathBuf> {
    let (config_args, cwd) = parent_cargo();
    let mut cmd = Command::new(env("CARGO"));
    cmd.args([
        "metadata",
        "--format-version",
        "1",
        "--locked",
        "--offline",
        "--manifest-path",
    ])
    .arg(env("CARGO_MANIFEST_PATH"))
    .args(config_args);
    if let Some(cwd) = cwd {
        cmd.current_dir(cwd);
    }
    let out = cmd.output().ok().filter(|o| o.status.success())?;
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    let package = meta["packages"]
        .as_array()?
        .iter()
        .find(|p| p["name"] == PACKAGE && p["source"].is_null())?;
    Some(
        Path::new(package["manifest_path"].as_str()?)
            .parent()?
            .to_path_buf(),
    )
}

/// The `--config` arguments and working directory of the cargo that runs this script (Linux).
fn parent_cargo() -> (Vec<String>, Option<PathBuf>) {
    let pid = std::os::unix::process::parent_id();
    let Ok(raw) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
        return (Vec::new(), None);
    };
    let args: Vec<String> = raw
        .split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let mut config = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--config" {
            config.extend(it.next().map(|v| format!("--config={v}")));
        } else if arg.starts_with("--config=") {
            config.push(arg.clone());
        }
    }
    (config, std::fs::read_link(format!("/proc/{pid}/cwd")).ok())
}

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// Rebuild when the checkout's HEAD moves (a new commit, a checkout of another branch).
fn watch_git(dir: &Path) {
    let mut files = vec!["HEAD".to_string(), "packed-refs".to_string()];
    files.extend(git(dir, &["symbolic-ref", "-q", "HEAD"]));
    for f in files {
        if let Some(path) = git(
            dir,
            &["rev-parse", "--path-format=absolute", "--git-path", &f],
        ) {
            if Path::new(&path).exists() {
                println!("cargo::rerun-if-changed={path}");
            }
        }
    }
}
