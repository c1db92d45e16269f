//! Panics contained to the case that caused them. Panics in the case's own code come back as
//! a JoinError or through catch_unwind; a panic in a task the case detached (tokio keeps the
//! process alive, like Node's unhandled-rejection handler does) is noticed through the panic
//! hook, which records it for the harness to fail the running case with.

use std::any::Any;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use tokio::sync::Notify;

static RECORDED: Mutex<Option<String>> = Mutex::new(None);

fn notify() -> &'static Notify {
    static NOTIFY: OnceLock<Notify> = OnceLock::new();
    NOTIFY.get_or_init(Notify::new)
}

/// Record every panic (then print it as usual).
pub fn install_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = payload_message(info.payload());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        *RECORDED.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{message}{at}"));
        notify().notify_waiters();
        default(info);
    }));
}

/// The panic recorded since the last call, if any.
pub fn take() -> Option<String> {
    RECORDED.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// BEE_BENCH_FAULT=<glob>:reject: leak a panic from a detached task, and wait until it has
/// happened so the iteration that leaked it is the one that notices.
pub async fn leak_from_detached_task() {
    let happened = notify().notified();
    drop(tokio::spawn(async {
        panic!("BEE_BENCH_FAULT: injected panic in a detached task")
    }));
    let _ = tokio::time::timeout(Duration::from_secs(5), happened).await;
}

pub fn payload_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-string payload".into())
}

/// A blocking or spawned task that did not return: its panic message, or its cancellation.
pub fn join_error(e: tokio::task::JoinError) -> anyhow::Error {
    match e.try_into_panic() {
        Ok(payload) => anyhow::anyhow!("panic: {}", payload_message(payload.as_ref())),
        Err(e) => anyhow::anyhow!("task cancelled: {e}"),
    }
}
