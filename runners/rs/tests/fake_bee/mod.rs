//! A small fake Bee node on 127.0.0.1:0 for the runner's tests (std threads, HTTP/1.1 with
//! keep-alive, Content-Length bodies): what bee-rs sends is recorded, uploads are kept by
//! reference (the SHA-256 of the body) and served back, and it can misbehave as a test asks.
//!
//! - `POST /bytes`, `POST /bzz`: 400 "operation not supported in dev mode" to a direct upload
//!   (`Swarm-Deferred-Upload: false`), as a `bee dev` node answers; else 201 with the reference
//!   and `Swarm-Tag: 77`.
//! - `GET /bytes/{ref}`, `GET /bzz/{ref}`: the upload, written in 1000-byte pieces (its last
//!   byte flipped while `corrupt` is set); [`HANG`] sends its headers and 10 bytes, then waits for
//!   the client to go (30 s at most); an unknown reference is a 404 with Bee's JSON message.
//! - `GET /health`: a version.

#![allow(dead_code)] // each test crate uses its own part

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

/// A reference whose download never finishes.
pub const HANG: &str = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

/// A batch id the fake takes.
pub const BATCH: &str = "0707070707070707070707070707070707070707070707070707070707070707";

/// One request as the fake received it; header names lowercase.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: HashMap<String, String>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(String::as_str)
    }
}

#[derive(Default)]
struct State {
    requests: Mutex<Vec<Request>>,
    stored: Mutex<HashMap<String, Vec<u8>>>,
    corrupt: AtomicBool,
}

pub struct FakeBee {
    pub url: String,
    state: Arc<State>,
}

impl FakeBee {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(State::default());
        let shared = state.clone();
        // The thread ends with the test process.
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let state = shared.clone();
                std::thread::spawn(move || serve(stream, &state));
            }
        });
        Self { url, state }
    }

    pub fn requests(&self) -> Vec<Request> {
        self.state.requests.lock().unwrap().clone()
    }

    /// Flip the last byte of every download from now on.
    pub fn corrupt(&self, on: bool) {
        self.state.corrupt.store(on, Ordering::SeqCst);
    }
}

fn serve(stream: TcpStream, state: &State) {
    let _ = stream.set_nodelay(true);
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut out = stream;
    while let Some(request) = read_request(&mut reader) {
        state.requests.lock().unwrap().push(request.clone());
        if !respond(&request, state, &mut reader, &mut out) {
            return;
        }
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next()?.to_string(), parts.next()?.to_string());
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
    }
    let len: usize = headers
        .get("content-length")
        .map_or(0, |v| v.parse().unwrap());
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body,
    })
}

fn json(out: &mut TcpStream, status: &str, body: &str, extra: &str) -> bool {
    write!(
        out,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n{body}",
        body.len()
    )
    .is_ok()
}

/// Answer one request; false when the connection is done.
fn respond(
    request: &Request,
    state: &State,
    reader: &mut BufReader<TcpStream>,
    out: &mut TcpStream,
) -> bool {
    let path = request.path.split('?').next().unwrap_or_default();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match (request.method.as_str(), segments.as_slice()) {
        ("GET", ["health"]) => json(
            out,
            "200 OK",
            r#"{"status":"ok","version":"2.8.0-fake","apiVersion":"7.3.0"}"#,
            "",
        ),
        ("POST", ["bytes" | "bzz"]) => {
            if request.header("swarm-deferred-upload") == Some("false") {
                return json(
                    out,
                    "400 Bad Request",
                    r#"{"code":400,"message":"operation not supported in dev mode"}"#,
                    "",
                );
            }
            let reference = hex::encode(Sha256::digest(&request.body));
            state
                .stored
                .lock()
                .unwrap()
                .insert(reference.clone(), request.body.clone());
            json(
                out,
                "201 Created",
                &format!(r#"{{"reference":"{reference}"}}"#),
                "Swarm-Tag: 77\r\n",
            )
        }
        ("GET", ["bytes" | "bzz", reference]) if *reference == HANG => {
            let _ = write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n0123456789"
            );
            let _ = out.flush();
            // Until the client closes the connection, 30 s at most.
            let deadline = Instant::now() + Duration::from_secs(30);
            let _ = reader
                .get_ref()
                .set_read_timeout(Some(Duration::from_millis(100)));
            let mut byte = [0u8; 1];
            while Instant::now() < deadline {
                match reader.get_mut().read(&mut byte) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) => {}
                    Err(_) => break,
                }
            }
            false
        }
        ("GET", ["bytes" | "bzz", reference]) => {
            let Some(mut body) = state.stored.lock().unwrap().get(*reference).cloned() else {
                return json(
                    out,
                    "404 Not Found",
                    r#"{"code":404,"message":"Not Found"}"#,
                    "",
                );
            };
            if state.corrupt.load(Ordering::SeqCst)
                && let Some(last) = body.last_mut()
            {
                *last ^= 1;
            }
            if write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
                body.len()
            )
            .is_err()
            {
                return false;
            }
            body.chunks(1000)
                .all(|piece| out.write_all(piece).and_then(|()| out.flush()).is_ok())
        }
        _ => json(
            out,
            "404 Not Found",
            r#"{"code":404,"message":"Not Found"}"#,
            "",
        ),
    }
}
