package runner

import (
	"bytes"
	"io"
	"strconv"
	"sync"
	"time"
)

// startMarker opens the line the watchdog prints on stderr when the payload
// arrives, before it passes a byte of it on: the container's CPU time so far
// in nanoseconds follows, or "-" when the watchdog cannot read it.
const startMarker = "\x1eracecase-started "

// maxPendingStderr bounds the unfinished stderr line held back while the
// start marker has not been seen.
const maxPendingStderr = 4096

// startFilter passes stderr through to out, except the first start marker
// and the rest of its line: it takes them out and keeps the CPU time named. The first such line is the watchdog's: it is written
// before the supervisor has the payload, so before any learner code runs.
// Later marker lines are ordinary output.
type startFilter struct {
	mu      sync.Mutex
	out     io.Writer
	line    []byte
	seen    bool
	cpuSeen time.Duration // CPU time the container used before the run
}

// newStartFilter returns a filter writing to out.
func newStartFilter(out io.Writer) *startFilter { return &startFilter{out: out} }

// Write implements io.Writer; it never fails.
func (f *startFilter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := len(p)
	for len(p) > 0 && !f.seen {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			f.line = append(f.line, p...)
			if len(f.line) > maxPendingStderr {
				f.out.Write(f.line)
				f.line = f.line[:0]
			}
			return n, nil
		}
		f.line = append(f.line, p[:i+1]...)
		f.endLine()
		p = p[i+1:]
	}
	if len(p) > 0 {
		f.out.Write(p)
	}
	return n, nil
}

// endLine takes the marker out of the held line, keeping what came before
// it on the line (output the marker may follow), or passes the line on.
func (f *startFilter) endLine() {
	if i := bytes.Index(f.line, []byte(startMarker)); i >= 0 {
		f.out.Write(f.line[:i])
		f.seen = true
		rest := bytes.TrimRight(f.line[i+len(startMarker):], "\r\n")
		if ns, err := strconv.ParseInt(string(rest), 10, 64); err == nil && ns > 0 {
			f.cpuSeen = time.Duration(ns)
		}
	} else {
		f.out.Write(f.line)
	}
	f.line = f.line[:0]
}

// Flush passes on a last unfinished line.
func (f *startFilter) Flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.line) > 0 {
		f.out.Write(f.line)
		f.line = f.line[:0]
	}
}

// started reports whether the run began (the watchdog printed its marker)
// and the CPU time the container had used before it, which counts against
// nothing: zero when the marker has not been seen or named none.
func (f *startFilter) started() (bool, time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen, f.cpuSeen
}
