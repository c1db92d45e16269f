// Tests of the result file the runner writes.

package result

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
)

func sample(n int) *Result {
	ops := 3.0
	r := &Result{
		Schema: SchemaID, Runner: "go",
		Client:    Client{Name: "c", Version: "v1", Source: "registry"},
		Spec:      SpecRef{Hash: strings.Repeat("a", 64), Profile: "quick"},
		Host:      ThisHost(),
		StartedAt: Timestamp(time.Unix(0, 0)),
		Cases:     []*Case{},
	}
	for i := 0; i < n; i++ {
		r.Cases = append(r.Cases, &Case{ID: "cpu.x", Kind: "cpu", Status: StatusOK, SamplesNS: make([]int64, 200), CPUNS: make([]int64, 200), Work: plan.Work{Ops: &ops}})
	}
	return r
}

func TestShape(t *testing.T) {
	r := sample(0)
	r.Cases = append(r.Cases, &Case{ID: "net.y", Kind: "net", Status: StatusSkipped, SkipReason: "why", SamplesNS: []int64{}, CPUNS: []int64{}})
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for _, want := range []string{`"bee":null`, `"finished_at":null`, `"started_at":"1970-01-01T00:00:00.000Z"`,
		`"samples_ns":[]`, `"cpu_ns":[]`, `"peak_rss_bytes":null`, `"work":{}`, `"skip_reason":"why"`} {
		if !strings.Contains(s, want) {
			t.Errorf("result JSON lacks %s:\n%s", want, s)
		}
	}
	for _, absent := range []string{`"error"`, `"digest"`, `"commit"`} {
		if strings.Contains(s, absent) {
			t.Errorf("result JSON has empty optional %s", absent)
		}
	}
}

func TestWriteIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	if err := Write(path, sample(1)); err != nil {
		t.Fatal(err)
	}
	// A reader polling the file while it is rewritten must always see a whole result.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var bad error
	reads := 0
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			data, err := os.ReadFile(path)
			if err != nil {
				bad = err
				return
			}
			var r Result
			if err := json.Unmarshal(data, &r); err != nil {
				bad = err
				return
			}
			reads++
		}
	}()
	for i := 2; i < 40; i++ {
		if err := Write(path, sample(i)); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if bad != nil {
		t.Fatalf("a reader saw a partial file after %d reads: %v", reads, bad)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v", st.Mode())
	}
	// A failed write leaves the previous file alone.
	if err := Write(filepath.Join(dir, "missing", "r.json"), sample(1)); err == nil {
		t.Fatal("writing into a missing folder must fail")
	}
}
