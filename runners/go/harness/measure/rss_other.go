//go:build !linux

package measure

import "runtime/metrics"

func resetHWM() bool { return false }

func readHWM() (int64, bool) { return 0, false }

// currentRSS approximates the resident set by the memory the Go runtime has mapped and not
// returned to the OS (no portable per-process RSS reading outside Linux).
func currentRSS() (int64, bool) {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64()), true
}
