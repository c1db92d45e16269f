// Tests of the bee-rs CPU cases: the parallel path, manifest lookups, signer and verifier.

use super::*;
use crate::cases::Sink;
use crate::fixtures::Fixtures;
use crate::plan::FixtureLabels;
use serde_json::json;

fn cx() -> Context {
    Context::new(
        Fixtures::new(FixtureLabels {
            data_label: "bee-bench/fixture".into(),
            key_label: "bee-bench/key".into(),
            digest_label: "bee-bench/digest".into(),
            chunk_payload_bytes: 4096,
        }),
        None,
    )
}

fn output(f: fn(&Context, &Param) -> anyhow::Result<Bench>, p: serde_json::Value) -> Vec<u8> {
    let Bench::Cpu(op) = f(&cx(), p.as_object().unwrap()).unwrap() else {
        panic!("not a cpu case")
    };
    let mut sink = Sink::collect();
    op(&mut sink).unwrap();
    sink.into_output().unwrap()
}

#[test]
fn parallel_path_yields_the_sequential_addresses() {
    let p = json!({ "count": 7, "chunk_bytes": 4096 });
    let sequential = output(chunk_hash, p.clone());
    assert_eq!(sequential.len(), 7 * 32);
    assert_eq!(output(chunk_hash_parallel, p), sequential);
}

#[test]
fn lookup_hits_return_their_target_and_misses_zeros() {
    let out = output(manifest_lookup, json!({ "entries": 100, "lookups": 5 }));
    let targets = crate::fixtures::stream("bee-bench/fixture", 3200);
    for j in 0..4 {
        let i = j * 7919 % 100;
        assert_eq!(
            &out[32 * j..32 * (j + 1)],
            &targets[32 * i..32 * (i + 1)],
            "lookup {j}"
        );
    }
    assert_eq!(&out[128..160], &[0; 32]);
}

#[test]
fn signer_and_verifier_agree_on_the_addresses_of_identities() {
    let addresses = output(identity, json!({ "count": 4 }));
    let signed = output(sign, json!({ "count": 4 }));
    let verified = output(verify, json!({ "count": 4 }));
    assert_eq!(signed, addresses);
    assert_eq!(verified, addresses);
}
