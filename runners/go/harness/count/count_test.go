package count

import "testing"

// Natively (the tests do not run under valgrind) a request must change nothing and answer 0.
func TestRequestsAreHarmlessNatively(t *testing.T) {
	Start()
	Stop(3, 7)
	if got := request(zeroStats, 0); got != 0 {
		t.Fatalf("request outside valgrind returned %d, want 0", got)
	}
}
