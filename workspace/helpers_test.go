package workspace

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/storetest"
)

// flagship is the dossier the service tests use.
const flagship = "job-lock-double-send"

// fakeRunner records the jobs it is given and answers with a fixed verdict,
// optionally waiting for release first.
type fakeRunner struct {
	mu      sync.Mutex
	jobs    []runner.Job
	verdict runner.Verdict
	err     error
	release chan struct{} // when non-nil, Run waits for it
}

func (f *fakeRunner) Run(ctx context.Context, job runner.Job) (*runner.Results, error) {
	f.mu.Lock()
	f.jobs = append(f.jobs, job)
	release, verdict, err := f.release, f.verdict, f.err
	f.mu.Unlock()
	if release != nil {
		select {
		case <-release:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if err != nil {
		return nil, err
	}
	status := runner.StatusPass
	if verdict != runner.VerdictPass {
		status = runner.StatusFail
	}
	return &runner.Results{Version: runner.ResultsVersion, Status: status, Verdict: verdict, DurationMS: 5,
		Tests: []runner.TestResult{{Name: "the test", Status: status}}}, nil
}

func (f *fakeRunner) Ping(context.Context) error                   { return nil }
func (f *fakeRunner) Reap(context.Context, ...string) (int, error) { return 0, nil }
func (f *fakeRunner) ReapWhere(context.Context, func(runner.Leftover) bool) (int, error) {
	return 0, nil
}
func (f *fakeRunner) calls() int           { f.mu.Lock(); defer f.mu.Unlock(); return len(f.jobs) }
func (f *fakeRunner) job(i int) runner.Job { f.mu.Lock(); defer f.mu.Unlock(); return f.jobs[i] }

// newTestService opens a service over a fresh database of the engine
// under test (storetest.Engine), with rn as its runner (nil: no runner).
func newTestService(t testing.TB, rn Runner, maxInFlight int) *Service {
	t.Helper()
	return newServiceOn(t, storetest.Open(t, storetest.Engine(t)), rn, maxInFlight)
}

// newServiceOn opens a service over db with rn as its runner (nil: no runner).
func newServiceOn(t testing.TB, db store.DB, rn Runner, maxInFlight int) *Service {
	t.Helper()
	ctx := context.Background()
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := New(ctx, db, Config{
		Dossiers: []*challenges.Dossier{d}, Content: challenges.FS, Runner: rn, Image: "racecase-runner-node:test",
		HiddenSuite: func(string) (map[string][]byte, error) {
			return map[string][]byte{"suite.mjs": []byte("// hidden")}, nil
		},
		Workers: 1, MaxInFlight: maxInFlight, RescueAfter: time.Minute,
		Logger:      slog.New(slog.NewTextHandler(t.Output(), nil)),
		QueueLogger: slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// newWorkspace creates a learner and a workspace of the flagship dossier.
func newWorkspace(t testing.TB, svc *Service) (learner string, v View) {
	t.Helper()
	ctx := context.Background()
	learner, err := svc.NewLearner(ctx)
	if err != nil {
		t.Fatal(err)
	}
	v, err = svc.Create(ctx, learner, flagship)
	if err != nil {
		t.Fatal(err)
	}
	return learner, v
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, err error, code string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("got error %v, want code %s", err, code)
	}
	return e
}
