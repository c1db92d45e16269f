// Package count brackets the timed region with callgrind client requests (BEE_BENCH_COUNT=1,
// runners/README.md). The engine runs the runner under
// `valgrind --tool=callgrind --instr-atstart=no`, so only what runs between Start and Stop is
// counted (no start-up, fixtures, digest, warmup or teardown), and Stop dumps that count under
// the name "bee-bench <unit> <step>". Natively a request is a few register rotations that change
// nothing. The request itself is valgrind.h's amd64 sequence in request_amd64.s (cgo and
// valgrind's headers are not needed to build the runner); elsewhere counting is unavailable.
package count

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unsafe"
)

// Callgrind's requests: VG_USERREQ_TOOL_BASE('C','T') + n (callgrind.h).
const (
	callgrindBase        = uintptr('C')<<24 | uintptr('T')<<16
	zeroStats            = callgrindBase + 1
	dumpStatsAt          = callgrindBase + 3
	startInstrumentation = callgrindBase + 4
	stopInstrumentation  = callgrindBase + 5
)

// Start zeroes callgrind's counters and switches instrumentation on, on a scheduling slice of
// its own. The runtime's monitor thread preempts a goroutine once it has seen it on one slice for
// 10 ms of wall time, and a goroutine woken from a sleep (the harness's settle) keeps the slice
// it slept on, so under valgrind's slowness and a loaded machine the request could already be
// due when the region opened: the preempted call then ran the scheduler inside the region (a
// bee-go noop step read 1,060 instructions, not 429, in one process of 76). Yielding first
// starts a fresh slice and drops a pending request, outside the region.
func Start() {
	runtime.Gosched()
	request(zeroStats, 0)
	request(startInstrumentation, 0)
}

// Stop switches instrumentation off, then dumps the count as "bee-bench <unit> <step>". The name
// is formatted after the region closes: formatted inside it, its allocation refilled the tiny
// allocator's block (94 instructions) in one step or another depending on what the process had
// allocated before, so two processes' noop counts differed at one step.
func Stop(unit, step int) {
	request(stopInstrumentation, 0)
	dumpAs(fmt.Sprintf("bee-bench %d %d", unit, step))
}

// dumpAs dumps what the last region counted under name (instrumentation is already off).
func dumpAs(name string) {
	b := []byte(name + "\x00")
	request(dumpStatsAt, uintptr(unsafe.Pointer(&b[0])))
	runtime.KeepAlive(b)
}

// SlowDown is BEE_BENCH_SLOWDOWN while counting: right after Stop, counted spins adding up to
// fraction x that step's own instruction count, each dumped as "bee-bench-spin <unit> <step>"
// (the engine adds a step's dumps), so the injected share of the count is the fraction, as it
// is of the wall time natively. Each spin's size comes from the instructions per pass the last
// one measured, and the spins go on until the target is reached (a few hundred instructions
// over at most). Reading dumps happens outside the counted regions.
func SlowDown(fraction float64, unit, step int) error {
	dir := os.Getenv("BEE_BENCH_COUNT_DIR")
	if dir == "" {
		return errors.New("BEE_BENCH_SLOWDOWN with BEE_BENCH_COUNT=1 needs BEE_BENCH_COUNT_DIR, callgrind's dump folder (the engine sets it)")
	}
	body, err := lastDump(dir)
	if err != nil {
		return err
	}
	target := fraction * float64(body)
	name := fmt.Sprintf("bee-bench-spin %d %d", unit, step)
	spun, passes := 0.0, uint64(firstSpinPasses)
	for i := 0; i < maxSpins && spun < target; i++ {
		Start()
		spinPasses(passes)
		request(stopInstrumentation, 0)
		dumpAs(name)
		got, err := lastDump(dir)
		if err != nil {
			return err
		}
		if got == 0 {
			return errors.New("BEE_BENCH_SLOWDOWN: a spin counted no instructions (not under callgrind?)")
		}
		spun += float64(got)
		passes = uint64(math.Max(1, math.Ceil((target-spun)/(float64(got)/float64(passes)))))
	}
	return nil
}

const (
	// firstSpinPasses is small, so a cheap step is not overshot by much.
	firstSpinPasses = 1000
	// maxSpins bounds the spins per step (it takes about four: each one's overhead is topped up
	// by the next).
	maxSpins = 8
)

//lint:ignore U1000 written, never read: keeps the spin loop from being dropped
var sink uint64

// spinPasses runs a fixed number of passes of a simple loop the compiler cannot drop.
//
//go:noinline
func spinPasses(passes uint64) {
	x := uint64(1)
	for i := uint64(0); i < passes; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink = x
}

// lastDump is the total of this process's newest dump (dumpCost): callgrind writes
// callgrind.out.<pid>.<n>, n counting up from 1.
func lastDump(dir string) (uint64, error) {
	prefix := fmt.Sprintf("callgrind.out.%d.", os.Getpid())
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("BEE_BENCH_COUNT_DIR: %w", err)
	}
	newest := 0
	for _, e := range entries {
		if n, err := strconv.Atoi(strings.TrimPrefix(e.Name(), prefix)); err == nil && strings.HasPrefix(e.Name(), prefix) && n > newest {
			newest = n
		}
	}
	if newest == 0 {
		return 0, fmt.Errorf("no callgrind dump of this process in %s", dir)
	}
	path := filepath.Join(dir, prefix+strconv.Itoa(newest))
	text, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	cost, err := dumpCost(string(text))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return cost, nil
}

// dumpCost is what a slowdown sizes its spins on: the dump's estimated cycles when callgrind
// simulates the caches (its events carry the misses: Ir + 10 x L1 misses + 100 x last-level
// misses, as the engine reads a cycles run), its instruction count (Ir) otherwise.
func dumpCost(text string) (uint64, error) {
	events := []string{"Ir"}
	var totals []uint64
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, "events: "); ok {
			events = strings.Fields(rest)
		} else if rest, ok := strings.CutPrefix(line, "totals: "); ok {
			for _, f := range strings.Fields(rest) {
				n, err := strconv.ParseUint(f, 10, 64)
				if err != nil {
					return 0, fmt.Errorf("totals: %w", err)
				}
				totals = append(totals, n)
			}
		}
	}
	if len(totals) == 0 {
		return 0, fmt.Errorf("no \"totals:\" line")
	}
	at := func(name string) (uint64, bool) {
		for i, e := range events {
			if e == name {
				if i < len(totals) {
					return totals[i], true
				}
				return 0, true
			}
		}
		return 0, false
	}
	cycles, _ := at("Ir")
	for _, m := range []struct {
		names  []string
		weight uint64
	}{{[]string{"I1mr", "D1mr", "D1mw"}, 10}, {[]string{"ILmr", "DLmr", "DLmw"}, 100}} {
		for _, name := range m.names {
			n, ok := at(name)
			if !ok {
				return totals[0], nil
			}
			cycles += m.weight * n
		}
	}
	return cycles, nil
}

func request(code, arg uintptr) uintptr {
	args := [6]uintptr{code, arg}
	return clientRequest(&args)
}
