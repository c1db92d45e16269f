// Tests of reading the transfer params of a plan unit: types, ranges, and which role reads what.
package transfer

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestFromParams(t *testing.T) {
	num := func(s string) json.Number { return json.Number(s) }
	for _, tc := range []struct {
		name  string
		param map[string]any
		role  Role
		want  string // fmt of the options, or the error's start
	}{
		{"none", map[string]any{"label": "1 MiB", "bytes": num("1048576")}, Upload, "level=- deferred=- strategy=- fallback=-"},
		{"upload", map[string]any{"redundancy_level": num("4"), "deferred": false}, Upload, "level=4 deferred=false strategy=- fallback=-"},
		{"level 0 is a level", map[string]any{"redundancy_level": num("0")}, Upload, "level=0 deferred=- strategy=- fallback=-"},
		{"float64 level", map[string]any{"redundancy_level": 2.0}, Download, "level=2 deferred=- strategy=- fallback=-"},
		{"download", map[string]any{"redundancy_level": num("1"), "strategy": "PROX", "fallback": true}, Download, "level=1 deferred=- strategy=PROX fallback=true"},
		{"strategy NONE", map[string]any{"strategy": "NONE"}, Download, "level=- deferred=- strategy=NONE fallback=-"},
		{"level 5", map[string]any{"redundancy_level": num("5")}, Upload, `param "redundancy_level": want an integer 0..4, got 5`},
		{"level -1", map[string]any{"redundancy_level": num("-1")}, Upload, `param "redundancy_level": want an integer 0..4, got -1`},
		{"level 1.5", map[string]any{"redundancy_level": num("1.5")}, Upload, `param "redundancy_level": want an integer 0..4, got 1.5`},
		{"level string", map[string]any{"redundancy_level": "2"}, Upload, `param "redundancy_level": want an integer`},
		{"deferred string", map[string]any{"deferred": "false"}, Upload, `param "deferred": want true or false`},
		{"unknown strategy", map[string]any{"strategy": "race"}, Download, `param "strategy": want one of NONE, DATA, PROX, RACE, got "race"`},
		{"strategy number", map[string]any{"strategy": num("3")}, Download, `param "strategy": want a string`},
		{"strategy on an upload", map[string]any{"strategy": "DATA"}, Upload, `param "strategy": not read by this case`},
		{"fallback on an upload", map[string]any{"fallback": true}, Upload, `param "fallback": not read by this case`},
		{"deferred on a download", map[string]any{"deferred": true}, Download, `param "deferred": not read by this case`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := FromParams(tc.param, tc.role)
			got := ""
			if err != nil {
				got = err.Error()
			} else {
				got = show(o)
			}
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func show(o Options) string {
	s := "level="
	if o.Level != nil {
		s += string(rune('0' + *o.Level))
	} else {
		s += "-"
	}
	s += " deferred="
	if o.Deferred != nil {
		s += map[bool]string{true: "true", false: "false"}[*o.Deferred]
	} else {
		s += "-"
	}
	s += " strategy="
	if o.Strategy != nil {
		s += o.Strategy.String()
	} else {
		s += "-"
	}
	s += " fallback="
	if o.Fallback != nil {
		s += map[bool]string{true: "true", false: "false"}[*o.Fallback]
	} else {
		s += "-"
	}
	return s
}

// The strategy numbers are Bee's header values (Swarm-Redundancy-Strategy).
func TestStrategyNumbers(t *testing.T) {
	for name, want := range map[string]int{"NONE": 0, "DATA": 1, "PROX": 2, "RACE": 3} {
		s, err := ParseStrategy(name)
		if err != nil || int(s) != want || s.String() != name {
			t.Errorf("%s: %d %v, want %d", name, s, err, want)
		}
	}
}
