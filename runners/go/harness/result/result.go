// Package result is the result file every runner writes (bee-bench/result@1, docs/design.md
// "Result file"; validated on the TypeScript side by src/spec/schema.ts).
package result

import (
	"encoding/json"
	"os"
	"path/filepath"
	"time"

	"github.com/ethswarm-tools/bee-bench/runners/go/harness/plan"
)

// SchemaID identifies the result format.
const SchemaID = "bee-bench/result@1"

// Statuses of a case result.
const (
	StatusOK      = "ok"
	StatusSkipped = "skipped"
	StatusFailed  = "failed"
)

// Result is the whole result file.
type Result struct {
	Schema     string  `json:"schema"`
	Runner     string  `json:"runner"`
	Client     Client  `json:"client"`
	Bee        *Bee    `json:"bee"`
	Spec       SpecRef `json:"spec"`
	Host       Host    `json:"host"`
	StartedAt  string  `json:"started_at"`
	FinishedAt *string `json:"finished_at"`
	Cases      []*Case `json:"cases"`
	// AllocCounter names how allocations were counted, once some case carries them.
	AllocCounter *AllocCounter `json:"alloc_counter,omitempty"`
}

// AllocCounter is what counted the allocations (runners/README.md "Allocations").
type AllocCounter struct {
	Method string `json:"method"`
}

// Client identifies the client library the runner was built against.
type Client struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Source  string `json:"source"` // "registry" or "path"
	Commit  string `json:"commit,omitempty"`
}

// Bee identifies the node the net cases ran against.
type Bee struct {
	URL     string `json:"url"`
	Version string `json:"version"`
}

// SpecRef pins the spec file and profile of the run.
type SpecRef struct {
	Hash    string `json:"hash"`
	Profile string `json:"profile"`
}

// Case is the result of one case under one param.
type Case struct {
	ID           string      `json:"id"`
	Kind         string      `json:"kind"`
	Param        plan.Params `json:"param"`
	Status       string      `json:"status"`
	SkipReason   string      `json:"skip_reason,omitempty"`
	Error        string      `json:"error,omitempty"`
	Warmup       int         `json:"warmup"`
	SamplesNS    []int64     `json:"samples_ns"`
	CPUNS        []int64     `json:"cpu_ns"`
	PeakRSSBytes *int64      `json:"peak_rss_bytes"`
	Work         plan.Work   `json:"work"`
	Digest       string      `json:"digest,omitempty"`
	// Allocation mode: heap allocations and their bytes per timed iteration.
	Allocs     []uint64 `json:"allocs,omitempty"`
	AllocBytes []uint64 `json:"alloc_bytes,omitempty"`
}

// Timestamp formats t as the result file's ISO-8601 times (UTC, milliseconds).
func Timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// Write replaces path atomically: the JSON goes to a temporary file in the same folder, is
// synced, then renamed over path, so a reader (or a crash) never sees a half-written file.
func Write(path string, r *Result) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer os.Remove(name) // no-op after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(name, path)
}
