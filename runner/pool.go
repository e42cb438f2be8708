package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// DefaultMaxIdle is how long a warm container waits for its run before the
// pool replaces it: well under the age past which a reaper takes a managed
// container for a killed process's leftover (10 minutes).
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

// shapeOf returns the part of a job (limits defaulted) that a warm
// container is made for, and a key equal for jobs one container can serve.
// Within a suite, the key leaves out the CPU time and the wall clock: the
// runner enforces a job's own while it watches the run, and the container's
// watchdog only backs them up (it stops a run whose runner died), so a
// container warmed with larger ones (Pool.budgets, the largest of the suite's
// dossiers) serves a job with smaller ones exactly as one made for it.
func shapeOf(job Job) (Job, string) {
	shape := Job{Image: job.Image, Suite: job.Suite, Limits: job.Limits, Labels: job.Labels}
	keyed := shape
	keyed.Limits.CPU, keyed.Limits.Wall = 0, 0
	b, _ := json.Marshal(keyed) // map keys are sorted; nothing here fails to encode
	return shape, string(b)
}

// take removes from the pool and returns its oldest waiting container of
// key whose watchdog allows at least lim's CPU time and wall clock, else its
// oldest such booting one, else nil. A container known dead stays for its
// watcher to replace.
func (p *Pool) take(key string, lim Limits) *poolEntry {
	p.mu.Lock()
	defer p.mu.Unlock()
	waiting, booting := -1, -1
	for i, e := range p.entries {
		switch {
		case e.key != key || e.shape.Limits.CPU < lim.CPU || e.shape.Limits.Wall < lim.Wall:
		case !isClosed(e.ready):
			if booting < 0 {
				booting = i
			}
		case e.w != nil && !e.w.exit.exited():
			waiting = i
		}
		if waiting >= 0 {
			break
		}
	}
	pick := waiting
	if pick < 0 {
		pick = booting
	}
	if pick < 0 {
		return nil
	}
	e := p.entries[pick]
	p.entries = slices.Delete(p.entries, pick, pick+1)
	close(e.taken)
	return e
}

// add starts warming a container of shape unless the pool is closed or
// full, and reports whether it did. With evict, a full pool first drops its
// oldest waiting container of another shape.
func (p *Pool) add(shape Job, key string, evict, replacement bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.size == 0 {
		return false
	}
	if len(p.entries) >= p.size {
		i := -1
		if evict {
			i = slices.IndexFunc(p.entries, func(e *poolEntry) bool { return e.key != key && isClosed(e.ready) })
		}
		if i < 0 {
			return false
		}
		victim := p.entries[i]
		p.entries = slices.Delete(p.entries, i, i+1)
		close(victim.taken)
		p.work.Add(1)
		go p.removeWhenReady(victim)
	}
	b := p.budgets[key]
	b.CPU, b.Wall = max(b.CPU, shape.Limits.CPU), max(b.Wall, shape.Limits.Wall)
	p.budgets[key] = b
	shape.Limits.CPU, shape.Limits.Wall = b.CPU, b.Wall
	e := &poolEntry{key: key, shape: shape, ready: make(chan struct{}), taken: make(chan struct{}), replacement: replacement}
	p.entries = append(p.entries, e)
	p.work.Add(1)
	go p.warm(e)
	return true
}

// warm boots the entry's container and, while it waits in the pool,
// replaces it when it dies or waits longer than maxIdle. A container that
// died waiting is replaced once; when its replacement dies waiting too, the
// next run of that shape warms the next one.
func (p *Pool) warm(e *poolEntry) {
	defer p.work.Done()
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	e.w, e.err = p.d.prepare(ctx, e.shape)
	cancel()
	close(e.ready)
	if e.err != nil {
		p.log.Warn("runner: could not warm a container", "image", e.shape.Image, "error", e.err.Error())
		p.leave(e)
		return
	}
	stale := time.NewTimer(p.maxIdle)
	defer stale.Stop()
	died := false
	select {
	case <-e.taken:
		return
	case <-e.w.exit.done:
		died = true
	case <-stale.C:
	}
	if !p.leave(e) {
		return // a run took it meanwhile
	}
	p.count(func(s *PoolStats) { s.Replaced++ })
	p.work.Add(1) // the pool's own count is held: this cannot race with Close's wait
	go p.removeWhenReady(e)
	if !died || !e.replacement {
		p.add(e.shape, e.key, false, died)
	}
}

// leave removes the entry from the pool if it is still there, and reports
// whether it was: then the caller is responsible for its container.
func (p *Pool) leave(e *poolEntry) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := slices.Index(p.entries, e)
	if i < 0 {
		return false
	}
	p.entries = slices.Delete(p.entries, i, i+1)
	close(e.taken)
	return true
}

// await waits until the entry's container is warm, or ctx ends.
func (e *poolEntry) await(ctx context.Context) (*warmContainer, error) {
	select {
	case <-e.ready:
		return e.w, e.err
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// dropTaken removes, in the background, the container of an entry a run
// took but could not use.
func (p *Pool) dropTaken(e *poolEntry) {
	p.work.Add(1) // the run's own count is held
	go p.removeWhenReady(e)
}

// removeWhenReady removes the entry's container once it is booted, if it
// booted; the caller added to the pool's work for it.
func (p *Pool) removeWhenReady(e *poolEntry) {
	defer p.work.Done()
	<-e.ready
	if e.w != nil {
		p.removeNow(e.w)
	}
}

// removeAfter removes a run's container in the background and then ends
// the run's count in the pool's work.
func (p *Pool) removeAfter(w *warmContainer) {
	go func() {
		defer p.work.Done()
		p.removeNow(w)
	}()
}

// removeNow removes a container, logging a failure: the reapers remove it
// later.
func (p *Pool) removeNow(w *warmContainer) {
	if err := p.d.discard(context.Background(), w); err != nil {
		p.log.Warn("runner: could not remove a container; the reaper will", "container", w.id, "error", err.Error())
	}
}

// count updates the stats.
func (p *Pool) count(f func(*PoolStats)) {
	p.mu.Lock()
	f(&p.stats)
	p.mu.Unlock()
}

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
