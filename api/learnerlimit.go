package api

import (
	"sync"
	"time"

	"github.com/racecase/racecase/workspace"
	"golang.org/x/time/rate"
)

// DefaultNewLearnersPerMinute is how many new learners one client address
// may create a minute when Config leaves it unset.
const DefaultNewLearnersPerMinute = 30

// maxTrackedClients bounds the addresses the limiter remembers; past it,
// the addresses whose allowance is whole again are forgotten.
const maxTrackedClients = 10_000

// learnerLimiter allows each client address perMinute new learners a
// minute, at most perMinute at once.
type learnerLimiter struct {
	perMinute int
	now       func() time.Time
	mu        sync.Mutex
	clients   map[string]*rate.Limiter
}

// newLearnerLimiter returns a limiter allowing perMinute new learners a
// minute per client.
func newLearnerLimiter(perMinute int) *learnerLimiter {
	return &learnerLimiter{perMinute: perMinute, now: time.Now, clients: map[string]*rate.Limiter{}}
}

// allow takes one new learner from client's allowance, or returns ETOOMANY
// saying when the next one is allowed.
func (l *learnerLimiter) allow(client string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	lim, ok := l.clients[client]
	if !ok {
		if len(l.clients) >= maxTrackedClients {
			l.forgetWhole(now)
		}
		lim = rate.NewLimiter(rate.Every(time.Minute/time.Duration(l.perMinute)), l.perMinute)
		l.clients[client] = lim
	}
	r := lim.ReserveN(now, 1)
	if wait := r.DelayFrom(now); wait > 0 {
		r.CancelAt(now)
		return &workspace.Error{Code: workspace.ETOOMANY, RetryAfter: wait,
			Message: "Too many new learners from your address in the last minute; try again shortly, or keep your session cookie."}
	}
	return nil
}

// forgetWhole drops the clients whose allowance has refilled completely:
// remembering them changes nothing.
func (l *learnerLimiter) forgetWhole(now time.Time) {
	for k, lim := range l.clients {
		if lim.TokensAt(now) >= float64(l.perMinute) {
			delete(l.clients, k)
		}
	}
}
