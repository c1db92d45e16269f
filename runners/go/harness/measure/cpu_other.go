//go:build !unix

package measure

// CPUTime is unavailable on this platform: it reports 0, so cpu_ns samples are zero.
func CPUTime() int64 { return 0 }
