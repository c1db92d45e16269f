//! The resolved plan `bee-bench/plan@1` that `bee-bench plan` prints (runners/README.md "Command
//! line"). The engine's zod schema (src/spec/plan.ts, spec/plan.schema.json) is the one full
//! definition; this runner reads the plan into the types below, strictly (unknown fields are
//! errors, every problem names its field), and checks only what it relies on. A new plan field is
//! one field in one of these structs.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};

pub const RUNNER: &str = "rs";
const SCHEMA: &str = "bee-bench/plan@1";

/// Param values as a case runs with them and the result records them (label included).
pub type Param = Map<String, Value>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Plan {
    schema: String,
    runner: String,
    pub profile: Profile,
    /// Copied into the result's `spec.hash`.
    pub spec_hash: String,
    pub fixtures: FixtureLabels,
    pub units: Vec<Unit>,
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    Quick,
    Full,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixtureLabels {
    pub data_label: String,
    pub key_label: String,
    pub digest_label: String,
    pub chunk_payload_bytes: usize,
}

/// One case with one param, as this runner runs it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Its number in the full plan: what pacing lines and callgrind dumps name.
    pub unit: usize,
    pub id: String,
    pub kind: Kind,
    pub param: Param,
    /// Required, possibly null (serde would otherwise take a missing field for null).
    #[serde(deserialize_with = "Option::deserialize")]
    pub digest: Option<DigestPlan>,
    pub work: Work,
    pub warmup: u32,
    pub iters: u32,
    pub timeout_s: f64,
    /// The engine's business (A/B rounds do not pin such a unit); accepted, not used.
    #[serde(default, rename = "parallel")]
    _parallel: bool,
    pub fault: Option<Fault>,
    #[serde(default)]
    pub slowdown: f64,
    #[serde(default)]
    pub alloc_extra: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Cpu,
    Net,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DigestPlan {
    pub form: DigestForm,
    pub param: Param,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum DigestForm {
    /// Hex of the output itself.
    #[serde(rename = "value")]
    Value,
    /// Hex SHA-256 of the concatenated raw outputs in index order.
    #[serde(rename = "sha256-concat")]
    Sha256Concat,
}

/// Work of one iteration, copied to the result as the plan wrote it.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ops: Option<Number>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Fault {
    /// Return an error inside the timed iteration.
    Throw,
    /// Never finish the timed iteration.
    Hang,
    /// Panic in a detached task (the Rust form of an unhandled promise rejection).
    Reject,
}

/// Read and check `path`; the error is one line: `bad plan FILE: FIELD: PROBLEM`.
pub fn load(path: &Path) -> Result<Plan, String> {
    let bad = |at: &str, problem: String| format!("bad plan {}: {at}: {problem}", path.display());
    let bytes = std::fs::read(path).map_err(|e| bad("(file)", format!("cannot read: {e}")))?;
    let mut de = serde_json::Deserializer::from_slice(&bytes);
    let plan: Plan = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let at = e.path().to_string();
        bad(
            if at == "." { "(top level)" } else { &at },
            e.inner().to_string(),
        )
    })?;
    de.end()
        .map_err(|e| bad("(top level)", format!("data after the plan: {e}")))?;
    plan.check().map_err(|(at, problem)| bad(&at, problem))?;
    Ok(plan)
}

impl Plan {
    /// The checks the runner relies on beyond the types: (field, problem).
    fn check(&self) -> Result<(), (String, String)> {
        if self.schema != SCHEMA {
            let problem = format!(
                "expected \"{SCHEMA}\", got \"{}\" (make the plan with this version's `bee-bench plan`)",
                self.schema
            );
            return Err(("schema".into(), problem));
        }
        if self.runner != RUNNER {
            let problem = format!(
                "the plan is for runner \"{}\", this is runner \"{RUNNER}\" (make its plan with `bee-bench plan --runner {RUNNER}`)",
                self.runner
            );
            return Err(("runner".into(), problem));
        }
        for (i, u) in self.units.iter().enumerate() {
            let at = |field: &str| format!("units[{i}].{field}");
            if let Some(p) = i
                .checked_sub(1)
                .map(|j| &self.units[j])
                .filter(|p| p.unit >= u.unit)
            {
                let problem = format!("unit numbers must increase ({} then {})", p.unit, u.unit);
                return Err((at("unit"), problem));
            }
            if u.iters < 1 {
                return Err((at("iters"), "must be a positive integer, got 0".into()));
            }
            // Duration panics on a negative or overflowing number of seconds.
            if !Duration::try_from_secs_f64(u.timeout_s).is_ok_and(|d| !d.is_zero()) {
                let problem = format!("must be a positive number of seconds, got {}", u.timeout_s);
                return Err((at("timeout_s"), problem));
            }
        }
        Ok(())
    }
}

impl Unit {
    pub fn label(&self) -> &str {
        self.param
            .get("label")
            .and_then(Value::as_str)
            .unwrap_or("?")
    }

    /// Budget from setup to the last iteration.
    pub fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.timeout_s)
    }
}
