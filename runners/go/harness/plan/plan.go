// Package plan reads a resolved plan (bee-bench/plan@1, src/spec/plan.ts): the units one runner
// process runs, in order, with every spec rule and test hook already applied by the engine. The
// runner validates only what it relies on, strictly: a unit with a field it does not know is a bad
// plan, as in the engine's zod schema.
package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"time"
)

// SchemaID is the only plan format this runner reads.
const SchemaID = "bee-bench/plan@1"

// Fault modes of a unit's `fault` (the engine's BEE_BENCH_FAULT).
const (
	FaultThrow  = "throw"  // the timed iteration returns an error
	FaultHang   = "hang"   // the timed iteration blocks forever (the unit times out)
	FaultReject = "reject" // a goroutine the iteration spawns panics (recovered, fails the unit)
)

// Digest forms.
const (
	FormValue        = "value"
	FormSHA256Concat = "sha256-concat"
)

// Plan is a parsed plan.
type Plan struct {
	Runner   string
	Profile  string
	SpecHash string
	Fixtures Fixtures
	Units    []Unit
}

// Fixtures carries the labels of the deterministic fixture streams.
type Fixtures struct {
	DataLabel, KeyLabel, DigestLabel string
	ChunkPayloadBytes                int
}

// Unit is one case under one param.
type Unit struct {
	Unit    int    // number in the full plan: what pacing lines and counting dumps name
	ID      string // case id
	Kind    string // "cpu" or "net"
	Param   Params // the effective param: run with it, record it
	Digest  *Digest
	Work    Work
	Warmup  int
	Iters   int
	Timeout time.Duration // setup to last iteration
	// Test and calibration hooks (runners/README.md "Hooks"); zero values are off.
	Fault      string
	Slowdown   float64 // busy-spin this fraction of the op's own time, inside the timed region
	AllocExtra float64 // allocation mode: allocate this fraction of the op's bytes, inside the region
}

// Digest is the untimed digest evaluation of a unit.
type Digest struct {
	Form  string
	Param Params
}

// Work is the work of one iteration, copied to the result.
type Work struct {
	Bytes *float64 `json:"bytes,omitempty"`
	Ops   *float64 `json:"ops,omitempty"`
}

// Error is a plan the runner cannot run, naming the field (`units[3].iters`).
type Error struct {
	File  string
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("bad plan %s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("bad plan %s: %s: %s", e.File, e.Field, e.Msg)
}

// Parse decodes and validates the plan in data (read from file) for runner. Numbers in params
// keep their JSON text, so they are written back unchanged into the result.
func Parse(file string, data []byte, runner string) (*Plan, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, &Error{File: file, Msg: "not JSON: " + err.Error()}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{File: file, Msg: "not JSON: data after the plan object"}
	}
	c := &check{}
	p := c.plan(doc, runner)
	if c.err != nil {
		c.err.File = file
		return nil, c.err
	}
	return p, nil
}

var (
	idPattern   = regexp.MustCompile(`^(cpu|net)\.[a-z0-9.-]+$`)
	hashPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

func (c *check) plan(doc any, runner string) *Plan {
	o := c.object("", doc, "schema", "runner", "profile", "spec_hash", "fixtures", "units")
	if s := o.str("schema"); c.err == nil && s != SchemaID {
		c.fail("schema", "want %q, got %q (make the plan with this version's `bee-bench plan`)", SchemaID, s)
	}
	p := &Plan{Runner: o.oneOf("runner", "js", "go", "rs")}
	if c.err == nil && p.Runner != runner {
		c.fail("runner", "the plan is for the %s runner, this is the %s runner (fix: bee-bench plan --runner %s)", p.Runner, runner, runner)
	}
	p.Profile = o.oneOf("profile", "quick", "full")
	if p.SpecHash = o.str("spec_hash"); c.err == nil && !hashPattern.MatchString(p.SpecHash) {
		c.fail("spec_hash", "must be a lowercase hex SHA-256")
	}
	f := c.object("fixtures", o.get("fixtures"), "data_label", "key_label", "digest_label", "chunk_payload_bytes")
	p.Fixtures = Fixtures{f.str("data_label"), f.str("key_label"), f.str("digest_label"), f.integer("chunk_payload_bytes", 1)}
	units, ok := o.get("units").([]any)
	if !ok {
		c.fail("units", "must be an array")
	}
	for i, v := range units {
		u := c.unit(fmt.Sprintf("units[%d]", i), v)
		if i > 0 && c.err == nil && u.Unit <= p.Units[i-1].Unit {
			c.fail(fmt.Sprintf("units[%d].unit", i), "unit numbers must increase (%d then %d)", p.Units[i-1].Unit, u.Unit)
		}
		p.Units = append(p.Units, u)
	}
	return p
}

func (c *check) unit(at string, v any) Unit {
	o := c.object(at, v, "unit", "id", "kind", "param", "digest", "work", "warmup", "iters", "timeout_s",
		"parallel", "fault", "slowdown", "alloc_extra")
	u := Unit{Unit: o.integer("unit", 0), ID: o.str("id")}
	if c.err == nil && !idPattern.MatchString(u.ID) {
		c.fail(o.at("id"), "%q does not look like cpu.group.name or net.group.name", u.ID)
	}
	if u.Kind = o.oneOf("kind", "cpu", "net"); c.err == nil && u.ID[:len(u.Kind)+1] != u.Kind+"." {
		c.fail(o.at("kind"), "kind %q does not match %s", u.Kind, u.ID)
	}
	if u.Param = c.params(o.at("param"), o.get("param")); c.err == nil && u.Param.Label() == "" {
		c.fail(o.at("param.label"), "must be a non-empty string")
	}
	if d := o.get("digest"); d != nil {
		do := c.object(o.at("digest"), d, "form", "param")
		u.Digest = &Digest{Form: do.oneOf("form", FormValue, FormSHA256Concat), Param: c.params(do.at("param"), do.get("param"))}
	}
	w := c.object(o.at("work"), o.get("work"), "ops", "bytes")
	u.Work = Work{Bytes: w.optionalNumber("bytes"), Ops: w.optionalNumber("ops")}
	u.Warmup = o.integer("warmup", 0)
	u.Iters = o.integer("iters", 1)
	u.Timeout = time.Duration(o.number("timeout_s", true) * float64(time.Second))
	o.optionalBool("parallel")
	if o.has("fault") {
		u.Fault = o.oneOf("fault", FaultThrow, FaultHang, FaultReject)
	}
	u.Slowdown = deref(o.optionalNumber("slowdown"))
	u.AllocExtra = deref(o.optionalNumber("alloc_extra"))
	return u
}

func deref(f *float64) float64 {
	if f == nil {
		return 0
	}
	return *f
}
