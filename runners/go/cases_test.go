package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/result"
	"github.com/ethswarm-tools/bee-bench/runners/go/harness/spec"
)

const specPath = "../../spec/bench-spec.json"

func TestEverySpecCaseIsDispatched(t *testing.T) {
	s, err := spec.Load(specPath)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range s.Cases {
		ids[c.ID] = true
		if cases[c.ID] == nil {
			t.Errorf("%s: no function in the dispatch table", c.ID)
		}
	}
	for id := range cases {
		if !ids[id] {
			t.Errorf("%s: dispatched but not in the spec", id)
		}
	}
}

// Quick-profile digests. The Keccak, BMT, file-root and address digests were reproduced by an
// independent pure-Python implementation; the two manifest digests are bee-go's own and are
// compared across clients by the report.
var quickDigests = map[string]string{
	"cpu.keccak.chunk-hash":     "07ca447bd3881f0650284426136a85d1cdf876c6c707249058042f5e540b3f1d",
	"cpu.keccak.parallel":       "07ca447bd3881f0650284426136a85d1cdf876c6c707249058042f5e540b3f1d",
	"cpu.keccak.bulk":           "89f6e8a44741ac138d37f0f6ccf6a684831fef105455c88603008f8fbc72ea6c",
	"cpu.bmt.file-root":         "4dd8436c25ddfaf5074f5364b7698a3c080350a14ec52840e8ba6fe777c54363",
	"cpu.ecdsa.sign-1000":       "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
	"cpu.ecdsa.verify-1000":     "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
	"cpu.identity.create":       "e1677ff521b4307acdcf1d549fdfbb5b543223b01a7b93500a511946fea0369c",
	"cpu.manifest.hash-50files": "a93d7fae4448d5e53a7dd562dd435199e6a3af89e60a7af2e035bdfcda7ff79f",
	"cpu.manifest.lookup-large": "4c84884022e699851abfbf93b321433aa298a4f5d10a0eac20c23e058e317226",
}

func TestQuickCPUDigests(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every CPU case once")
	}
	out := filepath.Join(t.TempDir(), "result.json")
	var stderr bytes.Buffer
	code := harness.Main([]string{"run", "--spec", specPath, "--case", "cpu.*", "--out", out}, harness.Config{
		Runner: "go",
		Client: clientIdentity(),
		Cases:  func(*harness.Node) (harness.Registry, error) { return cases, nil },
		Stderr: &stderr,
		Getenv: func(k string) string { return map[string]string{"BEE_BENCH_ITERS": "1"}[k] },
	})
	if code != harness.ExitOK {
		t.Fatalf("exit %d:\n%s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var r result.Result
	if err := json.Unmarshal(data, &r); err != nil {
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
