package workspace

import (
	"context"
	"sync"
	"time"
)

// notifyTimeout bounds telling the other processes of a change.
const notifyTimeout = 5 * time.Second

// publish tells the watchers of each id that it may have changed: those of
// this process at once, and, on a shared database, those of every process
// (this one included) through the database.
func (s *Service) publish(ctx context.Context, ids ...string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), notifyTimeout)
	defer cancel()
	for _, id := range ids {
		s.notify.publish(id)
		if err := s.store.Notify(ctx, id); err != nil {
			s.log.Warn("could not tell the other processes of a change", "id", id, "error", err)
		}
	}
}

// listenTimeout bounds how long Start waits for the relay of other
// processes' changes to listen.
const listenTimeout = 10 * time.Second

// startListening relays the changes other processes publish to this
// process's watchers until the returned loop ends, and waits (a while) until
// the relay listens, so that no change made after Start is missed.
func (s *Service) startListening() *background {
	ready := make(chan struct{})
	var readyOnce sync.Once
	listening := func() {
		// Changes made while not listening were not heard: every watcher re-reads.
		s.notify.publishAll()
		readyOnce.Do(func() { close(ready) })
	}
	loop := once(func(ctx context.Context) {
		if err := s.store.Listen(ctx, s.notify.publish, listening); err != nil {
			s.log.Error("relaying changes between processes stopped", "error", err)
		}
	})
	select {
	case <-ready:
	case <-time.After(listenTimeout):
		s.log.Warn("not yet listening to the changes of other processes; live updates are late until the database answers")
	}
	return loop
}

// broker tells watchers of a run or of a workspace (ids never clash) that
// it may have changed. Signals carry no data: a watcher re-reads what it
// watches. A watcher that is slow to read misses nothing, because one
// pending signal stands for any number of changes.
type broker struct {
	mu       sync.Mutex
	watchers map[string]map[chan struct{}]bool
}

func newBroker() *broker {
	return &broker{watchers: map[string]map[chan struct{}]bool{}}
}

// subscribe returns a channel signalled on every change of id, and a
// function that stops the signals.
func (b *broker) subscribe(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	if b.watchers[id] == nil {
		b.watchers[id] = map[chan struct{}]bool{}
	}
	b.watchers[id][ch] = true
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.watchers[id], ch)
		if len(b.watchers[id]) == 0 {
			delete(b.watchers, id)
		}
		b.mu.Unlock()
	}
}

// publish signals every watcher of id without blocking.
func (b *broker) publish(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.watchers[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// publishAll signals every watcher of anything.
func (b *broker) publishAll() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, chans := range b.watchers {
		for ch := range chans {
			select {
			case ch <- struct{}{}:
			default:
			}
		}
	}
}

// inflight is the set of runs this process is executing.
type inflight struct {
	mu  sync.Mutex
	ids map[string]bool
}

func newInflight() *inflight { return &inflight{ids: map[string]bool{}} }

// add marks id as executing; it returns false when it already was.
func (f *inflight) add(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ids[id] {
		return false
	}
	f.ids[id] = true
	return true
}

// remove marks id as no longer executing.
func (f *inflight) remove(id string) {
	f.mu.Lock()
	delete(f.ids, id)
	f.mu.Unlock()
}
