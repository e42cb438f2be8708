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
	if len(warmed) != 1 {
		t.Fatalf("warmed %d shapes for one dossier, want 1", len(warmed))
	}
	learner, ws := newWorkspace(t, svc)
	queued, err := svc.StartRun(context.Background(), learner, ws.ID, KindSubmit)
	if err != nil {
		t.Fatal(err)
	}
	waitVerdict(t, svc, learner, queued.ID)
	// A pool serves a run from a warm container only when these agree.
	job, shape := fake.job(0), warmed[0]
	if job.Image != shape.Image || job.Limits.WithDefaults() != shape.Limits || !maps.Equal(job.Labels, shape.Labels) {
		t.Errorf("the run's job (%s, %+v, %v) is not shaped like the warm one (%s, %+v, %v)",
			job.Image, job.Limits.WithDefaults(), job.Labels, shape.Image, shape.Limits, shape.Labels)
	}
	if shape.Labels[runner.LabelOwner] == "" || shape.Labels[instanceLabel] == "" {
		t.Errorf("warm containers must carry the owner's labels to be reaped like runs: %v", shape.Labels)
	}
}
