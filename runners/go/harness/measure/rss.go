// Peak resident set size over one case: the kernel's high-water mark, a sampler where it is
// missing.

package measure

import (
	"sync"
	"time"
)

// SampleInterval is how often the fallback sampler reads the resident set.
const SampleInterval = 10 * time.Millisecond

// Peak tracks the peak resident set size over one case.
type Peak struct {
	hwm bool // the kernel's high-water mark was reset: read VmHWM at the end

	mu   sync.Mutex
	max  int64
	stop chan struct{}
	done chan struct{}
}

// StartPeak begins tracking: on Linux it resets the kernel's high-water mark
// (echo 5 > /proc/self/clear_refs) so VmHWM covers only what follows; where that is not possible
// it samples the RSS every 10 ms on a goroutine instead.
func StartPeak() *Peak {
	if resetHWM() {
		return &Peak{hwm: true}
	}
	p := &Peak{stop: make(chan struct{}), done: make(chan struct{})}
	p.sample()
	go func() {
		defer close(p.done)
		t := time.NewTicker(SampleInterval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.sample()
			}
		}
	}()
	return p
}

func (p *Peak) sample() {
	if v, ok := currentRSS(); ok {
		p.mu.Lock()
		if v > p.max {
			p.max = v
		}
		p.mu.Unlock()
	}
}

// Stop ends tracking and returns the peak in bytes; ok is false when no figure is available.
func (p *Peak) Stop() (int64, bool) {
	if p.hwm {
		return readHWM()
	}
	close(p.stop)
	<-p.done
	p.sample()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.max, p.max > 0
}
