// The measurement modes the engine sets in the runner's environment, parsed and checked.

package harness

import "strconv"

// Modes are the measurement modes and channels the engine sets in the runner's environment
// (runners/README.md "Hooks"); the test and calibration hooks come in the plan.
type Modes struct {
	// BEE_BENCH_PACE_FD=<n>: take turns with another runner over file descriptor PaceFD (pace.go).
	Pace   bool
	PaceFD int
	// BEE_BENCH_COUNT=1: callgrind requests around each timed CPU iteration (package count).
	Count bool
	// BEE_BENCH_ALLOCS=1: heap allocations of each timed CPU iteration (package alloc).
	Allocs bool
}

// ParseModes reads the modes through getenv; a malformed value is a *UsageError naming the
// variable.
func ParseModes(getenv func(string) string) (Modes, error) {
	var m Modes
	bad := func(name, msg string) error { return &UsageError{Flag: name, Msg: msg} }
	if v := getenv("BEE_BENCH_PACE_FD"); v != "" {
		// Digits only (no sign), and small enough to be a descriptor on every platform.
		n, err := strconv.ParseUint(v, 10, 31)
		if err != nil {
			return m, bad("BEE_BENCH_PACE_FD", "must be a non-negative integer (a file descriptor), got "+strconv.Quote(v))
		}
		m.Pace, m.PaceFD = true, int(n)
	}
	for _, f := range []struct {
		name string
		on   *bool
	}{{"BEE_BENCH_COUNT", &m.Count}, {"BEE_BENCH_ALLOCS", &m.Allocs}} {
		switch v := getenv(f.name); v {
		case "", "0":
		case "1":
			*f.on = true
		default:
			return m, bad(f.name, "must be 1 or 0, got "+strconv.Quote(v))
		}
	}
	if m.Count && m.Allocs {
		// The engine never combines them: each reading would land in the other's region.
		return m, bad("BEE_BENCH_ALLOCS", "not together with BEE_BENCH_COUNT=1: count allocations in a process of their own")
	}
	return m, nil
}
