package workspace

import "sync"

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
