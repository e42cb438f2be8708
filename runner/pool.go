package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// DefaultMaxIdle is how long a warm container waits for its run before the
// pool replaces it: well under the age past which a reaper takes a managed
// container of an owner it does not know for a killed process's leftover
// (40 minutes).
const DefaultMaxIdle = 5 * time.Minute

// PoolConfig configures a Pool.
type PoolConfig struct {
	// Size is how many warm containers the pool keeps at most, booting or
	// waiting; 0 keeps none, and every run starts its container cold.
	Size int
	// MaxIdle is how long a warm container may wait for its run before it
	// is replaced; 0 means DefaultMaxIdle.
	MaxIdle time.Duration
	// Logger receives the pool's failures to warm a container; nil means
	// slog.Default().
	Logger *slog.Logger
}

// PoolStats counts what a Pool did.
type PoolStats struct {
	// Warm counts runs served by a container warmed ahead.
	Warm int64
	// Cold counts runs whose container was started for them.
	Cold int64
	// Replaced counts warm containers dropped unused because they died or
	// waited longer than MaxIdle.
	Replaced int64
}

// Pool is a Runner that keeps a few containers created, started and booted
// ahead of the runs that will need them. Every container still serves
// exactly one run and is removed after it; its budgets start when the
// payload is written, so booting and waiting count against nothing. A warm
// container that died or waited too long is replaced, never used. Pool
// containers carry the labels of the jobs they are warmed for (not their
// RunLabels) and are reaped like any other. It is safe for concurrent use.
type Pool struct {
	d       *Docker
	size    int
	maxIdle time.Duration
	log     *slog.Logger

	mu      sync.Mutex
	closed  bool
	entries []*poolEntry // booting or waiting, oldest first
	// budgets holds, per key, the largest CPU time and wall clock of the jobs
	// seen: a container is warmed with them, so it can serve any of those jobs.
	budgets map[string]Limits
	stats   PoolStats
	work    sync.WaitGroup // runs, warming and removals in flight
}

// poolEntry is one warm container of the pool, from its creation until a
// run takes it or the pool drops it; whoever does is responsible for it.
type poolEntry struct {
	key         string
	shape       Job           // image, limits and labels; no files
	ready       chan struct{} // closed once w or err is set
	w           *warmContainer
	err         error
	taken       chan struct{} // closed when the entry leaves the pool
	replacement bool          // it replaces a container that died waiting
}

var _ Runner = (*Pool)(nil)

// NewPool returns a pool of warm containers on d; it warms nothing before
// the first Run or Warm.
func NewPool(d *Docker, cfg PoolConfig) *Pool {
	if cfg.MaxIdle <= 0 {
		cfg.MaxIdle = DefaultMaxIdle
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return &Pool{d: d, size: max(cfg.Size, 0), maxIdle: cfg.MaxIdle, log: cfg.Logger, budgets: map[string]Limits{}}
}

// Warm fills the pool with containers for jobs shaped like job (its image,
// suite, limits and labels; its files do not matter), as far as there is
// room.
func (p *Pool) Warm(job Job) {
	for p.WarmOne(job) {
	}
}

// WarmOne starts one container for jobs shaped like job when the pool has
// room, and reports whether it did: a caller with several shapes to warm
// takes turns between them.
func (p *Pool) WarmOne(job Job) bool {
	job.Limits = job.Limits.WithDefaults()
	shape, key := shapeOf(job)
	return p.add(shape, key, false, false)
}

// Run runs job in a warm container of its shape when the pool has one, else
// in a container started for it, and warms a container for the next run of
// that shape. The container is removed after the run, in the background.
func (p *Pool) Run(ctx context.Context, job Job) (*Results, error) {
	job, err := checked(job)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.stats.Cold++
		p.mu.Unlock()
		return p.d.Run(ctx, job)
	}
	p.work.Add(1) // handed on to the container's removal
	p.mu.Unlock()

	shape, key := shapeOf(job)
	// Each warm container taken is replaced; two that turn out dead are enough tries.
	for range 2 {
		e := p.take(key, job.Limits)
		p.add(shape, key, true, false)
		if e == nil {
			break
		}
		w, err := e.await(ctx)
		if ctx.Err() != nil {
			p.dropTaken(e)
			p.work.Done()
			return nil, fmt.Errorf("runner: run abandoned: %w", context.Cause(ctx))
		}
		if err != nil || w.exit.exited() {
			p.count(func(s *PoolStats) { s.Replaced++ })
			p.dropTaken(e)
			continue
		}
		res, began, err := p.d.serve(ctx, w, job)
		if err == nil && !began && res.Verdict == VerdictError {
			// It ended before it took the payload: no learner code ran in it.
			p.count(func(s *PoolStats) { s.Replaced++ })
			p.dropTaken(e)
			continue
		}
		p.count(func(s *PoolStats) { s.Warm++ })
		p.removeAfter(w)
		return res, err
	}
	p.count(func(s *PoolStats) { s.Cold++ })
	w, err := p.d.prepare(ctx, job)
	if err != nil {
		p.work.Done()
		return nil, err
	}
	res, _, err := p.d.serve(ctx, w, job)
	p.removeAfter(w)
	return res, err
}

// Stats returns what the pool did so far.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stats
}

// Close stops warming, removes every warm container (those still booting
// once they are up) and waits, until ctx ends, for the removal of the
// containers of finished runs. Runs after Close start their containers
// cold.
func (p *Pool) Close(ctx context.Context) error {
	p.mu.Lock()
	p.closed = true
	dropped := p.entries
	p.entries = nil
	for _, e := range dropped {
		close(e.taken)
	}
	p.mu.Unlock()
	for _, e := range dropped {
		p.work.Add(1)
		go p.removeWhenReady(e)
	}
	done := make(chan struct{})
	go func() {
		p.work.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return errors.New("runner: the pool's containers were not all removed in time")
	}
}

// Ping checks that the engine answers.
func (p *Pool) Ping(ctx context.Context) error { return p.d.Ping(ctx) }

// Reap removes managed containers as Docker.Reap does, the pool's own
// included; a warm container removed that way is replaced.
func (p *Pool) Reap(ctx context.Context, labels ...string) (int, error) {
	return p.d.Reap(ctx, labels...)
}

// ReapWhere removes managed containers as Docker.ReapWhere does.
func (p *Pool) ReapWhere(ctx context.Context, dead func(Leftover) bool) (int, error) {
	return p.d.ReapWhere(ctx, dead)
}
