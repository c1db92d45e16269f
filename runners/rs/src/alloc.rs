//! Allocation counting of the timed region (BEE_BENCH_ALLOCS=1, runners/README.md
//! "Allocations"): the process's `#[global_allocator]` is the system allocator behind a counter
//! that only counts while a [`Region`] is open, and only on the threads that belong to it: the
//! thread that opened it and the threads the operation starts through [`inherit`]. Tokio's
//! workers, the `block_on` thread and any other thread are never counted. When no region is open
//! (every other mode) an allocation costs one relaxed atomic load more than `System`'s.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

/// What `result.alloc_counter.method` says counted.
pub const METHOD: &str = "bee-bench-rs counting #[global_allocator] over the system allocator: \
    alloc, alloc_zeroed and realloc calls on the timed thread and the threads it starts, \
    bytes requested (a realloc: the bytes it adds)";

pub struct Counting;

static OPEN: AtomicBool = AtomicBool::new(false);
static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

thread_local! {
    // Const-initialised and without a destructor: readable from the allocator at any point of a
    // thread's life, and never allocates itself.
    static IN_REGION: Cell<bool> = const { Cell::new(false) };
}

#[inline]
fn record(bytes: usize) {
    if OPEN.load(Relaxed) && IN_REGION.get() {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(bytes as u64, Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to `System`; counting touches only atomics and a
// const thread-local.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // One allocation of the bytes it adds (0 when it shrinks): a growing Vec counts what it
        // asked for in all, whether the allocator moved it or not.
        record(new_size.saturating_sub(layout.size()));
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// What one region counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocs {
    pub count: u64,
    pub bytes: u64,
}

/// Counting on this thread from `open` to `close` (or drop, should the operation panic). One
/// region at a time in the process; it stays on the thread that opened it.
pub struct Region(PhantomData<*const ()>);

impl Region {
    pub fn open() -> Self {
        ALLOCS.store(0, Relaxed);
        BYTES.store(0, Relaxed);
        IN_REGION.set(true);
        OPEN.store(true, Relaxed);
        Self(PhantomData)
    }

    /// BEE_BENCH_ALLOC (`alloc_extra`): `fraction` x the bytes counted so far, as one allocation
    /// the caller keeps until the region closes.
    pub fn extra(&self, fraction: f64) -> Vec<u8> {
        let len = (fraction * BYTES.load(Relaxed) as f64).round() as usize;
        // black_box: an allocation nothing reads may otherwise be optimised away.
        std::hint::black_box(Vec::with_capacity(len))
    }

    pub fn close(self) -> Allocs {
        OPEN.store(false, Relaxed);
        Allocs {
            count: ALLOCS.load(Relaxed),
            bytes: BYTES.load(Relaxed),
        }
    }
}

impl Drop for Region {
    fn drop(&mut self) {
        OPEN.store(false, Relaxed);
        IN_REGION.set(false);
    }
}

/// `f` to run on another thread, counted there when this thread is in a region now: the worker
/// threads of an operation are part of it. (Threads it joins before returning; a thread's
/// allocations before `f` starts, in its start-up, are not counted, those of spawning it are.)
pub fn inherit<R>(f: impl FnOnce() -> R) -> impl FnOnce() -> R {
    let counted = IN_REGION.get();
    move || {
        IN_REGION.set(counted);
        let out = f();
        IN_REGION.set(false);
        out
    }
}
