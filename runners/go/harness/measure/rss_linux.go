//go:build linux

package measure

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

func resetHWM() bool {
	if os.Getenv("BEE_BENCH_RSS_SAMPLE") != "" { // forces the fallback (tests)
		return false
	}
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// statusKB reads a "<field>:   <n> kB" line of /proc/self/status.
func statusKB(field string) (int64, bool) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, field+":") {
			continue
		}
		f := strings.Fields(line[len(field)+1:])
		if len(f) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		return kb * 1024, true
	}
	return 0, false
}

func readHWM() (int64, bool) { return statusKB("VmHWM") }

func currentRSS() (int64, bool) { return statusKB("VmRSS") }
