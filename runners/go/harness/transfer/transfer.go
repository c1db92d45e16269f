// Package transfer holds the transfer settings of uploads and downloads that a real node honours
// (issue 38's case parameters, issue 37's ops): erasure level, deferred or direct upload,
// retrieval strategy and fallback mode. The plan's params and the ops lines both come here, so
// the two read and check them by one rule; the runner's main package maps them onto bee-go's
// options. Every field is optional: nil means the client's default (no header sent).
package transfer

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Levels are the erasure levels Bee knows (Swarm-Redundancy-Level): NONE, MEDIUM, STRONG,
// INSANE, PARANOID.
const (
	MinLevel = 0
	MaxLevel = 4
)

// Strategy is a retrieval strategy by Bee's number (Swarm-Redundancy-Strategy).
type Strategy int

// Strategies in Bee's order: the number is the header's value.
const (
	None Strategy = iota
	Data
	Prox
	Race
)

var strategyNames = []string{"NONE", "DATA", "PROX", "RACE"}

func (s Strategy) String() string {
	if s < None || s > Race {
		return strconv.Itoa(int(s))
	}
	return strategyNames[s]
}

// ParseStrategy reads a strategy by its name (NONE, DATA, PROX, RACE).
func ParseStrategy(name string) (Strategy, error) {
	i := slices.Index(strategyNames, name)
	if i < 0 {
		return 0, fmt.Errorf("want one of NONE, DATA, PROX, RACE, got %q", name)
	}
	return Strategy(i), nil
}

// Options are the transfer settings of one upload or download; nil is the client's default.
type Options struct {
	Level    *int      // erasure level of the upload, 0..4
	Deferred *bool     // deferred (true) or direct (false) upload
	Strategy *Strategy // retrieval strategy of the download
	Fallback *bool     // retrieval fallback mode of the download
}

// Param names of the plan (issue 38), per role.
const (
	ParamLevel    = "redundancy_level"
	ParamDeferred = "deferred"
	ParamStrategy = "strategy"
	ParamFallback = "fallback"
)

// Role is what a case does with the node, which decides the params it reads.
type Role int

const (
	// Upload cases read the upload's level and mode.
	Upload Role = iota
	// Download cases read the level of their untimed upload and the download's strategy and
	// fallback; the untimed upload is always deferred.
	Download
)

var roleParams = map[Role][]string{
	Upload:   {ParamLevel, ParamDeferred},
	Download: {ParamLevel, ParamStrategy, ParamFallback},
}

// FromParams reads the transfer params of a plan unit's param for a case of role. A transfer
// param the role does not read is an error (a case never ignores a setting silently), as is a
// value of the wrong type or range; the error names the param.
func FromParams(p map[string]any, role Role) (Options, error) {
	var o Options
	allowed := roleParams[role]
	for _, name := range []string{ParamLevel, ParamDeferred, ParamStrategy, ParamFallback} {
		v, ok := p[name]
		if !ok {
			continue
		}
		if !slices.Contains(allowed, name) {
			return Options{}, fmt.Errorf("param %q: not read by this case (it reads %v)", name, allowed)
		}
		var err error
		switch name {
		case ParamLevel:
			o.Level, err = levelOf(v)
		case ParamDeferred:
			o.Deferred, err = boolOf(v)
		case ParamStrategy:
			var s string
			if s, ok = v.(string); !ok {
				err = fmt.Errorf("want a string, got %v", v)
				break
			}
			var st Strategy
			if st, err = ParseStrategy(s); err == nil {
				o.Strategy = &st
			}
		case ParamFallback:
			o.Fallback, err = boolOf(v)
		}
		if err != nil {
			return Options{}, fmt.Errorf("param %q: %w", name, err)
		}
	}
	return o, nil
}

// CheckLevel checks an erasure level's range.
func CheckLevel(l int) error {
	if l < MinLevel || l > MaxLevel {
		return fmt.Errorf("want an integer %d..%d, got %d", MinLevel, MaxLevel, l)
	}
	return nil
}

// levelOf reads a level from a param value: a json.Number (plans are decoded with UseNumber) or
// a float64 (a param decoded without it).
func levelOf(v any) (*int, error) {
	var l int64
	var err error
	switch n := v.(type) {
	case json.Number:
		l, err = strconv.ParseInt(string(n), 10, 0)
	case float64:
		l = int64(n)
		if float64(l) != n {
			err = strconv.ErrSyntax
		}
	default:
		err = strconv.ErrSyntax
	}
	if err != nil {
		return nil, fmt.Errorf("want an integer %d..%d, got %v", MinLevel, MaxLevel, v)
	}
	level := int(l)
	if err := CheckLevel(level); err != nil {
		return nil, err
	}
	return &level, nil
}

func boolOf(v any) (*bool, error) {
	b, ok := v.(bool)
	if !ok {
		return nil, fmt.Errorf("want true or false, got %v", v)
	}
	return &b, nil
}
