// A unit's param and its typed getters.

package plan

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Params is a unit's param: label plus scalar values (json.Number, string or bool). It is what
// a case runs with and what a result records.
type Params map[string]any

// ParamError is raised (as a panic value) by the typed getters of Params when a case asks for a
// value the param does not have; the harness turns it into a failed case naming the param.
type ParamError struct {
	Name string
	Msg  string
}

func (e *ParamError) Error() string { return fmt.Sprintf("param %q: %s", e.Name, e.Msg) }

// Label is the param's label.
func (p Params) Label() string {
	s, _ := p["label"].(string)
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
