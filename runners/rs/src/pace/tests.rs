// Tests of lock-step pacing.

use super::*;
use std::io::BufReader;
use std::net::Shutdown;
use std::os::fd::{IntoRawFd as _, OwnedFd};
use std::os::unix::net::UnixStream;
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

/// A pacer on one end of a socket pair, waiting on a thread through `steps` (unit, step)
/// pairs; each finished wait is reported on the channel.
fn paced(
    pacer: Pacer,
    steps: Vec<(usize, u32)>,
) -> (mpsc::Receiver<(usize, u32)>, thread::JoinHandle<()>) {
    let pacer = Arc::new(pacer);
    let (tx, rx) = mpsc::channel();
    let waiter = thread::spawn(move || {
        for (unit, step) in steps {
            pacer.wait(unit, step);
            tx.send((unit, step)).unwrap();
        }
    });
    (rx, waiter)
}

fn line(reader: &mut impl std::io::BufRead) -> String {
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    line
}

#[test]
fn announces_each_step_and_blocks_until_answered() {
    let (ours, mut theirs) = UnixStream::pair().unwrap();
    let pacer = Pacer::inherit(ours.into_raw_fd());
    let steps = vec![(0, 0), (0, 1), (0, 2), (2, 0)];
    let (done, waiter) = paced(pacer, steps.clone());
    let mut reader = BufReader::new(theirs.try_clone().unwrap());
    for (unit, step) in steps {
        assert_eq!(line(&mut reader), format!("ready {unit} {step}\n"));
        assert_eq!(
            done.recv_timeout(Duration::from_millis(100)),
            Err(mpsc::RecvTimeoutError::Timeout),
            "waits for its turn at {unit} {step}"
        );
        theirs.write_all(b"x").unwrap();
        assert_eq!(done.recv_timeout(Duration::from_secs(10)), Ok((unit, step)));
    }
    waiter.join().unwrap();
}

#[test]
fn end_of_file_ends_the_pacing_and_nothing_more_is_written() {
    let (ours, mut theirs) = UnixStream::pair().unwrap();
    let pacer = Pacer::on(File::from(OwnedFd::from(ours)));
    let (done, waiter) = paced(pacer, vec![(0, 0), (0, 1), (0, 2), (1, 0)]);
    let mut reader = BufReader::new(theirs.try_clone().unwrap());
    assert_eq!(line(&mut reader), "ready 0 0\n");
    theirs.write_all(b"x").unwrap();
    assert_eq!(line(&mut reader), "ready 0 1\n");
    theirs.shutdown(Shutdown::Write).unwrap();
    // The rest run on by themselves, and the pacer closes its end when it is done.
    waiter.join().unwrap();
    assert_eq!(done.iter().count(), 4);
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    assert_eq!(rest, "", "nothing after the wait that saw end of file");
}

#[test]
fn a_closed_peer_ends_the_pacing() {
    let (ours, theirs) = UnixStream::pair().unwrap();
    let pacer = Pacer::on(File::from(OwnedFd::from(ours)));
    drop(theirs);
    let (done, waiter) = paced(pacer, vec![(0, 0), (0, 1)]);
    waiter.join().unwrap();
    assert_eq!(done.iter().count(), 2);
}

#[test]
fn a_descriptor_that_is_not_open_does_not_pace() {
    let pacer = Pacer::inherit(1 << 20);
    pacer.wait(0, 0);
    assert!(pacer.channel.lock().unwrap().is_none());
    Pacer::default().wait(3, 4);
}
