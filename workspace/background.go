package workspace

import (
	"context"
	"time"
)

// background is a loop running in its own goroutine until stopped.
type background struct {
	stop context.CancelFunc
	done chan struct{}
}

// every calls fn every interval, in a goroutine of its own, until the
// returned loop is stopped.
func every(interval time.Duration, fn func(ctx context.Context)) *background {
	ctx, cancel := context.WithCancel(context.Background())
	b := &background{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(b.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				fn(ctx)
			}
		}
	}()
	return b
}

// once runs fn in the background until it returns or end cancels its
// context.
func once(fn func(ctx context.Context)) *background {
	ctx, cancel := context.WithCancel(context.Background())
	b := &background{stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(b.done)
		fn(ctx)
	}()
	return b
}

// end stops the loop and waits for its last call to return. A nil loop is
// already stopped.
func (b *background) end() {
	if b != nil {
		b.stop()
		<-b.done
	}
}
