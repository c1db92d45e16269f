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

var sink uint64

// Settle runs right before each region that counts instructions or allocations, outside it: a
// short sleep, so that the scheduler threads woken by the last step (spinning in search of work)
// have parked again, and goroutines made runnable by it (the runtime's, a case's) have run,
// before the count starts, rather than landing inside the region in some iterations only.
func Settle() {
	time.Sleep(5 * time.Millisecond)
}
