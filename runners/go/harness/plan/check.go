package plan

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// check walks the decoded plan and keeps its first problem, named by the field's path.
type check struct{ err *Error }

func (c *check) fail(field, format string, args ...any) {
	if c.err == nil {
		c.err = &Error{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
}

// object is one JSON object of the plan, at path.
type object struct {
	c    *check
	path string
	m    map[string]any
}

// object reads v as an object holding only the named fields (zod's strictObject).
func (c *check) object(path string, v any, fields ...string) object {
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(path, "must be an object")
	}
	o := object{c: c, path: path, m: m}
	for _, k := range sortedKeys(m) {
		if !slices.Contains(fields, k) {
			c.fail(o.at(k), "unknown field (known: %s)", strings.Join(fields, ", "))
		}
	}
	return o
}

func (o object) at(name string) string {
	if o.path == "" {
		return name
	}
	return o.path + "." + name
}

func (o object) has(name string) bool {
	_, ok := o.m[name]
	return ok
}

// get returns a required field.
func (o object) get(name string) any {
	v, ok := o.m[name]
	if !ok {
		o.c.fail(o.at(name), "missing")
	}
	return v
}

func (o object) str(name string) string {
	s, ok := o.get(name).(string)
	if !ok {
		o.c.fail(o.at(name), "must be a string")
	}
	return s
}

func (o object) oneOf(name string, allowed ...string) string {
	s := o.str(name)
	if !slices.Contains(allowed, s) {
		o.c.fail(o.at(name), "must be %s, got %s", strings.Join(allowed, " or "), strconv.Quote(s))
	}
	return s
}

// number reads a required number, positive or non-negative.
func (o object) number(name string, positive bool) float64 {
	return o.numberOf(name, o.get(name), positive)
}

// optionalNumber reads an optional non-negative number, nil when absent.
func (o object) optionalNumber(name string) *float64 {
	if !o.has(name) {
		return nil
	}
	f := o.numberOf(name, o.m[name], false)
	return &f
}

func (o object) numberOf(name string, v any, positive bool) float64 {
	n, _ := v.(json.Number)
	f, err := n.Float64()
	switch {
	case n == "" || err != nil || math.IsInf(f, 0):
		o.c.fail(o.at(name), "must be a number")
	case positive && f <= 0:
		o.c.fail(o.at(name), "must be a positive number")
	case f < 0:
		o.c.fail(o.at(name), "must be a non-negative number")
	}
	return f
}

// integer reads a required integer of at least min (0 or 1).
func (o object) integer(name string, min int) int {
	n, _ := o.get(name).(json.Number)
	f, err := n.Float64()
	if n == "" || err != nil || f != math.Trunc(f) || f < float64(min) || f > math.MaxInt32 {
		kind := "non-negative"
		if min > 0 {
			kind = "positive"
		}
		o.c.fail(o.at(name), "must be a %s integer", kind)
	}
	return int(f)
}

func (o object) optionalBool(name string) {
	if _, ok := o.m[name].(bool); o.has(name) && !ok {
		o.c.fail(o.at(name), "must be true or false")
	}
}

// params reads an object of scalar values.
func (c *check) params(path string, v any) Params {
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(path, "must be an object of values")
	}
	for _, k := range sortedKeys(m) {
		switch m[k].(type) {
		case json.Number, string, bool:
		default:
			c.fail(path+"."+k, "must be a number, string or boolean")
		}
	}
	return Params(m)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
