// Tests that every spec case is dispatched and the quick CPU cases reproduce their digests.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
)

// enginePlan has the engine resolve a plan for this runner (`bee-bench plan`, run from the
// repository's sources; needs `npm ci` there), so these tests run what a real run would.
func enginePlan(t *testing.T, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("npx", append([]string{"tsx", "src/cli.ts", "plan", "--runner", "go"}, args...)...)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bee-bench plan (fix: npm ci in the repository): %v\n%s", err, stderr.String())
	}
	path := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestEverySpecCaseIsDispatched(t *testing.T) {
	var p struct{ Units []struct{ ID string } }
	if err := json.Unmarshal([]byte(readFile(t, enginePlan(t, nil))), &p); err != nil {
		t.Fatal(err)
	}
	ids, cases := map[string]bool{}, registry()
	for _, u := range p.Units {
		ids[u.ID] = true
		if cases[u.ID] == nil {
			t.Errorf("%s: no function in the dispatch table", u.ID)
		}
	}
	for id := range cases {
		if !ids[id] {
			t.Errorf("%s: dispatched but not in the spec", id)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Quick-profile digests. The Keccak, BMT, file-root and address digests were reproduced by an
// independent pure-Python implementation; the two manifest digests are bee-go's own and are
// compared across clients by the report.
var quickDigests = map[string]string{
	"cpu.keccak.chunk-hash":     "07ca447bd3881f0650284426136a85d1cdf876c6c707249058042f5e540b3f1d",
	"cpu.keccak.parallel":       "07ca447bd3881f0650284426136a85d1cdf876c6c707249058042f5e540b3f1d",
	"cpu.keccak.bulk":           "89f6e8a44741ac138d37f0f6ccf6a684831fef105455c88603008f8fbc72ea6c",
	"cpu.bmt.file-root":         "4dd8436c25ddfaf5074f5364b7698a3c080350a14ec52840e8ba6fe777c54363",
	"cpu.ecdsa.sign":            "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
	"cpu.ecdsa.verify":          "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
	"cpu.identity.create":       "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
	"cpu.manifest.hash":         "a93d7fae4448d5e53a7dd562dd435199e6a3af89e60a7af2e035bdfcda7ff79f",
	"cpu.manifest.lookup-large": "4c84884022e699851abfbf93b321433aa298a4f5d10a0eac20c23e058e317226",
}

func TestQuickCPUDigests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every CPU case once")
	}
	out := filepath.Join(t.TempDir(), "result.json")
	var stderr bytes.Buffer
	plan := enginePlan(t, []string{"BEE_BENCH_ITERS=1"}, "--case", "cpu.*")
	code := harness.Main([]string{"run", "--plan", plan, "--out", out}, harness.Config{
		Runner: "go",
		Client: clientIdentity(),
		Cases:  func(*harness.Node) (harness.Registry, error) { return registry(), nil },
		Stderr: &stderr,
		Getenv: func(string) string { return "" },
	})
	if code != harness.ExitOK {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
	var r result.Result
	if err := json.Unmarshal([]byte(readFile(t, out)), &r); err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Cases {
		want, hasDigest := quickDigests[c.ID]
		switch {
		case c.ID == "cpu.bmt.encrypted-file-root":
			if c.Status != result.StatusSkipped {
				t.Errorf("%s: %s, want skipped", c.ID, c.Status)
			}
		case c.Status != result.StatusOK:
			t.Errorf("%s: %s %s", c.ID, c.Status, c.Error)
		case hasDigest && c.Digest != want:
			t.Errorf("%s: digest %s, want %s", c.ID, c.Digest, want)
		}
	}
}
