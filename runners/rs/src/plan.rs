//! The resolved plan `bee-bench/plan@1` that `bee-bench plan` prints (runners/README.md "Command
//! line"; the zod source is src/spec/plan.ts). Read strictly: unknown fields are errors, and
//! every problem names its field. Only what this runner relies on is checked; the spec rules
//! behind the plan are the engine's.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Deserializer, Serialize, de::Error as _};
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
    #[serde(deserialize_with = "positive")]
    pub chunk_payload_bytes: usize,
}

/// One case with one param, as this runner runs it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Its number in the full plan: what pacing lines and callgrind dumps name.
    #[serde(deserialize_with = "non_negative")]
    pub unit: usize,
    pub id: String,
    pub kind: Kind,
    pub param: Param,
    /// Required, possibly null (serde would otherwise take a missing field for null).
    #[serde(deserialize_with = "Option::deserialize")]
    pub digest: Option<DigestPlan>,
    pub work: Work,
    #[serde(deserialize_with = "non_negative")]
    pub warmup: u32,
    #[serde(deserialize_with = "positive")]
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

fn positive<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<T, D::Error> {
    integer(d, 1, "a positive integer")
}

fn non_negative<'de, D: Deserializer<'de>, T: TryFrom<u64>>(d: D) -> Result<T, D::Error> {
    integer(d, 0, "a non-negative integer")
}

/// An integer of at least `min` that fits `T`; anything else is "must be <what>".
fn integer<'de, D: Deserializer<'de>, T: TryFrom<u64>>(
    d: D,
    min: u64,
    what: &str,
) -> Result<T, D::Error> {
    let v = Value::deserialize(d)?;
    v.as_u64()
        .filter(|n| *n >= min)
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| D::Error::custom(format!("must be {what} (got {v})")))
}

/// Read and check `path`; the error is one line: `bad plan FILE: FIELD: PROBLEM`.
pub fn load(path: &Path) -> Result<Plan, String> {
    let bad = |at: &str, problem: String| format!("bad plan {}: {at}: {problem}", path.display());
    let bytes = std::fs::read(path).map_err(|e| bad("(file)", format!("cannot read: {e}")))?;
    let de = &mut serde_json::Deserializer::from_slice(&bytes);
    let plan: Plan = serde_path_to_error::deserialize(de).map_err(|e| {
        let at = e.path().to_string();
        bad(
            if at == "." { "(top level)" } else { &at },
            e.inner().to_string(),
        )
    })?;
    plan.check().map_err(|(at, problem)| bad(&at, problem))?;
    Ok(plan)
}

impl Plan {
    /// The checks serde's shape does not make: (field, problem).
    fn check(&self) -> Result<(), (String, String)> {
        let fail = |at: &str, problem: String| Err((at.to_string(), problem));
        if self.schema != SCHEMA {
            return fail(
                "schema",
                format!("expected \"{SCHEMA}\", got \"{}\"", self.schema),
            );
        }
        if self.runner != RUNNER {
            return fail(
                "runner",
                format!(
                    "the plan is for runner \"{}\", this is runner \"{RUNNER}\" (make its plan with `bee-bench plan --runner {RUNNER}`)",
                    self.runner
                ),
            );
        }
        let hex = |c: u8| c.is_ascii_digit() || (b'a'..=b'f').contains(&c);
        if self.spec_hash.len() != 64 || !self.spec_hash.bytes().all(hex) {
            return fail("spec_hash", "must be a lowercase hex SHA-256".into());
        }
        for (i, u) in self.units.iter().enumerate() {
            let previous = i.checked_sub(1).map(|j| &self.units[j]);
            u.check(previous)
                .or_else(|(field, problem)| fail(&format!("units[{i}].{field}"), problem))?;
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

    fn check(&self, previous: Option<&Unit>) -> Result<(), (&'static str, String)> {
        if let Some(p) = previous.filter(|p| p.unit >= self.unit) {
            let problem = format!("unit numbers must increase ({} then {})", p.unit, self.unit);
            return Err(("unit", problem));
        }
        let prefix = match self.kind {
            Kind::Cpu => "cpu.",
            Kind::Net => "net.",
        };
        let name_ok = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-')
        };
        if !self.id.strip_prefix(prefix).is_some_and(name_ok) {
            let problem = format!(
                "\"{}\" is not a {prefix}<name> id matching the kind",
                self.id
            );
            return Err(("id", problem));
        }
        check_param(&self.param).map_err(|p| ("param", p))?;
        if let Some(d) = &self.digest {
            check_param(&d.param).map_err(|p| ("digest.param", p))?;
        }
        for (field, v) in [
            ("work.ops", &self.work.ops),
            ("work.bytes", &self.work.bytes),
        ] {
            if v.as_ref()
                .is_some_and(|n| !n.as_f64().is_some_and(|f| f >= 0.0))
            {
                return Err((field, "must be a non-negative number".into()));
            }
        }
        if !Duration::try_from_secs_f64(self.timeout_s).is_ok_and(|d| !d.is_zero()) {
            return Err(("timeout_s", "must be a positive number of seconds".into()));
        }
        for (field, v) in [
            ("slowdown", self.slowdown),
            ("alloc_extra", self.alloc_extra),
        ] {
            if !(v >= 0.0 && v.is_finite()) {
                return Err((field, "must be a non-negative fraction".into()));
            }
        }
        Ok(())
    }
}

/// Scalar values, with a non-empty string `label`.
fn check_param(p: &Param) -> Result<(), String> {
    if let Some((key, _)) = p
        .iter()
        .find(|(_, v)| v.is_object() || v.is_array() || v.is_null())
    {
        return Err(format!("\"{key}\" must be a number, string or boolean"));
    }
    match p.get("label").and_then(Value::as_str) {
        Some(label) if !label.is_empty() => Ok(()),
        _ => Err("needs a non-empty string \"label\"".into()),
    }
}
