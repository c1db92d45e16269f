package seed

import (
	"fmt"
	"hash/maphash"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

// The probe keeps the main goroutine on the main thread from initialisation on, so the thread's
// random stream it reads depends on the start-up bytes alone (not on which thread it migrated to).
func init() {
	if os.Getenv("BEE_BENCH_SEED_PROBE") == "1" {
		runtime.LockOSThread()
	}
}

// TestMain lets the test binary stand in for a runner process: with BEE_BENCH_SEED_PROBE set it
// prints what the runtime's randomness decided and exits.
func TestMain(m *testing.M) {
	if os.Getenv("BEE_BENCH_SEED_PROBE") == "1" {
		fmt.Printf("%t %x\n", Fixed(), maphash.String(maphash.MakeSeed(), "bee-bench"))
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

func TestCountingProcessesShareTheRuntimeSeed(t *testing.T) {
	a, b := probe(t, "1"), probe(t, "1")
	if !strings.HasPrefix(a, "true ") || a != b {
		t.Fatalf("two counting processes: %q and %q, want the same fixed seed", a, b)
	}
}

func TestOtherProcessesKeepTheirRandomSeed(t *testing.T) {
	a, b := probe(t, "0"), probe(t, "0")
	if !strings.HasPrefix(a, "false ") || a == b {
		t.Fatalf("two plain processes: %q and %q, want random seeds", a, b)
	}
}
