// Package spec reads spec/bench-spec.json (bee-bench/spec@1): profiles, fixtures labels and
// cases, and resolves a case's params for one runner (runners/README.md, "Params").
package spec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

// SchemaID is the only spec schema this runner reads.
const SchemaID = "bee-bench/spec@1"

// Profiles names the profiles every spec defines, in their canonical order.
var Profiles = []string{"quick", "full"}

// Spec is the parsed spec file.
type Spec struct {
	Schema   string             `json:"schema"`
	Profiles map[string]Profile `json:"profiles"`
	Fixtures Fixtures           `json:"fixtures"`
	Groups   []Group            `json:"groups"`
	Cases    []Case             `json:"cases"`

	// Hash is the lowercase hex SHA-256 of the spec file's bytes.
	Hash string `json:"-"`
}

// Profile holds the iteration policy of one profile.
type Profile struct {
	Iters        int     `json:"iters"`
	Warmup       Warmup  `json:"warmup"`
	CaseTimeoutS float64 `json:"case_timeout_s"`
}

// Warmup is the number of untimed iterations per case kind.
type Warmup struct {
	CPU int `json:"cpu"`
	Net int `json:"net"`
}

// For returns the warmup count for a case kind ("cpu" or "net").
func (w Warmup) For(kind string) int {
	if kind == "net" {
		return w.Net
	}
	return w.CPU
}

// Fixtures carries the labels of the deterministic fixture streams.
type Fixtures struct {
	DataLabel         string `json:"data_label"`
	KeyLabel          string `json:"key_label"`
	DigestLabel       string `json:"digest_label"`
	ChunkPayloadBytes int    `json:"chunk_payload_bytes"`
}

// Group is a report section.
type Group struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	Note  string `json:"note"`
}

// Case is one benchmark case as the spec declares it.
type Case struct {
	ID     string                `json:"id"`
	Kind   string                `json:"kind"`
	Group  string                `json:"group"`
	Doc    string                `json:"doc"`
	Work   Work                  `json:"work"`
	Digest *Digest               `json:"digest"`
	Iters  map[string]int        `json:"iters,omitempty"`
	Params map[string][]RawParam `json:"params"`
}

// Work names the param values whose product is the work of one iteration.
type Work struct {
	Ops   []string `json:"ops"`
	Bytes []string `json:"bytes,omitempty"`
}

// Digest says how a case fingerprints its output.
type Digest struct {
	Doc  string `json:"doc"`
	Form string `json:"form"` // "value" or "sha256-concat"
}

// Digest forms.
const (
	FormValue        = "value"
	FormSHA256Concat = "sha256-concat"
)

// Error is a spec problem; Field is a path into the spec file such as cases[3].params.quick[0].
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return "spec: " + e.Msg
	}
	return fmt.Sprintf("spec: %s: %s", e.Field, e.Msg)
}

func specErr(field, format string, args ...any) *Error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Load reads, hashes and validates a spec file. Problems with the file's content are *Error.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

// Parse decodes and validates spec bytes. Numbers in params keep their JSON text (json.Number),
// so integers are written back unchanged into result files.
func Parse(data []byte) (*Spec, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var s Spec
	if err := dec.Decode(&s); err != nil {
		return nil, &Error{Msg: "not valid JSON for bee-bench/spec@1: " + err.Error()}
	}
	sum := sha256.Sum256(data)
	s.Hash = hex.EncodeToString(sum[:])
	if err := s.validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

var idPattern = regexp.MustCompile(`^(cpu|net)\.[a-z0-9.-]+$`)

func (s *Spec) validate() error {
	if s.Schema != SchemaID {
		return specErr("schema", "want %q, got %q", SchemaID, s.Schema)
	}
	for _, name := range Profiles {
		p, ok := s.Profiles[name]
		if !ok {
			return specErr("profiles."+name, "missing")
		}
		if p.Iters <= 0 {
			return specErr("profiles."+name+".iters", "must be a positive integer")
		}
		if p.Warmup.CPU < 0 || p.Warmup.Net < 0 {
			return specErr("profiles."+name+".warmup", "counts must not be negative")
		}
		if p.CaseTimeoutS <= 0 {
			return specErr("profiles."+name+".case_timeout_s", "must be positive")
		}
	}
	if s.Fixtures.DataLabel == "" || s.Fixtures.KeyLabel == "" || s.Fixtures.DigestLabel == "" {
		return specErr("fixtures", "data_label, key_label and digest_label are required")
	}
	if s.Fixtures.ChunkPayloadBytes <= 0 {
		return specErr("fixtures.chunk_payload_bytes", "must be positive")
	}
	groups := map[string]bool{}
	for _, g := range s.Groups {
		groups[g.ID] = true
	}
	if len(s.Cases) == 0 {
		return specErr("cases", "no cases")
	}
	seen := map[string]bool{}
	for i := range s.Cases {
		c := &s.Cases[i]
		at := fmt.Sprintf("cases[%d]", i)
		if !idPattern.MatchString(c.ID) {
			return specErr(at+".id", "%q does not look like cpu.group.name or net.group.name", c.ID)
		}
		if seen[c.ID] {
			return specErr(at+".id", "duplicate case id %s", c.ID)
		}
		seen[c.ID] = true
		if c.Kind != "cpu" && c.Kind != "net" {
			return specErr(at+".kind", "must be cpu or net, got %q", c.Kind)
		}
		if c.ID[:len(c.Kind)+1] != c.Kind+"." {
			return specErr(at+".kind", "kind %q does not match the id prefix of %s", c.Kind, c.ID)
		}
		if !groups[c.Group] {
			return specErr(at+".group", "unknown group %q", c.Group)
		}
		if c.Work.Ops == nil {
			return specErr(at+".work.ops", "missing")
		}
		if c.Digest != nil && c.Digest.Form != FormValue && c.Digest.Form != FormSHA256Concat {
			return specErr(at+".digest.form", "must be %q or %q, got %q", FormValue, FormSHA256Concat, c.Digest.Form)
		}
		for prof, n := range c.Iters {
			if _, ok := s.Profiles[prof]; !ok {
				return specErr(at+".iters."+prof, "unknown profile")
			}
			if n <= 0 {
				return specErr(at+".iters."+prof, "must be a positive integer")
			}
		}
		for _, prof := range Profiles {
			params := c.Params[prof]
			if len(params) == 0 {
				return specErr(at+".params."+prof, "needs at least one param")
			}
			for j, p := range params {
				pat := fmt.Sprintf("%s.params.%s[%d]", at, prof, j)
				if err := p.validate(pat, c); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ProfileOf returns the named profile.
func (s *Spec) ProfileOf(name string) (Profile, bool) {
	p, ok := s.Profiles[name]
	return p, ok
}

// ItersFor is the number of timed iterations of c under profile: the case's own count if set,
// else the profile's.
func (s *Spec) ItersFor(c *Case, profile string) int {
	if n, ok := c.Iters[profile]; ok {
		return n
	}
	return s.Profiles[profile].Iters
}
