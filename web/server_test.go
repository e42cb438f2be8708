package web_test

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/racecase/racecase/api"
	"github.com/racecase/racecase/api/apitest"
	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/instructor"
	"github.com/racecase/racecase/runner/runnertest"
	"github.com/racecase/racecase/store/sqlite"
	"github.com/racecase/racecase/web"
	"github.com/racecase/racecase/workspace"
)

// instructorToken is the instructor token the test server requires.
const instructorToken = "browser-test-token"

// startServer starts the real racecase server on a free port: every dossier,
// SQLite in a temporary directory, the Docker runner with the real runner
// image, the API, the instructor page and the browser app. It returns the base
// URL. Without a Docker engine the test is skipped (or fails under
// REQUIRE_DOCKER=1).
func startServer(t *testing.T) string {
	t.Helper()
	return startServerWith(t, authoring.Dirs{})
}

// startServerWith is startServer also serving, and watching, the dossiers of dirs.
func startServerWith(t *testing.T, dirs authoring.Dirs) string {
	t.Helper()
	engine := runnertest.Engine(t)
	ctx := context.Background()
	tag := runnertest.Image(t, engine)
	dossiers, err := challenges.LoadAll(challenges.FS)
	if len(dossiers) == 0 {
		t.Fatalf("no dossier loads: %v", err)
	}
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	logs := &serverLog{}
	logger := slog.New(slog.NewTextHandler(logs, nil))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log (last %d lines):\n%s", serverLogTail, logs.tail(serverLogTail))
		}
	})
	svc, err := workspace.New(ctx, db, workspace.Config{
		Dossiers: dossiers, Content: challenges.FS, Runner: engine, Image: tag, HiddenSuite: instructor.Suites(dossiers, dirs),
		Workers: 2, RescueAfter: time.Minute, Logger: logger, QueueLogger: logger,
	})
	if err != nil {
		t.Fatal(err)
	}
	key, err := svc.SessionKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	deskCtx, stopDesk := context.WithCancel(ctx)
	desk, err := instructor.New(deskCtx, instructor.Config{Service: svc, History: svc, BuiltIn: dossiers, Dirs: dirs, Runner: svc.ContainerRunner(), Image: tag, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	go desk.Watch(deskCtx, 100*time.Millisecond)
	t.Cleanup(func() {
		stopDesk()
		desk.Wait()
	})
	done := make(chan struct{})
	handler, err := api.New(api.Config{Service: svc, SessionKey: key, Registry: prometheus.NewRegistry(), Logger: logger, Done: done, App: web.Handler(),
		Instructor: desk, InstructorToken: instructorToken})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: apitest.Middleware(t, handler), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		close(done)
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
			t.Logf("shutdown: %v", err)
		}
		if err := svc.Stop(sctx); err != nil {
			t.Logf("stop run queue: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// serverLogTail is how many of the server's last log lines a failed test prints.
const serverLogTail = 80

// serverLog keeps what the test server logs (every request with its status),
// for a failed test to print.
type serverLog struct {
	mu   sync.Mutex
	data []byte
}

// Write keeps a log record.
func (l *serverLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.data = append(l.data, p...)
	return len(p), nil
}

// tail returns the last n lines.
func (l *serverLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	lines := strings.Split(strings.TrimRight(string(l.data), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
