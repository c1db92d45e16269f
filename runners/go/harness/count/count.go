// Package count brackets the timed region with callgrind client requests (BEE_BENCH_COUNT=1,
// runners/README.md). The engine runs the runner under
// `valgrind --tool=callgrind --instr-atstart=no`, so only what runs between Start and Stop is
// counted (no start-up, fixtures, digest, warmup or teardown), and Stop dumps that count under
// the name "bee-bench <unit> <step>". Natively a request is a few register rotations that change
// nothing. The request itself is valgrind.h's amd64 sequence in request_amd64.s (cgo and
// valgrind's headers are not needed to build the runner); elsewhere counting is unavailable.
package count

import (
	"fmt"
	"runtime"
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

// Start zeroes callgrind's counters and switches instrumentation on.
func Start() {
	request(zeroStats, 0)
	request(startInstrumentation, 0)
}

// Stop switches instrumentation off and dumps the count as "bee-bench <unit> <step>".
func Stop(unit, step int) {
	request(stopInstrumentation, 0)
	name := []byte(fmt.Sprintf("bee-bench %d %d\x00", unit, step))
	request(dumpStatsAt, uintptr(unsafe.Pointer(&name[0])))
	runtime.KeepAlive(name)
}

func request(code, arg uintptr) uintptr {
	args := [6]uintptr{code, arg}
	return clientRequest(&args)
}
