package runner

// How a Pool warms, hands out and removes its containers.

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

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
