// Package measure reads the clocks and memory figures of the timing rules (runners/README.md):
// process CPU time (user+sys), peak RSS per case, and a busy-spin for calibrated slowdowns.
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
