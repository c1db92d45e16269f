//! The param-to-bee-rs-option mapping, checked on the headers bee-rs's own header preparation
//! makes of the options (what the node would receive).

use bee::api::{
    prepare_download_headers, prepare_file_upload_headers, prepare_redundant_upload_headers,
};
use bee::swarm::BatchId;
use serde_json::{Value, json};

use super::*;

fn param(v: Value) -> Param {
    match v {
        Value::Object(m) => m,
        _ => panic!("a param is an object"),
    }
}

/// Header (name, value) pairs.
type Headers = Vec<(&'static str, String)>;

fn batch() -> BatchId {
    BatchId::new(&[7; 32]).unwrap()
}

/// The Swarm-* headers of a list, as (name, value), the batch left out.
fn swarm(headers: Headers) -> Headers {
    headers
        .into_iter()
        .filter(|(k, _)| k.starts_with("Swarm-") && *k != "Swarm-Postage-Batch-Id")
        .collect()
}

/// The /bytes and the /bzz upload headers of a param.
fn upload_headers(p: Value) -> (Headers, Headers) {
    let u: Upload = from_param(&param(p)).unwrap();
    (
        swarm(prepare_redundant_upload_headers(
            &batch(),
            Some(&u.bytes_options()),
        )),
        swarm(prepare_file_upload_headers(
            &batch(),
            Some(&u.file_options()),
        )),
    )
}

fn download_headers(p: Value) -> Headers {
    let d: Download = from_param(&param(p)).unwrap();
    swarm(prepare_download_headers(Some(&d.options())))
}

#[test]
fn absent_params_send_no_header() {
    let (bytes, bzz) = upload_headers(json!({ "label": "1 MiB", "bytes": 1048576 }));
    assert_eq!(bytes, vec![]);
    assert_eq!(bzz, vec![]);
    assert_eq!(
        download_headers(json!({ "label": "1 MiB", "bytes": 1048576 })),
        vec![]
    );
}

#[test]
fn levels_1_to_4_are_the_level_header_on_both_upload_endpoints() {
    for level in 1..=4u8 {
        let (bytes, bzz) = upload_headers(json!({ "bytes": 1, "redundancy_level": level }));
        let want = vec![("Swarm-Redundancy-Level", level.to_string())];
        assert_eq!(bytes, want, "level {level} on /bytes");
        assert_eq!(bzz, want, "level {level} on /bzz");
    }
}

/// bee-rs cannot send level 0 explicitly (RedundancyLevel::Off omits the header): the node's
/// default, level 0, applies all the same.
#[test]
fn level_0_is_bee_rs_off_which_sends_no_header() {
    let u: Upload = from_param(&param(json!({ "redundancy_level": 0 }))).unwrap();
    assert_eq!(
        u.bytes_options().redundancy_level,
        Some(RedundancyLevel::Off)
    );
    assert_eq!(upload_headers(json!({ "redundancy_level": 0 })).0, vec![]);
}

#[test]
fn deferred_is_the_upload_mode_header_either_way() {
    for deferred in [true, false] {
        let (bytes, bzz) = upload_headers(json!({ "deferred": deferred }));
        let want = vec![("Swarm-Deferred-Upload", deferred.to_string())];
        assert_eq!(bytes, want);
        assert_eq!(bzz, want);
    }
    let u: Upload = from_param(&param(json!({ "deferred": false }))).unwrap();
    assert!(u.direct());
    let u: Upload = from_param(&param(json!({}))).unwrap();
    assert!(
        !u.direct(),
        "absent is the node's default, not a direct upload"
    );
}

#[test]
fn strategies_and_fallback_are_the_download_headers() {
    for (name, number) in [("NONE", "0"), ("DATA", "1"), ("PROX", "2"), ("RACE", "3")] {
        assert_eq!(
            download_headers(json!({ "strategy": name, "fallback": false })),
            vec![
                ("Swarm-Redundancy-Strategy", number.to_string()),
                ("Swarm-Redundancy-Fallback-Mode", "false".to_string()),
            ],
            "{name}"
        );
    }
    assert_eq!(
        download_headers(json!({ "fallback": true })),
        vec![("Swarm-Redundancy-Fallback-Mode", "true".to_string())]
    );
}

#[test]
fn a_download_case_uploads_at_its_level_deferred() {
    let d: Download =
        from_param(&param(json!({ "redundancy_level": 3, "strategy": "RACE" }))).unwrap();
    let headers = swarm(prepare_redundant_upload_headers(
        &batch(),
        Some(&d.upload().bytes_options()),
    ));
    assert_eq!(
        headers,
        vec![
            ("Swarm-Deferred-Upload", "true".to_string()),
            ("Swarm-Redundancy-Level", "3".to_string()),
        ]
    );
}

#[test]
fn the_encrypted_case_adds_encryption_to_the_params() {
    let u = Upload {
        encrypt: true,
        ..from_param(&param(json!({ "redundancy_level": 1 }))).unwrap()
    };
    let headers = swarm(prepare_file_upload_headers(
        &batch(),
        Some(&u.file_options()),
    ));
    assert_eq!(
        headers,
        vec![
            ("Swarm-Encrypt", "true".to_string()),
            ("Swarm-Redundancy-Level", "1".to_string()),
        ]
    );
}

#[test]
fn bad_values_are_refused_naming_the_param() {
    let upload = |v: Value| from_param::<Upload>(&param(v)).unwrap_err().to_string();
    let download = |v: Value| from_param::<Download>(&param(v)).unwrap_err().to_string();
    let e = upload(json!({ "redundancy_level": 5 }));
    assert!(
        e.starts_with("param \"redundancy_level\": ") && e.contains("0..4"),
        "{e}"
    );
    let e = upload(json!({ "redundancy_level": "2" }));
    assert!(e.starts_with("param \"redundancy_level\": "), "{e}");
    let e = upload(json!({ "deferred": "false" }));
    assert!(e.starts_with("param \"deferred\": "), "{e}");
    let e = download(json!({ "strategy": "FAST" }));
    assert!(
        e.starts_with("param \"strategy\": ") && e.contains("RACE"),
        "{e}"
    );
    let e = download(json!({ "strategy": "data" }));
    assert!(e.starts_with("param \"strategy\": "), "{e}");
    let e = download(json!({ "fallback": 1 }));
    assert!(e.starts_with("param \"fallback\": "), "{e}");
}

fn response(status: u16, body: &str) -> bee::Error {
    bee::Error::Response {
        method: "POST".into(),
        url: "http://127.0.0.1:1633/bytes".into(),
        status,
        status_text: format!("{status}"),
        body: body.as_bytes().to_vec(),
    }
}

#[test]
fn only_a_dev_nodes_refusal_of_direct_uploads_is_a_skip() {
    let dev = r#"{"code":400,"message":"operation not supported in dev mode"}"#;
    assert!(refuses_direct_upload(&response(400, dev)));
    let other = r#"{"code":400,"message":"invalid header params"}"#;
    assert!(!refuses_direct_upload(&response(400, other)));
    assert!(!refuses_direct_upload(&response(500, dev)));
}
