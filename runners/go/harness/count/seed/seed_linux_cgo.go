//go:build cgo && linux

package seed

/*
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

static int bee_bench_seed_fixed;

// While counting, the 16 random bytes the kernel gives every process (auxv AT_RANDOM) are
// replaced by fixed ones before the Go runtime reads them: it derives its hash key from them, and
// a map lookup's cost depends on which keys collide under that key (bee-go's map-backed manifest
// lookups counted up to 0.4% apart between processes). The engine builds the runner with per-map
// seeds off (src/build/go-map-seed.ts), so the key is the whole of a hash's randomness. A cgo
// binary starts in libc, which runs constructors before the runtime; glibc has already taken its
// stack guard from the bytes by then.
__attribute__((constructor)) static void bee_bench_fix_seed(void) {
	const char *count = getenv("BEE_BENCH_COUNT");
	unsigned char *bytes = (unsigned char *)getauxval(AT_RANDOM);
	if (count == NULL || strcmp(count, "1") != 0 || bytes == NULL) return;
	// Any fixed bytes will do, as long as neither half is all zero (the runtime would then
	// read /dev/urandom instead).
	for (int i = 0; i < 16; i++) bytes[i] = (unsigned char)(0xb5 ^ (i * 29));
	bee_bench_seed_fixed = 1;
}

static int bee_bench_seed_was_fixed(void) { return bee_bench_seed_fixed; }

static void bee_bench_startup_bytes(unsigned char *out) {
	unsigned char *bytes = (unsigned char *)getauxval(AT_RANDOM);
	for (int i = 0; i < 16; i++) out[i] = bytes == NULL ? 0 : bytes[i];
}
*/
import "C"

import "unsafe"

// Fixed reports whether this process's start-up randomness was fixed for counting.
func Fixed() bool { return C.bee_bench_seed_was_fixed() != 0 }

// startupBytes reads the 16 start-up bytes now. Once the runtime has seeded its generator from
// them it overwrites them with the generator's first output, so they show how it was seeded.
func startupBytes() []byte {
	var b [16]byte
	C.bee_bench_startup_bytes((*C.uchar)(unsafe.Pointer(&b[0])))
	return b[:]
}
