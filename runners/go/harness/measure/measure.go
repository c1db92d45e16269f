// Package measure reads the clocks and memory figures of the timing rules (runners/README.md):
// process CPU time (user+sys), peak RSS per case, a busy-spin for calibrated slowdowns, and the
// settling pause before a counted region.
package measure

import "time"

// Spin burns CPU on the calling goroutine for d (CPU work, not sleep).
func Spin(d time.Duration) {
	if d <= 0 {
		return
	}
	start := time.Now()
	x := uint64(1)
	for time.Since(start) < d {
		for i := 0; i < 64; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	sink = x
}

//lint:ignore U1000 written, never read: keeps the spin loop from being dropped
var sink uint64

// Settle runs right before each region that counts instructions or allocations, outside it: a
// short sleep, so that the scheduler threads woken by the last step (spinning in search of work)
// have parked again, and goroutines made runnable by it (the runtime's, a case's) have run,
// before the count starts, rather than landing inside the region in some iterations only.
//
// It also grows the goroutine's stack ahead of the region: the first iteration after a unit
// starts (or after a collection shrank the stack) would otherwise copy it inside the region, and
// the copy's cost depends on what the stack holds (bee-go's noop counted 25,710 or 26,380
// instructions in its first step, 1,643 after).
func Settle() {
	time.Sleep(5 * time.Millisecond)
	growStack(0)
}

// stackSink keeps growStack's frame from being optimised away.
//
//lint:ignore U1000 written, never read, on purpose
var stackSink byte

// growStack needs a 256 KiB frame, so the runtime grows the stack to hold it once, here.
//
//go:noinline
func growStack(i int) {
	var frame [256 << 10]byte
	frame[i] = 1
	stackSink = frame[(i*7919)%len(frame)]
}
