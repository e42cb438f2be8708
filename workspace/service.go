// Package workspace is racecase's application service: a learner's
// workspaces (their own copy of a dossier's repository, saved with optimistic
// concurrency), the diff against the original, hints, progress, and runs that
// go through a River queue on the same SQLite database and are executed by the
// runner exactly once per verdict.
//
// Every failure a learner can cause is an *Error with a code; the api
// package maps codes to HTTP statuses in one place.
package workspace

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store"
)

// Runner runs jobs in containers; *runner.Docker is one.
type Runner interface {
	runner.Runner
	// Ping checks that the engine answers.
	Ping(ctx context.Context) error
	// Reap removes leftover containers carrying every given "key=value" label.
	Reap(ctx context.Context, labels ...string) (int, error)
	// ReapWhere removes the managed containers for which dead reports true.
	ReapWhere(ctx context.Context, dead func(runner.Leftover) bool) (int, error)
}

// Config is what a Service needs besides the database.
type Config struct {
	// Dossiers are the dossiers learners can open.
	Dossiers []*challenges.Dossier
	// Content holds the dossiers' folders (challenges.FS).
	Content fs.FS
	// Runner executes runs. Without one the process executes no runs: on a
	// shared database (PostgreSQL) they are queued for the workers of other
	// processes; on an unshared one they answer EUNAVAILABLE.
	Runner Runner
	// Image is the runner image to run.
	Image string
	// HiddenSuite returns a dossier's hidden suite (hiddentests.Suite).
	HiddenSuite func(slug string) (map[string][]byte, error)
	// Workers bounds how many runs execute at once; 0 means runtime.NumCPU().
	Workers int
	// MaxInFlight bounds queued plus running runs; past it a run is refused
	// with ETOOMANY. 0 means 8 per worker.
	MaxInFlight int
	// RunGrace is how long a run may take beyond the longest wall-clock limit
	// of the dossiers (container start and clean-up) before it is abandoned
	// and retried; 0 means 30 s. It also bounds how soon, after a crash, a run
	// that was running is run again.
	RunGrace time.Duration
	// RescueAfter is how long a run must have been running, and past its time
	// budget, before the queue treats it as orphaned by a dead process and
	// runs it again (River's RescueStuckJobsAfter); 0 means 10 s.
	RescueAfter time.Duration
	// MaxWorkspaces is how many workspaces one learner may have; 0 means
	// DefaultMaxWorkspaces.
	MaxWorkspaces int
	// HistoryVersions and HistoryBytes bound the replaced versions kept of
	// each file: the newest HistoryVersions whose sizes add up to at most
	// HistoryBytes. 0 means DefaultHistoryVersions and DefaultHistoryBytes.
	HistoryVersions int
	HistoryBytes    int64
	// RunsKept is how many finished runs of each workspace are kept with
	// their snapshots and events; older ones are pruned every PruneEvery.
	// 0 means DefaultRunsKept and DefaultPruneEvery.
	RunsKept   int
	PruneEvery time.Duration
	// Registerer receives the run metrics; nil means they are not registered.
	Registerer prometheus.Registerer
	// Logger receives the service's logs; nil means slog.Default().
	Logger *slog.Logger
	// QueueLogger receives River's logs; nil means River's default (warnings
	// to standard output).
	QueueLogger *slog.Logger
}

// Service is the application service. It is safe for concurrent use.
type Service struct {
	store    store.DB
	cfg      Config
	mu       sync.RWMutex        // guards dossiers, order and index
	dossiers map[string]*dossier // replaced, never changed in place, by Publish and Withdraw
	order    []string            // slugs, sorted
	index    *challenges.Index   // the catalog search over the served dossiers
	log      *slog.Logger
	metrics  *metrics
	notify   *broker
	inflight *inflight
	runs     *runQueue    // nil without a runner
	pruner   *background  // prunes old runs; nil unless started
	listener *background  // relays other processes' changes; nil unless started
	timeout  atomic.Int64 // the most one run may take, in nanoseconds
	now      func() time.Time
	built    time.Time // when New built the service
	gitKey   []byte    // derives git tokens
}

// dossier is a dossier with its original repository, ready to copy.
type dossier struct {
	*challenges.Dossier
	files    map[string]string // original content by path
	paths    []string          // sorted
	readonly map[string]bool
}

// New builds the service over an open database. Call Start to begin working
// queued runs and Stop before closing the database.
func New(ctx context.Context, database store.DB, cfg Config) (*Service, error) {
	cfg.Workers = orDefault(cfg.Workers, runtime.NumCPU())
	cfg.MaxInFlight = orDefault(cfg.MaxInFlight, 8*cfg.Workers)
	cfg.RunGrace = orDefault(cfg.RunGrace, 30*time.Second)
	cfg.RescueAfter = orDefault(cfg.RescueAfter, 10*time.Second)
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	cfg.MaxWorkspaces = orDefault(cfg.MaxWorkspaces, DefaultMaxWorkspaces)
	cfg.HistoryVersions = orDefault(cfg.HistoryVersions, DefaultHistoryVersions)
	cfg.HistoryBytes = orDefault(cfg.HistoryBytes, DefaultHistoryBytes)
	cfg.RunsKept = orDefault(cfg.RunsKept, DefaultRunsKept)
	cfg.PruneEvery = orDefault(cfg.PruneEvery, DefaultPruneEvery)
	s := &Service{
		store:    database,
		cfg:      cfg,
		dossiers: map[string]*dossier{},
		log:      cfg.Logger,
		notify:   newBroker(),
		inflight: newInflight(),
		now:      time.Now,
		built:    time.Now(),
	}
	var err error
	if s.gitKey, err = s.gitTokenKey(ctx); err != nil {
		return nil, err
	}
	for _, d := range cfg.Dossiers {
		if err := s.Publish(d, cfg.Content); err != nil {
			return nil, err
		}
	}
	s.metrics = newMetrics(s)
	if cfg.Registerer != nil {
		if err := s.metrics.register(cfg.Registerer); err != nil {
			return nil, fmt.Errorf("workspace: register metrics: %w", err)
		}
	}
	if cfg.Runner != nil || database.Shared() {
		q, err := newRunQueue(ctx, s)
		if err != nil {
			return nil, err
		}
		s.runs = q
	}
	return s, nil
}

// orDefault returns v, or def when v is zero or negative.
func orDefault[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// loadDossier reads d's original repository.
func loadDossier(content fs.FS, d *challenges.Dossier) (*dossier, error) {
	raw, err := d.RepoFiles(content)
	if err != nil {
		return nil, fmt.Errorf("workspace: dossier %s: %w", d.Slug, err)
	}
	out := &dossier{Dossier: d, files: map[string]string{}, readonly: map[string]bool{}}
	for p, data := range raw {
		out.files[p] = string(data)
		out.paths = append(out.paths, p)
	}
	slices.Sort(out.paths)
	for _, p := range d.ReadonlyFiles {
		out.readonly[p] = true
	}
	return out, nil
}

// Start starts pruning old runs in the background and, on a shared
// database, relaying the changes of other processes to this one's watchers;
// with a runner, it removes containers a killed earlier process left behind
// and starts working queued runs, including runs that process left queued
// or running.
func (s *Service) Start(ctx context.Context) error {
	s.startPruning()
	if s.store.Shared() {
		s.listener = s.startListening()
	}
	if s.runs == nil {
		return nil
	}
	return s.runs.start(ctx)
}

// Stop stops taking runs and waits, until ctx ends, for the running ones to
// record their verdicts (runs it has to abandon are run again after the
// next Start), then stops pruning.
func (s *Service) Stop(ctx context.Context) error {
	defer s.listener.end()
	defer s.stopPruning()
	if s.runs == nil {
		return nil
	}
	return s.runs.stop(ctx)
}

// Ready reports whether the database answers and, when runs are enabled, the
// runner does too.
func (s *Service) Ready(ctx context.Context) (database, runnerErr error) {
	if err := s.store.Ping(ctx); err != nil {
		database = fmt.Errorf("database: %w", err)
	}
	switch {
	case s.cfg.Runner == nil && s.runs != nil:
		// Runs are queued for the workers of other processes.
	case s.cfg.Runner == nil:
		runnerErr = errNoRunner()
	default:
		if err := s.cfg.Runner.Ping(ctx); err != nil {
			runnerErr = fmt.Errorf("runner: %w", err)
		}
	}
	return database, runnerErr
}

// errNoRunner is the answer to a run request when no runner is configured.
func errNoRunner() *Error {
	return &Error{
		Code: EUNAVAILABLE,
		Message: "Runs are unavailable: racecase started without a Docker engine. " +
			"Start one (./.ci/docker-engine or `make engine`) and restart racecase.",
		RetryAfter: 30 * time.Second,
	}
}

// dossier returns the dossier with the given slug, or ENOTFOUND.
func (s *Service) dossier(slug string) (*dossier, error) {
	d, ok := s.lookup(slug)
	if !ok {
		return nil, Errorf(ENOTFOUND, "There is no dossier %q.", slug)
	}
	return d, nil
}

// millis converts a time to the database's Unix milliseconds.
func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis converts the database's Unix milliseconds to a time in UTC.
func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
