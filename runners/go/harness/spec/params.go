package spec

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// RawParam is a param object as the spec declares it: label, values, and optionally large,
// per_runner (runner -> values merged over the param for that runner) and digest_with (values
// merged over the effective param for the untimed digest evaluation).
type RawParam map[string]any

const (
	keyLabel      = "label"
	keyLarge      = "large"
	keyPerRunner  = "per_runner"
	keyDigestWith = "digest_with"
)

// Params is a resolved param: label plus scalar values (json.Number, string or bool). It is what
// a case runs with and what a result records.
type Params map[string]any

// ParamError is raised (as a panic value) by the typed getters of Params when a case asks for a
// value the param does not have; the harness turns it into a failed case naming the param.
type ParamError struct {
	Name string
	Msg  string
}

func (e *ParamError) Error() string { return fmt.Sprintf("param %q: %s", e.Name, e.Msg) }

func isScalar(v any) bool {
	switch v.(type) {
	case json.Number, string, bool:
		return true
	}
	return false
}

func scalarValues(field string, v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, specErr(field, "must be an object of values")
	}
	for k, x := range m {
		if !isScalar(x) {
			return nil, specErr(field+"."+k, "must be a number, string or boolean")
		}
	}
	return m, nil
}

func (p RawParam) validate(at string, c *Case) error {
	label, ok := p[keyLabel].(string)
	if !ok || label == "" {
		return specErr(at+".label", "must be a non-empty string")
	}
	if v, ok := p[keyLarge]; ok {
		if _, isBool := v.(bool); !isBool {
			return specErr(at+".large", "must be a boolean")
		}
	}
	for k, v := range p {
		switch k {
		case keyPerRunner:
			runners, ok := v.(map[string]any)
			if !ok {
				return specErr(at+"."+k, "must be an object keyed by runner")
			}
			for r, vals := range runners {
				if r != "js" && r != "go" && r != "rs" {
					return specErr(at+"."+k+"."+r, "unknown runner")
				}
				scaled, err := scalarValues(at+"."+k+"."+r, vals)
				if err != nil {
					return err
				}
				for _, name := range append(append([]string{}, c.Work.Ops...), c.Work.Bytes...) {
					if v, ok := scaled[name]; ok {
						if _, isNum := v.(json.Number); !isNum {
							return specErr(at+"."+k+"."+r+"."+name, "work value must be a number")
						}
					}
				}
				// A scaled value changes the op's input per runner; the digest must pin it.
				if c.Digest != nil {
					dw, _ := p[keyDigestWith].(map[string]any)
					for name := range scaled {
						if _, pinned := dw[name]; !pinned {
							return specErr(at+".digest_with", "per_runner scales %q but digest_with does not fix it", name)
						}
					}
				}
			}
		case keyDigestWith:
			if _, err := scalarValues(at+"."+k, v); err != nil {
				return err
			}
		default:
			if !isScalar(v) {
				return specErr(at+"."+k, "must be a number, string or boolean")
			}
		}
	}
	for _, name := range append(append([]string{}, c.Work.Ops...), c.Work.Bytes...) {
		if _, ok := p[name].(json.Number); !ok {
			return specErr(at+"."+name, "work names %q but the param has no number by that name", name)
		}
	}
	return nil
}

// Effective is the param runner R runs with: the param without per_runner and digest_with,
// with per_runner[R] merged over it.
func (p RawParam) Effective(runner string) Params {
	out := Params{}
	for k, v := range p {
		if k != keyPerRunner && k != keyDigestWith {
			out[k] = v
		}
	}
	if pr, ok := p[keyPerRunner].(map[string]any); ok {
		if vals, ok := pr[runner].(map[string]any); ok {
			for k, v := range vals {
				out[k] = v
			}
		}
	}
	return out
}

// Digest is the param of the untimed digest evaluation: the effective param with digest_with
// merged over it, so every runner hashes the same input whatever its own scaled counts.
func (p RawParam) Digest(runner string) Params {
	out := p.Effective(runner)
	if dw, ok := p[keyDigestWith].(map[string]any); ok {
		for k, v := range dw {
			out[k] = v
		}
	}
	return out
}

// Large reports whether the param only runs with --large.
func (p RawParam) Large() bool {
	b, _ := p[keyLarge].(bool)
	return b
}

// Label is the param's label.
func (p Params) Label() string {
	s, _ := p[keyLabel].(string)
	return s
}

// Int returns the named integer value. A missing or non-integer value panics with *ParamError.
func (p Params) Int(name string) int {
	v, ok := p[name]
	if !ok {
		panic(&ParamError{Name: name, Msg: "missing"})
	}
	var i int64
	var err error
	switch n := v.(type) {
	case json.Number:
		i, err = strconv.ParseInt(string(n), 10, 0)
	case float64: // a param decoded without UseNumber (results read back)
		i = int64(n)
		if float64(i) != n {
			err = strconv.ErrSyntax
		}
	default:
		err = strconv.ErrSyntax
	}
	if err != nil || i < 0 {
		panic(&ParamError{Name: name, Msg: fmt.Sprintf("want a non-negative integer, got %v", v)})
	}
	return int(i)
}

// Equal reports whether two params hold the same keys and values.
func (p Params) Equal(q Params) bool {
	if len(p) != len(q) {
		return false
	}
	for k, v := range p {
		w, ok := q[k]
		if !ok || v != w {
			return false
		}
	}
	return true
}

// Product multiplies the named numeric values. ok is false when names is empty (the work field
// is then omitted from the result) or a value is not a number (which a validated spec rules out).
func (p Params) Product(names []string) (v float64, ok bool) {
	if len(names) == 0 {
		return 0, false
	}
	v = 1
	for _, name := range names {
		n, isNum := p[name].(json.Number)
		if !isNum {
			return 0, false
		}
		f, err := n.Float64()
		if err != nil || math.IsInf(f, 0) {
			return 0, false
		}
		v *= f
	}
	return v, true
}
