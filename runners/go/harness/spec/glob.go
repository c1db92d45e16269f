package spec

import "fmt"

// Match reports whether id matches glob as a whole: '*' matches any run of characters (dots
// included, possibly empty), '?' exactly one character, anything else itself.
func Match(glob, id string) bool {
	g, s := []rune(glob), []rune(id)
	gi, si := 0, 0
	star, mark := -1, 0 // last '*' in glob, and where in s it started matching
	for si < len(s) {
		switch {
		case gi < len(g) && (g[gi] == '?' || g[gi] == s[si]):
			gi++
			si++
		case gi < len(g) && g[gi] == '*':
			star, mark = gi, si
			gi++
		case star >= 0:
			// Let the last '*' swallow one more character and retry from there.
			mark++
			gi, si = star+1, mark
		default:
			return false
		}
	}
	for gi < len(g) && g[gi] == '*' {
		gi++
	}
	return gi == len(g)
}

// UsageError is a command-line problem (exit 2), naming the flag.
type UsageError struct {
	Flag string
	Msg  string
}

func (e *UsageError) Error() string { return fmt.Sprintf("%s: %s", e.Flag, e.Msg) }

// Select returns the cases matching any of globs, in spec order; no globs selects every case.
// A glob that matches no case is a *UsageError.
func (s *Spec) Select(globs []string) ([]*Case, error) {
	var out []*Case
	for _, g := range globs {
		found := false
		for i := range s.Cases {
			if Match(g, s.Cases[i].ID) {
				found = true
				break
			}
		}
		if !found {
			return nil, &UsageError{Flag: "--case", Msg: fmt.Sprintf("%q matches no case in the spec", g)}
		}
	}
	for i := range s.Cases {
		c := &s.Cases[i]
		if len(globs) == 0 {
			out = append(out, c)
			continue
		}
		for _, g := range globs {
			if Match(g, c.ID) {
				out = append(out, c)
				break
			}
		}
	}
	return out, nil
}
