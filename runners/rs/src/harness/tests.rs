// Tests of the harness: quick-profile digests, counted and allocation-counting runs.

use super::*;
use crate::fixtures::Fixtures;
use crate::plan::FixtureLabels;
use serde_json::{Value, json};
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

fn cx() -> Context {
    let labels = FixtureLabels {
        data_label: "bee-bench/fixture".into(),
        key_label: "bee-bench/key".into(),
        digest_label: "bee-bench/digest".into(),
        chunk_payload_bytes: 4096,
    };
    Context::new(Fixtures::new(labels), None)
}

/// A CPU unit through the plan reader, run on its digest param.
fn unit(id: &str, form: &str, param: Value) -> Unit {
    serde_json::from_value(json!({
        "unit": 0, "id": id, "kind": "cpu", "param": param,
        "digest": { "form": form, "param": param }, "work": {},
        "warmup": 0, "iters": 1, "timeout_s": 60
    }))
    .unwrap()
}

/// The quick-profile digests, on the quick plan's digest params. Keccak, chunk addresses,
/// the BMT root and the signer addresses equal runners/go's, whose values were reproduced
/// by an independent Python implementation; the manifest root is bee-rs's own (bee-rs's
/// offline manifest carries no per-file metadata, bee-go's carries Content-Type and
/// Filename).
#[tokio::test(flavor = "multi_thread")]
async fn quick_profile_digests() {
    let chunks = json!({ "label": "quick", "count": 4, "chunk_bytes": 4096 });
    let mib = json!({ "label": "quick", "bytes": 1048576 });
    let four = json!({ "label": "quick", "count": 4 });
    let signers = "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c";
    let chunk_addresses = "07ca447bd3881f0650284426136a85d1cdf876c6c707249058042f5e540b3f1d";
    let cases = [
        (
            "cpu.keccak.chunk-hash",
            "sha256-concat",
            &chunks,
            chunk_addresses,
        ),
        (
            "cpu.keccak.parallel",
            "sha256-concat",
            &chunks,
            chunk_addresses,
        ),
        (
            "cpu.keccak.bulk",
            "value",
            &mib,
            "89f6e8a44741ac138d37f0f6ccf6a684831fef105455c88603008f8fbc72ea6c",
        ),
        (
            "cpu.bmt.file-root",
            "value",
            &mib,
            "4dd8436c25ddfaf5074f5364b7698a3c080350a14ec52840e8ba6fe777c54363",
        ),
        ("cpu.ecdsa.sign", "sha256-concat", &four, signers),
        ("cpu.ecdsa.verify", "sha256-concat", &four, signers),
        ("cpu.identity.create", "sha256-concat", &four, signers),
        (
            "cpu.manifest.hash",
            "value",
            &json!({ "label": "quick", "files": 50, "file_bytes": 1024 }),
            "0b94b65ea96d381135c3c2604fc33bcc75ea8d366427d28080a20c8839adc550",
        ),
        (
            "cpu.manifest.lookup-large",
            "sha256-concat",
            &json!({ "label": "quick", "entries": 5000, "lookups": 1000 }),
            "4c84884022e699851abfbf93b321433aa298a4f5d10a0eac20c23e058e317226",
        ),
    ];
    let cx = cx();
    for (id, form, param, want) in cases {
        let unit = unit(id, form, param.clone());
        let mut bench = cases::setup(id, &cx, &unit.param).await.unwrap();
        let got = digest(&unit, &cx, &mut bench).await.unwrap();
        assert_eq!(got.as_deref(), Some(want), "{id}");
    }
}

fn cpu(op: impl Fn() + Send + Sync + 'static) -> Bench {
    Bench::Cpu(Arc::new(move |_: &mut Sink| {
        op();
        Ok(())
    }))
}

/// The allocations of a timed iteration of `bench`, counted as the runner counts them.
fn counted(rt: &tokio::runtime::Runtime, bench: &mut Bench, alloc_extra: f64) -> Allocs {
    let timing = Timing {
        alloc_extra: Some(alloc_extra),
        ..Timing::default()
    };
    rt.block_on(iterate(bench, Sink::discard(), timing))
        .unwrap()
        .allocs
        .unwrap()
}

/// One test, as regions are process-wide: known allocations read back exactly, through the
/// runner's own runtime, iteration and global allocator.
#[test]
fn allocation_counting_reads_back_what_the_operation_allocated() {
    let modes = Modes {
        allocs: true,
        ..Modes::default()
    };
    let rt = runtime(&modes).unwrap();
    let vectors = |n: usize, size: usize| {
        for _ in 0..n {
            black_box(vec![1u8; black_box(size)]);
        }
    };
    let mut hundred = cpu(move || vectors(100, 3000));
    let want = Allocs {
        count: 100,
        bytes: 300_000,
    };
    assert_eq!(counted(&rt, &mut hundred, 0.0), want);
    assert_eq!(counted(&rt, &mut hundred, 0.0), want, "the same again");
    // alloc_extra: one more allocation of that fraction of the bytes.
    let padded = Allocs {
        count: 101,
        bytes: 330_000,
    };
    assert_eq!(counted(&rt, &mut hundred, 0.1), padded);
    assert_eq!(
        counted(&rt, &mut cpu(|| ()), 0.5).count,
        0,
        "nothing to pad"
    );

    // A realloc is one allocation of the bytes it adds, of none when it shrinks.
    let (steps, capacity) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let (s, c) = (steps.clone(), capacity.clone());
    let mut growing = cpu(move || {
        let (mut v, mut changes, mut last) = (Vec::<u64>::new(), 0, 0);
        for i in 0..1000 {
            v.push(i);
            changes += usize::from(v.capacity() != last);
            last = v.capacity();
        }
        c.store(v.capacity(), Ordering::Relaxed);
        v.truncate(10);
        v.shrink_to_fit();
        s.store(changes + 1, Ordering::Relaxed);
        black_box(v);
    });
    let got = counted(&rt, &mut growing, 0.0);
    let capacity = capacity.load(Ordering::Relaxed) as u64;
    assert_eq!(got.count, steps.load(Ordering::Relaxed) as u64);
    assert_eq!(got.bytes, capacity * 8);

    // Threads the operation starts count through alloc::inherit; other threads never do.
    let threaded = |per_thread: usize| {
        cpu(move || {
            std::thread::scope(|s| {
                for _ in 0..2 {
                    s.spawn(crate::alloc::inherit(move || vectors(per_thread, 500)));
                }
                s.spawn(move || vectors(per_thread, 70));
            });
        })
    };
    let (without, with) = (
        counted(&rt, &mut threaded(0), 0.0),
        counted(&rt, &mut threaded(40), 0.0),
    );
    assert_eq!(with.count - without.count, 80);
    assert_eq!(with.bytes - without.bytes, 80 * 500);
    assert_eq!(counted(&rt, &mut threaded(40), 0.0), with);
}
