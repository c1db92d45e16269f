//go:build !cgo || !linux

// Package seed fixes the Go runtime's start-up randomness while counting (BEE_BENCH_COUNT=1),
// so that its hash key is the same in every counting process (seed_linux_cgo.go).
package seed

// Fixed: without cgo the runtime's start-up randomness cannot be reached before it is read.
func Fixed() bool { return false }

func startupBytes() []byte { return nil }
