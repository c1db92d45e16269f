//! The shared case spec (`spec/bench-spec.json`, schema `bee-bench/spec@1`; the zod source is
//! src/spec/schema.ts): loading with the same checks, case selection, effective params, work.

use std::collections::HashSet;
use std::fmt;
use std::path::Path;

use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

pub const RUNNER: &str = "rs";
const SCHEMA: &str = "bee-bench/spec@1";
const RUNNERS: [&str; 3] = ["js", "go", "rs"];

/// Param values as a case runs with them and the result records them (label included).
pub type Param = Map<String, Value>;

#[derive(Debug, Deserialize)]
pub struct Spec {
    pub schema: String,
    pub profiles: PerProfile<ProfileConfig>,
    pub fixtures: FixtureLabels,
    pub groups: Vec<Group>,
    pub cases: Vec<Case>,
}

#[derive(Debug, Deserialize)]
pub struct PerProfile<T> {
    pub quick: T,
    pub full: T,
}

impl<T> PerProfile<T> {
    pub fn get(&self, profile: Profile) -> &T {
        match profile {
            Profile::Quick => &self.quick,
            Profile::Full => &self.full,
        }
    }
}

#[derive(Debug, Deserialize)]
pub struct ProfileConfig {
    pub iters: u32,
    pub warmup: Warmup,
    pub case_timeout_s: f64,
}

#[derive(Debug, Deserialize)]
pub struct Warmup {
    pub cpu: u32,
    pub net: u32,
}

#[derive(Clone, Debug, Deserialize)]
pub struct FixtureLabels {
    pub data_label: String,
    pub key_label: String,
    pub digest_label: String,
    pub chunk_payload_bytes: usize,
}

#[derive(Debug, Deserialize)]
pub struct Group {
    pub id: String,
}

#[derive(Debug, Deserialize)]
pub struct Case {
    pub id: String,
    pub kind: Kind,
    pub group: String,
    pub work: WorkNames,
    pub digest: Option<DigestSpec>,
    #[serde(default)]
    pub iters: Option<PerProfileIters>,
    pub params: PerProfile<Vec<Param>>,
}

#[derive(Debug, Default, Deserialize)]
pub struct PerProfileIters {
    pub quick: Option<u32>,
    pub full: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Cpu,
    Net,
}

#[derive(Debug, Deserialize)]
pub struct WorkNames {
    pub ops: Vec<String>,
    #[serde(default)]
    pub bytes: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
pub struct DigestSpec {
    pub form: DigestForm,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    Quick,
    Full,
}

impl Profile {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "quick" => Some(Self::Quick),
            "full" => Some(Self::Full),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Quick => "quick",
            Self::Full => "full",
        }
    }
}

/// A spec that cannot be used, naming the file and the field.
#[derive(Debug)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub struct LoadedSpec {
    pub spec: Spec,
    /// Hex SHA-256 of the file's bytes.
    pub hash: String,
}

pub fn load(path: &Path) -> Result<LoadedSpec, SpecError> {
    let file = path.display();
    let bytes = std::fs::read(path).map_err(|e| SpecError(format!("{file}: cannot read: {e}")))?;
    let de = &mut serde_json::Deserializer::from_slice(&bytes);
    let spec: Spec = serde_path_to_error::deserialize(de).map_err(|e| {
        let at = e.path().to_string();
        SpecError(format!(
            "{file}: {}: {}",
            if at == "." { "(top level)" } else { &at },
            e.inner()
        ))
    })?;
    spec.validate()
        .map_err(|e| SpecError(format!("{file}: {e}")))?;
    Ok(LoadedSpec {
        spec,
        hash: hex::encode(Sha256::digest(&bytes)),
    })
}

impl Spec {
    /// The checks of src/spec/schema.ts that serde's shape does not already make.
    fn validate(&self) -> Result<(), String> {
        if self.schema != SCHEMA {
            return Err(format!(
                "schema: expected \"{SCHEMA}\", got \"{}\"",
                self.schema
            ));
        }
        for (name, p) in [
            ("quick", &self.profiles.quick),
            ("full", &self.profiles.full),
        ] {
            if p.iters == 0 {
                return Err(format!("profiles.{name}.iters: must be positive"));
            }
            if !(p.case_timeout_s > 0.0 && p.case_timeout_s.is_finite()) {
                return Err(format!(
                    "profiles.{name}.case_timeout_s: must be a positive number"
                ));
            }
        }
        if self.fixtures.chunk_payload_bytes == 0 {
            return Err("fixtures.chunk_payload_bytes: must be positive".into());
        }
        if self.groups.is_empty() || self.cases.is_empty() {
            return Err("groups and cases must not be empty".into());
        }
        let groups: HashSet<&str> = self.groups.iter().map(|g| g.id.as_str()).collect();
        let mut seen = HashSet::new();
        for (i, c) in self.cases.iter().enumerate() {
            let at = format!("cases[{i}] ({})", c.id);
            let prefix = match c.kind {
                Kind::Cpu => "cpu.",
                Kind::Net => "net.",
            };
            let body_ok = c.id.len() > 4
                && c.id[4..].bytes().all(|b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.' || b == b'-'
                });
            if !c.id.starts_with(prefix) || !body_ok {
                return Err(format!(
                    "{at}.id: ids look like cpu.group.name or net.group.name and match the kind"
                ));
            }
            if !seen.insert(c.id.as_str()) {
                return Err(format!("{at}.id: duplicate case id"));
            }
            if !groups.contains(c.group.as_str()) {
                return Err(format!("{at}.group: unknown group \"{}\"", c.group));
            }
            if let Some(iters) = &c.iters {
                if iters.quick == Some(0) || iters.full == Some(0) {
                    return Err(format!("{at}.iters: must be positive"));
                }
            }
            for (profile, params) in [("quick", &c.params.quick), ("full", &c.params.full)] {
                if params.is_empty() {
                    return Err(format!("{at}.params.{profile}: needs at least one param"));
                }
                for (j, p) in params.iter().enumerate() {
                    validate_param(c, p).map_err(|e| format!("{at}.params.{profile}[{j}]{e}"))?;
                }
            }
        }
        Ok(())
    }
}

fn is_scalar(v: &Value) -> bool {
    matches!(v, Value::Number(_) | Value::String(_) | Value::Bool(_))
}

fn scalar_map<'a>(v: &'a Value, what: &str) -> Result<&'a Param, String> {
    let m = v
        .as_object()
        .ok_or_else(|| format!(".{what}: must be an object"))?;
    match m.iter().find(|(_, v)| !is_scalar(v)) {
        Some((k, _)) => Err(format!(".{what}.{k}: must be a number, string or boolean")),
        None => Ok(m),
    }
}

fn validate_param(c: &Case, p: &Param) -> Result<(), String> {
    match p.get("label") {
        Some(Value::String(s)) if !s.is_empty() => {}
        _ => return Err(".label: must be a non-empty string".into()),
    }
    let mut scaled = HashSet::new();
    for (key, value) in p {
        match key.as_str() {
            "large" if !value.is_boolean() => return Err(".large: must be a boolean".into()),
            "per_runner" => {
                let runners = value.as_object().ok_or(".per_runner: must be an object")?;
                for (runner, values) in runners {
                    if !RUNNERS.contains(&runner.as_str()) {
                        return Err(format!(".per_runner.{runner}: unknown runner (js, go, rs)"));
                    }
                    scaled.extend(
                        scalar_map(values, &format!("per_runner.{runner}"))?
                            .keys()
                            .cloned(),
                    );
                }
            }
            "digest_with" => {
                scalar_map(value, "digest_with")?;
            }
            _ if !is_scalar(value) => {
                return Err(format!(".{key}: must be a number, string or boolean"));
            }
            _ => {}
        }
    }
    if c.digest.is_some() {
        let pinned = p.get("digest_with").and_then(Value::as_object);
        if let Some(key) = scaled
            .iter()
            .find(|k| !pinned.is_some_and(|d| d.contains_key(*k)))
        {
            return Err(format!(
                ".digest_with: per_runner scales \"{key}\" but digest_with does not fix it"
            ));
        }
    }
    for name in c.work.ops.iter().chain(c.work.bytes.iter().flatten()) {
        if !p.get(name).is_some_and(Value::is_number) {
            return Err(format!(
                ".{name}: work names \"{name}\" but the param has no number by that name"
            ));
        }
    }
    Ok(())
}

impl Case {
    /// The params a run covers, in spec order; `large` ones only when asked for.
    pub fn params(&self, profile: Profile, large: bool) -> impl Iterator<Item = &Param> {
        self.params
            .get(profile)
            .iter()
            .filter(move |p| large || !p.get("large").is_some_and(|v| v == true))
    }

    pub fn iters(&self, spec: &Spec, profile: Profile) -> u32 {
        let own = self.iters.as_ref().and_then(|i| match profile {
            Profile::Quick => i.quick,
            Profile::Full => i.full,
        });
        own.unwrap_or(spec.profiles.get(profile).iters)
    }

    /// Work per iteration: for `ops` and `bytes`, the product of the named param values.
    pub fn work(&self, p: &Param) -> Work {
        let product = |names: &[String]| -> Option<f64> {
            (!names.is_empty()).then(|| {
                names
                    .iter()
                    .map(|n| p.get(n).and_then(Value::as_f64).unwrap_or(f64::NAN))
                    .product()
            })
        };
        Work {
            ops: product(&self.work.ops),
            bytes: self.work.bytes.as_deref().and_then(product),
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    pub ops: Option<f64>,
    pub bytes: Option<f64>,
}

/// The param runner `rs` runs: the declared values with `per_runner.rs` merged over them.
pub fn effective_param(p: &Param) -> Param {
    let mut out: Param = p
        .iter()
        .filter(|(k, _)| *k != "per_runner" && *k != "digest_with")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if let Some(Value::Object(own)) = p.get("per_runner").and_then(|r| r.get(RUNNER)) {
        out.extend(own.clone());
    }
    out
}

/// The input of the untimed digest evaluation: the effective param with `digest_with` over it.
pub fn digest_param(p: &Param) -> Param {
    let mut out = effective_param(p);
    if let Some(Value::Object(pinned)) = p.get("digest_with") {
        out.extend(pinned.clone());
    }
    out
}

pub fn label(p: &Param) -> &str {
    p.get("label").and_then(Value::as_str).unwrap_or("?")
}

/// `*` matches any run of characters (dots included), `?` one character; the whole id.
pub fn glob_match(glob: &str, text: &str) -> bool {
    let (g, t): (Vec<char>, Vec<char>) = (glob.chars().collect(), text.chars().collect());
    let (mut gi, mut ti) = (0, 0);
    let mut backtrack: Option<(usize, usize)> = None;
    while ti < t.len() {
        match g.get(gi) {
            Some('*') => {
                backtrack = Some((gi, ti));
                gi += 1;
            }
            Some(&c) if c == '?' || c == t[ti] => {
                gi += 1;
                ti += 1;
            }
            _ => match backtrack {
                Some((star, matched)) => {
                    gi = star + 1;
                    ti = matched + 1;
                    backtrack = Some((star, matched + 1));
                }
                None => return false,
            },
        }
    }
    g[gi..].iter().all(|&c| c == '*')
}

/// Cases in spec order matching any glob (all cases for no glob). A glob matching no case is
/// a usage error.
pub fn select<'a>(spec: &'a Spec, globs: &[String]) -> Result<Vec<&'a Case>, String> {
    if let Some(g) = globs
        .iter()
        .find(|g| !spec.cases.iter().any(|c| glob_match(g, &c.id)))
    {
        return Err(format!(
            "--case {g}: matches no case in the spec (ids look like cpu.bmt.file-root)"
        ));
    }
    Ok(spec
        .cases
        .iter()
        .filter(|c| globs.is_empty() || globs.iter().any(|g| glob_match(g, &c.id)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn real_spec() -> LoadedSpec {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec/bench-spec.json");
        load(&path).unwrap_or_else(|e| panic!("{e}"))
    }

    fn param(v: Value) -> Param {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn loads_the_real_spec() {
        let loaded = real_spec();
        assert_eq!(loaded.hash.len(), 64);
        assert_eq!(loaded.spec.cases.len(), 27);
        let noop = &loaded.spec.cases[0];
        assert_eq!(noop.id, "cpu.harness.noop");
        assert_eq!(noop.iters(&loaded.spec, Profile::Quick), 200);
        let bulk = loaded
            .spec
            .cases
            .iter()
            .find(|c| c.id == "cpu.keccak.bulk")
            .unwrap();
        assert_eq!(bulk.iters(&loaded.spec, Profile::Quick), 5);
        assert_eq!(bulk.digest.as_ref().unwrap().form, DigestForm::Value);
        let bmt = loaded
            .spec
            .cases
            .iter()
            .find(|c| c.id == "cpu.bmt.file-root")
            .unwrap();
        assert_eq!(bmt.params(Profile::Full, false).count(), 3);
        assert_eq!(bmt.params(Profile::Full, true).count(), 4);
    }

    #[test]
    fn effective_param_merges_own_per_runner_only() {
        let p = param(json!({
            "label": "quick", "count": 2000, "chunk_bytes": 4096,
            "per_runner": { "js": { "count": 200 }, "rs": { "count": 3000 } },
            "digest_with": { "count": 4 }
        }));
        assert_eq!(
            Value::Object(effective_param(&p)),
            json!({ "label": "quick", "count": 3000, "chunk_bytes": 4096 })
        );
        assert_eq!(
            Value::Object(digest_param(&p)),
            json!({ "label": "quick", "count": 4, "chunk_bytes": 4096 })
        );
        let other =
            param(json!({ "label": "x", "count": 2, "per_runner": { "js": { "count": 1 } } }));
        assert_eq!(
            Value::Object(effective_param(&other)),
            json!({ "label": "x", "count": 2 })
        );
    }

    #[test]
    fn work_is_the_product_of_named_values() {
        let spec = real_spec().spec;
        let case = spec
            .cases
            .iter()
            .find(|c| c.id == "cpu.keccak.chunk-hash")
            .unwrap();
        let p = effective_param(&case.params.quick[0]);
        assert_eq!(
            case.work(&p),
            Work {
                ops: Some(2000.0),
                bytes: Some(2000.0 * 4096.0)
            }
        );
        let bulk = spec
            .cases
            .iter()
            .find(|c| c.id == "cpu.keccak.bulk")
            .unwrap();
        assert_eq!(bulk.work(&effective_param(&bulk.params.quick[0])).ops, None);
    }

    #[test]
    fn globs_match_whole_ids() {
        assert!(glob_match("cpu.*", "cpu.keccak.bulk"));
        assert!(glob_match("*bulk", "cpu.keccak.bulk"));
        assert!(glob_match("cpu.keccak.*", "cpu.keccak.chunk-hash"));
        assert!(glob_match("*.keccak.*", "cpu.keccak.chunk-hash"));
        assert!(glob_match("cpu.?mt.file-root", "cpu.bmt.file-root"));
        assert!(glob_match("*", "net.soc.upload"));
        assert!(glob_match("net.bzz.upload", "net.bzz.upload"));
        assert!(!glob_match("net.bzz.upload", "net.bzz.upload.encrypted"));
        assert!(!glob_match("cpu.keccak", "cpu.keccak.bulk"));
        assert!(!glob_match("?pu.*x", "cpu.keccak.bulk"));
        assert!(glob_match("c*k*k", "cpu.keccak.bulk"));
    }

    #[test]
    fn selection_keeps_spec_order_and_rejects_dead_globs() {
        let spec = real_spec().spec;
        let ids: Vec<_> = select(&spec, &["*.bulk".into(), "cpu.harness.*".into()])
            .unwrap()
            .iter()
            .map(|c| c.id.as_str())
            .collect();
        assert_eq!(ids, ["cpu.harness.noop", "cpu.keccak.bulk"]);
        assert_eq!(select(&spec, &[]).unwrap().len(), 27);
        assert!(
            select(&spec, &["cpu.nope".into()])
                .unwrap_err()
                .contains("cpu.nope")
        );
    }

    #[test]
    fn validation_names_the_field() {
        let spec: Spec = serde_json::from_value(json!({
            "schema": "bee-bench/spec@1",
            "profiles": {
                "quick": { "iters": 5, "warmup": { "cpu": 1, "net": 1 }, "case_timeout_s": 1 },
                "full": { "iters": 5, "warmup": { "cpu": 1, "net": 1 }, "case_timeout_s": 1 }
            },
            "fixtures": { "data_label": "d", "key_label": "k", "digest_label": "g", "chunk_payload_bytes": 4096 },
            "groups": [{ "id": "cpu", "title": "t", "note": "n" }],
            "cases": [{
                "id": "cpu.a.b", "kind": "cpu", "group": "cpu", "doc": "d",
                "work": { "ops": ["count"] }, "digest": { "doc": "d", "form": "value" },
                "params": {
                    "quick": [{ "label": "q", "count": 5, "per_runner": { "js": { "count": 1 } } }],
                    "full": [{ "label": "f", "cnt": 5 }]
                }
            }]
        }))
        .unwrap();
        let err = spec.validate().unwrap_err();
        assert!(err.contains("params.quick[0].digest_with"), "{err}");
    }
}
