//! The payload rule against vectors computed outside this crate (Python's hashlib), and the
//! reading of ops lines. The protocol end to end, against a fake node: tests/ops.rs.

use super::*;

fn seed(hex: &str) -> [u8; 32] {
    hex::decode(hex).unwrap().try_into().unwrap()
}

/// seed 01 02 … 20, 70 bytes: two whole blocks and 6 bytes of the third.
#[test]
fn the_payload_is_the_seeds_sha256_blocks_cut_to_size() {
    let s = seed("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
    assert_eq!(
        hex::encode(payload(&s, 70).unwrap()),
        "844da2c262d161f4f1f2c4cec50fa4aaa03f3b77184d1b2e0a23fa7ad9665ae4\
         3c0e908ecfc11ef0cc504188a92450f3d7af2287c6b5e84d4e382995afe3d4b0\
         c1c63c009324"
    );
    assert_eq!(payload(&s, 0).unwrap(), Vec::<u8>::new());
    assert_eq!(payload(&s, 32).unwrap()[..], payload(&s, 70).unwrap()[..32]);
    let zero = [0u8; 32];
    assert_eq!(
        hex::encode(Sha256::digest(payload(&zero, 100_000).unwrap())),
        "ea4600bd9bc233d03afadae352c50b5fc1f3aa3e62f64c0654171a8384d9ed7b"
    );
}

fn op(line: &str) -> Result<Op, String> {
    serde_json::from_str(line).map_err(|e| e.to_string())
}

#[test]
fn ops_lines_are_read_strictly() {
    let up = r#"{"op":"upload","id":"u1","size":10,"seed":"00000000000000000000000000000000000000000000000000000000000000ff","level":4,"deferred":false,"endpoint":"bzz"}"#;
    let Ok(Op::Upload(u)) = op(up) else {
        panic!("{up}")
    };
    assert_eq!(
        (u.size, u.seed.0[31], u.level, u.deferred, u.endpoint),
        (
            10,
            0xff,
            Some(Level(bee::api::RedundancyLevel::Paranoid)),
            Some(false),
            Endpoint::Bzz
        )
    );
    let Ok(Op::Download(d)) =
        op(r#"{"op":"download","id":"d1","reference":"ab","strategy":"PROX","timeout_ms":5}"#)
    else {
        panic!()
    };
    assert_eq!(
        (d.endpoint, d.strategy, d.fallback, d.timeout_ms),
        (Endpoint::Bytes, Some(Strategy::Prox), None, Some(5))
    );

    for (line, problem) in [
        (r#"{"op":"delete","id":"x"}"#, "unknown variant `delete`"),
        (r#"{"id":"x"}"#, "missing field `op`"),
        (
            r#"{"op":"download","id":"d","reference":"ab","colour":"red"}"#,
            "unknown field `colour`",
        ),
        (
            r#"{"op":"upload","id":"u","size":1,"seed":"ab"}"#,
            "a seed is 64 hex digits, got 2",
        ),
        (
            r#"{"op":"upload","id":"u","size":1,"seed":"zz"}"#,
            "a seed is 64 hex digits",
        ),
        (
            r#"{"op":"upload","id":"u","size":-1,"seed":"ab"}"#,
            "invalid value",
        ),
        (
            r#"{"op":"upload","id":"u","size":1,"seed":"0000000000000000000000000000000000000000000000000000000000000000","level":5}"#,
            "0..4",
        ),
        (
            r#"{"op":"download","id":"d","reference":"ab","strategy":"FAST"}"#,
            "unknown variant `FAST`",
        ),
        (
            r#"{"op":"download","id":"d","reference":"ab","endpoint":"chunks"}"#,
            "unknown variant `chunks`",
        ),
    ] {
        let e = op(line).expect_err(line);
        assert!(e.contains(problem), "{line}: {e}");
    }
}

#[test]
fn ms_keeps_microseconds() {
    assert_eq!(ms(Duration::from_nanos(12_345_678)), 12.346);
    assert_eq!(ms(Duration::from_secs(2)), 2000.0);
}
