package runner

import (
	"sync"
	"unicode/utf8"
)

// cappedBuffer keeps the first limit bytes written to it, drops the rest and
// closes Exceeded the first time a write goes past limit. Writes never fail,
// so a copier keeps draining the stream until it ends.
type cappedBuffer struct {
	mu       sync.Mutex
	limit    int
	buf      []byte
	over     bool
	exceeded chan struct{}
}

// newCappedBuffer returns an empty buffer holding at most limit bytes.
func newCappedBuffer(limit int64) *cappedBuffer {
	return &cappedBuffer{limit: int(limit), exceeded: make(chan struct{})}
}

// Write implements io.Writer.
func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.limit - len(c.buf); len(p) > room {
		c.buf = append(c.buf, p[:room]...)
		if !c.over {
			c.over = true
			close(c.exceeded)
		}
		return len(p), nil
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

// Exceeded is closed once more than limit bytes have been written.
func (c *cappedBuffer) Exceeded() <-chan struct{} { return c.exceeded }

// Truncated reports whether bytes were dropped.
func (c *cappedBuffer) Truncated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}

// String returns the kept bytes.
func (c *cappedBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return string(c.buf)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	buf []byte
}

// Write implements io.Writer; it never fails.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0:0], t.buf[len(t.buf)-t.max:]...)
	}
	return len(p), nil
}

// String returns the kept bytes.
func (t *tailBuffer) String() string { return string(t.buf) }

// truncateChars shortens s to at most max characters, marking the cut with an
// ellipsis.
func truncateChars(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
