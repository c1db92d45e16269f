package harness

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/spec"
)

// Fault modes of BEE_BENCH_FAULT.
const (
	FaultThrow  = "throw"  // the timed iteration returns an error
	FaultHang   = "hang"   // the timed iteration blocks forever (the case times out)
	FaultReject = "reject" // a goroutine the iteration spawns panics (recovered, fails the case)
)

// Hooks are the test and calibration hooks read from the environment (runners/README.md).
type Hooks struct {
	// BEE_BENCH_FAULT=<glob>:<throw|hang|reject>
	FaultGlob, FaultMode string
	// BEE_BENCH_SLOWDOWN=<glob>:<fraction>: busy-spin fraction x the op's own time, timed.
	SlowGlob     string
	SlowFraction float64
	// BEE_BENCH_ITERS=<n>: timed iterations (0: the spec's count).
	Iters int
	// BEE_BENCH_CASE_TIMEOUT_S=<seconds>: overrides the profile's case_timeout_s (0: no override).
	CaseTimeout time.Duration
	// BEE_BENCH_PACE_FD=<n>: take turns with another runner over file descriptor PaceFD (pace.go).
	Pace   bool
	PaceFD int
	// BEE_BENCH_COUNT=1: callgrind requests around each timed CPU iteration (package count).
	Count bool
}

// ParseHooks reads the hooks through getenv; a malformed value is a *spec.UsageError naming
// the variable.
func ParseHooks(getenv func(string) string) (Hooks, error) {
	var h Hooks
	bad := func(name, msg string) error { return &spec.UsageError{Flag: name, Msg: msg} }
	if v := getenv("BEE_BENCH_FAULT"); v != "" {
		i := strings.LastIndexByte(v, ':')
		if i <= 0 {
			return h, bad("BEE_BENCH_FAULT", "want <glob>:<throw|hang|reject>, got "+strconv.Quote(v))
		}
		h.FaultGlob, h.FaultMode = v[:i], v[i+1:]
		switch h.FaultMode {
		case FaultThrow, FaultHang, FaultReject:
		default:
			return h, bad("BEE_BENCH_FAULT", "mode must be throw, hang or reject, got "+strconv.Quote(h.FaultMode))
		}
	}
	if v := getenv("BEE_BENCH_SLOWDOWN"); v != "" {
		i := strings.LastIndexByte(v, ':')
		if i <= 0 {
			return h, bad("BEE_BENCH_SLOWDOWN", "want <glob>:<fraction>, got "+strconv.Quote(v))
		}
		f, err := strconv.ParseFloat(v[i+1:], 64)
		if err != nil || f < 0 {
			return h, bad("BEE_BENCH_SLOWDOWN", "fraction must be a non-negative number, got "+strconv.Quote(v[i+1:]))
		}
		h.SlowGlob, h.SlowFraction = v[:i], f
	}
	if v := getenv("BEE_BENCH_ITERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return h, bad("BEE_BENCH_ITERS", "must be a positive integer, got "+strconv.Quote(v))
		}
		h.Iters = n
	}
	if v := getenv("BEE_BENCH_CASE_TIMEOUT_S"); v != "" {
		s, err := strconv.ParseFloat(v, 64)
		if err != nil || s <= 0 {
			return h, bad("BEE_BENCH_CASE_TIMEOUT_S", "must be a positive number of seconds, got "+strconv.Quote(v))
		}
		h.CaseTimeout = time.Duration(s * float64(time.Second))
	}
	if v := getenv("BEE_BENCH_PACE_FD"); v != "" {
		// Digits only (no sign), and small enough to be a descriptor on every platform.
		n, err := strconv.ParseUint(v, 10, 31)
		if err != nil {
			return h, bad("BEE_BENCH_PACE_FD", "must be a non-negative integer (a file descriptor), got "+strconv.Quote(v))
		}
		h.Pace, h.PaceFD = true, int(n)
	}
	switch v := getenv("BEE_BENCH_COUNT"); v {
	case "", "0":
	case "1":
		h.Count = true
	default:
		return h, bad("BEE_BENCH_COUNT", "must be 1 or 0, got "+strconv.Quote(v))
	}
	return h, nil
}

// faultFor returns the fault mode for a case id, "" for none.
func (h Hooks) faultFor(id string) string {
	if h.FaultMode != "" && spec.Match(h.FaultGlob, id) {
		return h.FaultMode
	}
	return ""
}

// slowdownFor returns the slowdown fraction for a case id, 0 for none.
func (h Hooks) slowdownFor(id string) float64 {
	if h.SlowGlob != "" && spec.Match(h.SlowGlob, id) {
		return h.SlowFraction
	}
	return 0
}

// errInjected is the error of BEE_BENCH_FAULT=<glob>:throw.
var errInjected = fmt.Errorf("BEE_BENCH_FAULT: injected error in the timed iteration")
