package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/racecase/racecase/store/storetest"
)

// flagship is the dossier the end-to-end tests use.
const flagship = "job-lock-double-send"

// lockedBuffer is a bytes.Buffer safe for concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// urlWatcher is the server's stdout: it hands over the URL it prints.
type urlWatcher struct {
	lockedBuffer
	url  chan string
	once sync.Once
}

func (w *urlWatcher) Write(p []byte) (int, error) {
	n, err := w.lockedBuffer.Write(p)
	if _, after, ok := strings.Cut(w.String(), "serving on "); ok {
		if line, _, complete := strings.Cut(after, "\n"); complete {
			w.once.Do(func() { w.url <- line })
		}
	}
	return n, err
}

// testServer is `racecase serve` running in this process through run().
type testServer struct {
	URL  string
	Data string
	log  *lockedBuffer
	stop func() int
}

// startServe runs `racecase serve` on a free port with a fresh data
// directory and the given extra flags; it stops when the test ends. With
// RACECASE_TEST_ENGINE=postgres its database is a fresh PostgreSQL one,
// which makes the server take an instructor token (the test's own flags
// may set another).
func startServe(t testing.TB, extra ...string) *testServer {
	t.Helper()
	data := t.TempDir()
	args := []string{"serve", "--addr", "127.0.0.1:0", "--data", data}
	if storetest.Engine(t) == storetest.Postgres {
		args = append(args, "--database", storetest.FreshPostgres(t), "--instructor-token", testToken)
	}
	args = append(args, extra...)
	ctx, cancel := context.WithCancel(context.Background())
	out := &urlWatcher{url: make(chan string, 1)}
	logs := &lockedBuffer{}
	done := make(chan int, 1)
	go func() { done <- run(ctx, args, os.Getenv, out, logs) }()
	s := &testServer{Data: data, log: logs}
	var once sync.Once
	code := -1
	s.stop = func() int {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(60 * time.Second):
				t.Errorf("racecase serve did not stop within 60 s")
			}
		})
		return code
	}
	t.Cleanup(func() {
		s.stop()
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	select {
	case s.URL = <-out.url:
	case code := <-done:
		t.Fatalf("racecase serve exited with %d:\n%s", code, logs.String())
	case <-time.After(120 * time.Second):
		t.Fatalf("racecase serve printed no URL within 120 s:\n%s", logs.String())
	}
	return s
}
