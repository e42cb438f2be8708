package workspace

import (
	"context"
	"maps"
	"sync"
	"testing"

	"github.com/racecase/racecase/runner"
)

// warmingRunner is a fake runner that records what it is asked to warm.
type warmingRunner struct {
	*fakeRunner
	mu     sync.Mutex
	warmed []runner.Job
}

func (w *warmingRunner) Warm(job runner.Job) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.warmed = append(w.warmed, job)
}

func TestStartWarmsContainersShapedLikeTheRunsToCome(t *testing.T) {
	fake := &warmingRunner{fakeRunner: &fakeRunner{verdict: runner.VerdictPass}}
	svc := newTestService(t, fake, 0)
	startQueue(t, svc)
	fake.mu.Lock()
	warmed := fake.warmed
	fake.mu.Unlock()
	if len(warmed) != 2 {
		t.Fatalf("warmed %d shapes for one dossier whose checks and submissions have different limits, want 2", len(warmed))
	}
	learner, ws := newWorkspace(t, svc)
	// A pool serves a run from a warm container only when these agree: the
	// checks' shape first, the run a learner starts most.
	for i, kind := range []string{KindCheck, KindSubmit} {
		queued, err := svc.StartRun(context.Background(), learner, ws.ID, kind)
		if err != nil {
			t.Fatal(err)
		}
		waitVerdict(t, svc, learner, queued.ID)
		job, shape := fake.job(i), warmed[i]
		if job.Image != shape.Image || job.Limits.WithDefaults() != shape.Limits || !maps.Equal(job.Labels, shape.Labels) {
			t.Errorf("the %s run's job (%s, %+v, %v) is not shaped like the warm one (%s, %+v, %v)",
				kind, job.Image, job.Limits.WithDefaults(), job.Labels, shape.Image, shape.Limits, shape.Labels)
		}
	}
	shape := warmed[0]
	if shape.Labels[runner.LabelOwner] == "" || shape.Labels[instanceLabel] == "" {
		t.Errorf("warm containers must carry the owner's labels to be reaped like runs: %v", shape.Labels)
	}
}
