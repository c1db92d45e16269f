// Tests of the harness's allocation figures.

package harness

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/alloc"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
)

// Where allocCase keeps what it allocates, so every allocation is on the heap.
var (
	keptBuffers [8][]byte
	keptWords   [8]*uint64
)

// allocCase allocates, per iteration, `big` 16 KiB buffers, `odd` 1000-byte buffers and `tiny`
// 8-byte words, all kept. It fails unless the runtime runs on one P.
func allocCase(_ context.Context, _ *Env, p plan.Params) (*Bench, error) {
	big, odd, tiny := p.Int("big"), p.Int("odd"), p.Int("tiny")
	return &Bench{Op: func(context.Context) error {
		if n := runtime.GOMAXPROCS(0); n != 1 {
			return fmt.Errorf("GOMAXPROCS is %d in allocation mode", n)
		}
		for i := range big {
			keptBuffers[i] = make([]byte, 16<<10)
		}
		for i := range odd {
			keptBuffers[big+i] = make([]byte, 1000)
		}
		for i := range tiny {
			keptWords[i] = new(uint64)
		}
		return nil
	}}, nil
}

func TestAllocationModeCountsEachIterationExactly(t *testing.T) {
	procs, gc := runtime.GOMAXPROCS(0), debug.SetGCPercent(100)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs); debug.SetGCPercent(gc) })

	counts := func(label string, big, odd, tiny int) map[string]any {
		return map[string]any{"label": label, "count": 1, "big": big, "odd": odd, "tiny": tiny}
	}
	us := []unit{
		{"id": "cpu.t.value", "param": param("v", 1), "digest": map[string]any{"form": "value", "param": param("v", 1)}},
		{"id": "cpu.t.alloc", "param": counts("mixed", 4, 2, 3)},
		{"id": "cpu.t.alloc", "param": counts("extra", 4, 0, 0), "alloc_extra": 0.25},
		{"id": "net.t.alloc", "param": counts("net", 4, 0, 0)},
	}
	out := filepath.Join(t.TempDir(), "r.json")
	var stderr bytes.Buffer
	registry := Registry{"cpu.t.value": fakeCases(t, out)["cpu.t.value"], "cpu.t.alloc": allocCase, "net.t.alloc": allocCase}
	code := Main([]string{"run", "--plan", writePlan(t, with(us, "iters", 5)...), "--out", out,
		"--bee-url", "http://127.0.0.1:9", "--batch-id", strings.Repeat("ab", 32)}, Config{
		Runner: "go",
		Cases:  func(*Node) (Registry, error) { return registry, nil },
		Stderr: &stderr,
		Getenv: func(k string) string { return map[string]string{"BEE_BENCH_ALLOCS": "1"}[k] },
	})
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	res := readResult(t, out)
	if res.AllocCounter == nil || res.AllocCounter.Method != alloc.Method {
		t.Fatalf("alloc_counter = %+v", res.AllocCounter)
	}
	repeat := func(n uint64) []uint64 { return []uint64{n, n, n, n, n} }
	want := []struct{ objects, bytes []uint64 }{
		// The harness adds nothing to a region: a no-op allocates nothing.
		{repeat(0), repeat(0)},
		// 4 x 16 KiB, 2 x 1000 B in the 1024-byte size class, 3 tiny words: one object each,
		// bytes by the 16-byte block they share two at a time.
		{repeat(4 + 2 + 3), repeat(4<<14 + 2*1024 + 2*16)},
		// alloc_extra 0.25 of 64 KiB: one more allocation of 16 KiB.
		{repeat(4 + 1), repeat(4<<14 + 1<<14)},
		// Net units are never counted.
		{nil, nil},
	}
	for i, c := range res.Cases {
		if c.Status != "ok" || !slices.Equal(c.Allocs, want[i].objects) || !slices.Equal(c.AllocBytes, want[i].bytes) {
			t.Errorf("%s %s: %s %s, allocs %v bytes %v; want %v and %v", c.ID, c.Param.Label(), c.Status, c.Error,
				c.Allocs, c.AllocBytes, want[i].objects, want[i].bytes)
		}
	}
}
