package count

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Natively (the tests do not run under valgrind) a request must change nothing and answer 0.
func TestRequestsAreHarmlessNatively(t *testing.T) {
	Start()
	Stop(3, 7)
	if got := request(zeroStats, 0); got != 0 {
		t.Fatalf("request outside valgrind returned %d, want 0", got)
	}
}

// The counted slowdown reads the step's count from this process's newest dump: the highest n of
// callgrind.out.<pid>.<n>, never another process's dump nor the final unnumbered file.
func TestLastDumpReadsThisProcessNewestDump(t *testing.T) {
	dir := t.TempDir()
	pid := os.Getpid()
	write := func(name, totals string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("desc: Trigger: Client Request: x\ntotals: "+totals+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(fmt.Sprintf("callgrind.out.%d.2", pid), "200")
	write(fmt.Sprintf("callgrind.out.%d.10", pid), "1000")
	write(fmt.Sprintf("callgrind.out.%d", pid), "5")
	write(fmt.Sprintf("callgrind.out.%d.99", pid+1), "9900")
	if got, err := lastDump(dir); err != nil || got != 1000 {
		t.Fatalf("lastDump = %d, %v; want 1000", got, err)
	}
	if _, err := lastDump(t.TempDir()); err == nil {
		t.Fatal("lastDump of an empty folder: want an error")
	}
}
