// The machine and Go runtime a result was measured on.

package result

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// Host describes the machine and runtime of a run.
type Host struct {
	OS       string `json:"os"`
	Arch     string `json:"arch"`
	CPUModel string `json:"cpu_model"`
	CPUs     int    `json:"cpus"`
	MemMB    int64  `json:"mem_mb"`
	Runtime  string `json:"runtime"`
}

// Runtime names the Go toolchain the runner was built with, e.g. "go1.26.8".
func Runtime() string { return runtime.Version() }

// ThisHost describes the current machine. os and arch are Go's names (GOOS, GOARCH).
func ThisHost() Host {
	return Host{
		OS:       runtime.GOOS,
		Arch:     runtime.GOARCH,
		CPUModel: cpuModel(),
		CPUs:     runtime.NumCPU(),
		MemMB:    memMB(),
		Runtime:  Runtime(),
	}
}

// procField returns the value of the first "<key> : value" line of a /proc file.
func procField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func cpuModel() string {
	if m := procField("/proc/cpuinfo", "model name"); m != "" {
		return m
	}
	return "unknown"
}

func memMB() int64 {
	v := strings.TrimSuffix(procField("/proc/meminfo", "MemTotal"), " kB")
	kb, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0
	}
	return kb / 1024
}
