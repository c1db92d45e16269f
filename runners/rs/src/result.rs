//! The result file `bee-bench/result@1` (docs/design.md, "Result file"; src/spec/schema.ts) and the
//! `info` object, with the facts about client, runtime and host they carry.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use crate::plan::{Kind, Param, Profile, Work};

pub const SCHEMA: &str = "bee-bench/result@1";
pub const CLIENT_NAME: &str = "bee-rs";

#[derive(Debug, Serialize)]
pub struct RunResult {
    pub schema: &'static str,
    pub runner: &'static str,
    pub client: ClientInfo,
    pub bee: Option<BeeInfo>,
    pub spec: SpecRef,
    pub host: Host,
    pub started_at: String,
    pub finished_at: Option<String>,
    pub cases: Vec<CaseResult>,
    /// Set in allocation mode (BEE_BENCH_ALLOCS=1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_counter: Option<AllocCounter>,
}

#[derive(Debug, Serialize)]
pub struct AllocCounter {
    pub method: &'static str,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClientInfo {
    pub name: &'static str,
    pub version: &'static str,
    pub source: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<&'static str>,
}

impl ClientInfo {
    /// As build.rs found bee-rs in this build's resolved graph.
    pub fn of_build() -> Self {
        let commit = env!("BEE_RS_COMMIT");
        Self {
            name: CLIENT_NAME,
            version: env!("BEE_RS_VERSION"),
            source: env!("BEE_RS_SOURCE"),
            commit: (!commit.is_empty()).then_some(commit),
        }
    }
}

#[derive(Debug, Serialize)]
pub struct BeeInfo {
    pub url: String,
    pub version: String,
}

#[derive(Debug, Serialize)]
pub struct SpecRef {
    pub hash: String,
    pub profile: Profile,
}

#[derive(Clone, Debug, Serialize)]
pub struct Host {
    pub os: String,
    pub arch: String,
    pub cpu_model: String,
    pub cpus: u32,
    pub mem_mb: u64,
    pub runtime: String,
}

pub fn runtime() -> String {
    env!("RUSTC_VERSION").to_string()
}

impl Host {
    pub fn current() -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = proc_field(&cpuinfo, "model name")
            .unwrap_or("unknown")
            .to_string();
        let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let mem_kb = proc_field(&meminfo, "MemTotal")
            .and_then(|v| v.trim_end_matches("kB").trim().parse::<u64>().ok());
        Self {
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            cpu_model,
            cpus: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
            mem_mb: mem_kb.unwrap_or(0) / 1024,
            runtime: runtime(),
        }
    }
}

/// The value of `key: value` in a /proc text file.
fn proc_field<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Skipped,
    Failed,
}

#[derive(Debug, Serialize)]
pub struct CaseResult {
    pub id: String,
    pub kind: Kind,
    pub param: Param,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub warmup: u32,
    pub samples_ns: Vec<u64>,
    pub cpu_ns: Vec<u64>,
    pub peak_rss_bytes: Option<u64>,
    pub work: Work,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// Per timed iteration, in allocation mode (CPU units).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allocs: Option<Vec<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alloc_bytes: Option<Vec<u64>>,
}

/// Replace `path` with the serialized result in one rename, so readers never see half a file.
pub fn write_atomic(path: &Path, result: &RunResult) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut file = std::fs::File::create(&tmp)?;
    serde_json::to_writer_pretty(&mut file, result)?;
    file.write_all(b"\n")?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path)
}

pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(std::time::SystemTime::now()).to_string()
}
