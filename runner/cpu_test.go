package runner

import (
	"testing"
	"time"
)

func TestCPUHistoryTellsWaitingFromStarved(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Each case reads every 200 ms for 30 s at a steady share of one CPU,
	// after 400 ms of start-up at a full CPU.
	for _, tt := range []struct {
		name  string
		share float64
		idle  bool
	}{
		{"waiting on a timer", 0.001, true},
		{"just under the idle share", 0.049, true},
		{"starved to a tenth of a CPU by a busy machine", 0.10, false},
		{"computing", 1, false},
	} {
		var h cpuHistory
		used, at, firstIdle := 400*time.Millisecond, start.Add(400*time.Millisecond), time.Duration(0)
		for step := 0; step < 150; step++ {
			h.add(cpuSample{at, used})
			if h.idle() && firstIdle == 0 {
				firstIdle = at.Sub(start)
			}
			at = at.Add(200 * time.Millisecond)
			used += time.Duration(tt.share * float64(200*time.Millisecond))
		}
		if got := firstIdle != 0; got != tt.idle {
			t.Errorf("%s: idle %v (first at %s), want %v", tt.name, got, firstIdle, tt.idle)
		}
		if tt.idle && (firstIdle < idleWindow || firstIdle > idleWindow+2*time.Second) {
			t.Errorf("%s: idle first after %s, want just past %s", tt.name, firstIdle, idleWindow)
		}
		if len(h.samples) > int(idleWindow/(200*time.Millisecond))+2 {
			t.Errorf("%s: %d readings kept", tt.name, len(h.samples))
		}
	}
}
