// Tests that counting processes seed the Go runtime alike and other processes keep their random seed.

package seed

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestMain lets the test binary stand in for a runner process: with BEE_BENCH_SEED_PROBE set it
// prints whether the seed was fixed and what the runtime left in the start-up bytes (its
// generator's first output), and exits.
func TestMain(m *testing.M) {
	if os.Getenv("BEE_BENCH_SEED_PROBE") == "1" {
		fmt.Printf("%t %x\n", Fixed(), startupBytes())
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func probe(t *testing.T, count string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "BEE_BENCH_SEED_PROBE=1", "BEE_BENCH_COUNT="+count)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe process: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func TestCountingProcessesSeedTheRuntimeAlike(t *testing.T) {
	a, b := probe(t, "1"), probe(t, "1")
	if !strings.HasPrefix(a, "true ") || a != b {
		t.Fatalf("two counting processes: %q and %q, want the same fixed seed", a, b)
	}
	// The runtime did read the fixed bytes: it replaced them with its own output.
	if fixed := fmt.Sprintf("%x", fixedBytes()); strings.HasSuffix(a, fixed) {
		t.Fatalf("start-up bytes still %s: the runtime never seeded from them", fixed)
	}
}

func TestOtherProcessesKeepTheirRandomSeed(t *testing.T) {
	a, b := probe(t, "0"), probe(t, "0")
	if !strings.HasPrefix(a, "false ") || a == b {
		t.Fatalf("two plain processes: %q and %q, want random seeds", a, b)
	}
}

// fixedBytes are the bytes the constructor writes (seed_linux_cgo.go).
func fixedBytes() []byte {
	b := make([]byte, 16)
	for i := range b {
		b[i] = byte(0xb5 ^ (i * 29))
	}
	return b
}
