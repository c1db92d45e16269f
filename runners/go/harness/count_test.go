//go:build linux && amd64

package harness

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// TestCountDumpsNameThePlanUnits runs a shard's plan under callgrind as the engine does (this test
// binary re-runs itself as the runner) and reads back the names of the dumps: the plan's unit
// numbers, neither from 0 nor contiguous, and the step counting warmups first.
func TestCountDumpsNameThePlanUnits(t *testing.T) {
	if planPath := os.Getenv("BEE_BENCH_TEST_COUNT_PLAN"); planPath != "" {
		countChild(t, planPath)
		return
	}
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		t.Skip("valgrind is not installed")
	}
	us := []unit{
		{"unit": 5, "id": "cpu.t.value", "param": param("v", 1), "iters": 2},
		{"unit": 6, "id": "net.t.one", "param": param("n", 1)},
		{"unit": 12, "id": "cpu.t.ok", "param": param("ok", 6), "warmup": 0, "iters": 1, "slowdown": 0.5},
	}
	dir := t.TempDir()
	cmd := exec.Command(valgrind, "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file="+filepath.Join(dir, "callgrind.out.%p"),
		os.Args[0], "-test.run=^TestCountDumpsNameThePlanUnits$")
	cmd.Env = append(os.Environ(), "BEE_BENCH_TEST_COUNT_PLAN="+writePlan(t, us...), "BEE_BENCH_COUNT=1", "BEE_BENCH_COUNT_DIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("under callgrind: %v\n%s", err, out)
	}
	var names []string
	trigger := regexp.MustCompile(`(?m)^desc: Trigger: Client Request: (.*)$`)
	files, _ := filepath.Glob(filepath.Join(dir, "callgrind.out.*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range trigger.FindAllSubmatch(data, -1) {
			names = append(names, string(m[1]))
		}
	}
	slices.Sort(names)
	names = slices.Compact(names) // a step's slowdown takes several spins
	want := []string{"bee-bench 12 0", "bee-bench 5 1", "bee-bench 5 2", "bee-bench-spin 12 0"}
	if !slices.Equal(names, want) {
		t.Fatalf("dumps %q, want %q", names, want)
	}
}

// countChild is the runner under callgrind: the plan against the fake registry.
func countChild(t *testing.T, planPath string) {
	var stderr bytes.Buffer
	out := filepath.Join(t.TempDir(), "r.json")
	code := Main([]string{"run", "--plan", planPath, "--out", out}, Config{
		Runner: "go",
		Cases:  func(*Node) (Registry, error) { return fakeCases(t, out), nil },
		Stderr: &stderr,
	})
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	for _, c := range readResult(t, out).Cases {
		if c.Kind == "cpu" && c.Status != "ok" {
			t.Fatalf("%s: %s %s", c.ID, c.Status, c.Error)
		}
	}
}
