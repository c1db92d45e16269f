// Tests of the counting requests and of reading this process's callgrind dumps (instructions, estimated cycles).

package count

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Natively (the tests do not run under valgrind) a request must change nothing and answer 0.
func TestRequestsAreHarmlessNatively(t *testing.T) {
	Start()
	Stop(3, 7)
	if got := request(zeroStats, 0); got != 0 {
		t.Fatalf("request outside valgrind returned %d, want 0", got)
	}
}

// The counted slowdown reads the step's count from this process's newest dump: the highest n of
// callgrind.out.<pid>.<n>, never another process's dump nor the final unnumbered file.
func TestLastDumpReadsThisProcessNewestDump(t *testing.T) {
	dir := t.TempDir()
	pid := os.Getpid()
	write := func(name, totals string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("desc: Trigger: Client Request: x\ntotals: "+totals+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(fmt.Sprintf("callgrind.out.%d.2", pid), "200")
	write(fmt.Sprintf("callgrind.out.%d.10", pid), "1000")
	write(fmt.Sprintf("callgrind.out.%d", pid), "5")
	write(fmt.Sprintf("callgrind.out.%d.99", pid+1), "9900")
	if got, err := lastDump(dir); err != nil || got != 1000 {
		t.Fatalf("lastDump = %d, %v; want 1000", got, err)
	}
	if _, err := lastDump(t.TempDir()); err == nil {
		t.Fatal("lastDump of an empty folder: want an error")
	}
}

// A cycles run's dump (cache simulation on): the slowdown sizes on the estimated cycles,
// Ir + 10 x L1 misses + 100 x last-level misses; a plain dump on its instruction count.
func TestDumpCostIsEstimatedCyclesWithCacheEvents(t *testing.T) {
	for _, c := range []struct {
		text string
		want uint64
	}{
		{"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: 1000 400 200 3 5 2 1 1 0\n", 1000 + 10*(3+5+2) + 100*2},
		{"events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\ntotals: 1000 400 200 3\n", 1030},
		{"events: Ir\ntotals: 777\n", 777},
		{"totals: 5\n", 5},
	} {
		if got, err := dumpCost(c.text); err != nil || got != c.want {
			t.Fatalf("dumpCost(%q) = %d, %v; want %d", c.text, got, err, c.want)
		}
	}
	if _, err := dumpCost("events: Ir\n"); err == nil {
		t.Fatal("dumpCost without totals: want an error")
	}
}
