package api

import (
	"errors"
	"testing"
	"time"

	"github.com/racecase/racecase/workspace"
)

func TestLearnerLimiterRefillsOneAtATime(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLearnerLimiter(30)
	l.now = func() time.Time { return clock }
	for i := range 30 {
		if err := l.allow("203.0.113.7"); err != nil {
			t.Fatalf("learner %d of 30: %v", i+1, err)
		}
	}
	err := l.allow("203.0.113.7")
	var we *workspace.Error
	if !errors.As(err, &we) || we.Code != workspace.ETOOMANY || we.RetryAfter != 2*time.Second {
		t.Fatalf("the 31st: %v", err)
	}
	if err := l.allow("198.51.100.1"); err != nil {
		t.Errorf("another address: %v", err)
	}
	clock = clock.Add(2 * time.Second)
	if err := l.allow("203.0.113.7"); err != nil {
		t.Errorf("after 2 s: %v", err)
	}
	if err := l.allow("203.0.113.7"); err == nil {
		t.Error("a second one after 2 s was allowed")
	}
}
