package workspace

import (
	"testing"
	"time"
)

func TestRetryAfterIsUntilASlotFrees(t *testing.T) {
	m := &metrics{}
	for _, c := range []struct {
		typical time.Duration
		workers int
		want    time.Duration
	}{
		{4 * time.Second, 1, 4 * time.Second},
		{4 * time.Second, 2, 2 * time.Second},
		{6 * time.Second, 4, 2 * time.Second},
		{300 * time.Millisecond, 1, time.Second},
		{4 * time.Second, 0, 4 * time.Second},
	} {
		m.typicalMillis.Store(c.typical.Milliseconds())
		if got := m.retryAfter(c.workers); got != c.want {
			t.Errorf("typical %s, %d workers: %s, want %s", c.typical, c.workers, got, c.want)
		}
	}
}
