// Package plan reads a resolved plan (bee-bench/plan@1, src/spec/plan.ts): the units one runner
// process runs, in order, with every spec rule and test hook already applied by the engine. The
// engine's zod schema (and spec/plan.schema.json made from it) is the one full definition; this
// reader decodes into the types below, refuses a field it does not know, and checks only what the
// runner relies on.
package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
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

// Plan is a parsed plan. A new plan field is one field in one of these structs.
type Plan struct {
	Schema   string   `json:"schema"`
	Runner   string   `json:"runner"`
	Profile  string   `json:"profile"`
	SpecHash string   `json:"spec_hash"`
	Fixtures Fixtures `json:"fixtures"`
	Units    []Unit   `json:"units"`
}

// Fixtures carries the labels of the deterministic fixture streams.
type Fixtures struct {
	DataLabel         string `json:"data_label"`
	KeyLabel          string `json:"key_label"`
	DigestLabel       string `json:"digest_label"`
	ChunkPayloadBytes int    `json:"chunk_payload_bytes"`
}

// Unit is one case under one param.
type Unit struct {
	Unit     int     `json:"unit"`  // number in the full plan: what pacing lines and counting dumps name
	ID       string  `json:"id"`    // case id
	Kind     string  `json:"kind"`  // "cpu" or "net"
	Param    Params  `json:"param"` // the effective param: run with it, record it
	Digest   *Digest `json:"digest"`
	Work     Work    `json:"work"`
	Warmup   int     `json:"warmup"`
	Iters    int     `json:"iters"`
	TimeoutS float64 `json:"timeout_s"` // setup to last iteration
	Parallel bool    `json:"parallel"`  // the engine's business (A/B rounds do not pin it); not used
	// Test and calibration hooks (runners/README.md "Hooks"); zero values are off.
	Fault      string  `json:"fault"`
	Slowdown   float64 `json:"slowdown"`    // busy-spin this fraction of the op's own time, inside the timed region
	AllocExtra float64 `json:"alloc_extra"` // allocation mode: allocate this fraction of the op's bytes, inside the region
}

// Timeout is the unit's budget from setup to the last iteration.
func (u Unit) Timeout() time.Duration { return time.Duration(u.TimeoutS * float64(time.Second)) }

// Digest is the untimed digest evaluation of a unit.
type Digest struct {
	Form  string `json:"form"`
	Param Params `json:"param"`
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

// Parse decodes and checks the plan in data (read from file) for runner. Numbers in params keep
// their JSON text, so they are written back unchanged into the result.
func Parse(file string, data []byte, runner string) (*Plan, error) {
	// The units are decoded one by one, so that a problem in one names its index.
	var top struct {
		Plan
		Units []json.RawMessage `json:"units"`
	}
	if err := decode(data, &top); err != nil {
		return nil, &Error{File: file, Field: err.field, Msg: err.msg}
	}
	p := &top.Plan
	p.Units = make([]Unit, len(top.Units))
	for i, raw := range top.Units {
		if err := decode(raw, &p.Units[i]); err != nil {
			return nil, &Error{File: file, Field: join(fmt.Sprintf("units[%d]", i), err.field), Msg: err.msg}
		}
	}
	if field, msg := p.check(runner); msg != "" {
		return nil, &Error{File: file, Field: field, Msg: msg}
	}
	return p, nil
}

// check makes the checks the runner relies on: (field, problem), problem empty when none.
func (p *Plan) check(runner string) (string, string) {
	if p.Schema != SchemaID {
		return "schema", fmt.Sprintf("want %q, got %q (make the plan with this version's `bee-bench plan`)", SchemaID, p.Schema)
	}
	if p.Runner != runner {
		return "runner", fmt.Sprintf("the plan is for the %s runner, this is the %s runner (fix: bee-bench plan --runner %s)", p.Runner, runner, runner)
	}
	for i, u := range p.Units {
		at := fmt.Sprintf("units[%d].", i)
		switch {
		case i > 0 && u.Unit <= p.Units[i-1].Unit:
			return at + "unit", fmt.Sprintf("unit numbers must increase (%d then %d)", p.Units[i-1].Unit, u.Unit)
		case u.Iters < 1:
			return at + "iters", fmt.Sprintf("must be a positive integer, got %d", u.Iters)
		case u.TimeoutS <= 0:
			return at + "timeout_s", fmt.Sprintf("must be a positive number of seconds, got %g", u.TimeoutS)
		}
	}
	return "", ""
}

// decodeError is a decoding problem at a field path relative to the decoded value.
type decodeError struct{ field, msg string }

// decode reads exactly one JSON value into v, refusing fields v does not have.
func decode(data []byte, v any) *decodeError {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	err := dec.Decode(v)
	if err == nil {
		if _, end := dec.Token(); end != io.EOF {
			return &decodeError{msg: "not JSON: data after the plan object"}
		}
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		field := strings.TrimPrefix(typeErr.Field, "Plan.") // the embedded Plan of Parse's top
		return &decodeError{field, fmt.Sprintf("must be %s, got %s", kinds[typeErr.Type.Kind()], typeErr.Value)}
	case errors.As(err, &syntaxErr), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return &decodeError{msg: "not JSON: " + err.Error()}
	}
	// DisallowUnknownFields reports `json: unknown field "x"`, without its path.
	if key, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &decodeError{msg: "unknown field " + key + " (a plan made by another bee-bench version? fix: make it with this one's `bee-bench plan`)"}
	}
	return &decodeError{msg: err.Error()}
}

// kinds names the Go kinds of the plan's fields as the plan's own types.
var kinds = map[reflect.Kind]string{
	reflect.Int: "an integer", reflect.Float64: "a number", reflect.String: "a string", reflect.Bool: "true or false",
	reflect.Struct: "an object", reflect.Map: "an object", reflect.Slice: "an array",
}

func join(path, field string) string {
	if field == "" {
		return path
	}
	return path + "." + field
}
