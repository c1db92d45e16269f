// Tests of the measurement helpers: the CPU spin and the peak resident set.

package measure

import (
	"runtime/debug"
	"testing"
	"time"
)

func TestSpinIsCPUTime(t *testing.T) {
	c0 := CPUTime()
	start := time.Now()
	Spin(30 * time.Millisecond)
	wall := time.Since(start)
	cpu := time.Duration(CPUTime() - c0)
	if wall < 30*time.Millisecond {
		t.Fatalf("spun %s, want >= 30ms", wall)
	}
	// A sleep would cost no CPU; on a shared machine the spin gets only a share of a core.
	if cpu < 3*time.Millisecond {
		t.Fatalf("cpu %s over a 30ms spin", cpu)
	}
}

var keep []byte

func touch(n int) {
	keep = make([]byte, n)
	for i := 0; i < n; i += 4096 {
		keep[i] = 1
	}
}

func peakOf(t *testing.T, fn func()) int64 {
	t.Helper()
	p := StartPeak()
	fn()
	v, ok := p.Stop()
	if !ok {
		t.Fatal("no peak RSS figure")
	}
	return v
}

func TestPeakSeesAnAllocation(t *testing.T) {
	for _, mode := range []string{"hwm", "sample"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "sample" {
				t.Setenv("BEE_BENCH_RSS_SAMPLE", "1")
			}
			keep = nil
			debug.FreeOSMemory() // earlier runs' buffers must not count as the base
			base := peakOf(t, func() {})
			grown := peakOf(t, func() { touch(64 << 20); time.Sleep(3 * SampleInterval) })
			keep = nil
			if grown-base < 48<<20 {
				t.Fatalf("peak grew by %d bytes after touching 64 MiB (base %d)", grown-base, base)
			}
		})
	}
}
