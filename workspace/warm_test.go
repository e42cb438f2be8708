package workspace

import (
	"context"
	"maps"
	"sync"
	"testing"

	"github.com/racecase/racecase/runner"
)

// warmingRunner is a fake runner with room for warmingRoom warm
// containers that records what it is asked to warm.
type warmingRunner struct {
	*fakeRunner
	mu     sync.Mutex
	warmed []runner.Job
}

// warmingRoom is how many containers a warmingRunner keeps warm.
const warmingRoom = 3

func (w *warmingRunner) WarmOne(job runner.Job) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.warmed) == warmingRoom {
		return false
	}
	w.warmed = append(w.warmed, job)
	return true
}

func TestStartWarmsContainersShapedLikeTheRunsToCome(t *testing.T) {
	fake := &warmingRunner{fakeRunner: &fakeRunner{verdict: runner.VerdictPass}}
	svc := newTestService(t, fake, 0)
	startQueue(t, svc)
	fake.mu.Lock()
	warmed := fake.warmed
	fake.mu.Unlock()
	// Two shapes in turn, one of each, then the check's again: the room is full.
	if len(warmed) != warmingRoom || warmed[2].Limits != warmed[0].Limits || warmed[1].Limits == warmed[0].Limits {
		t.Fatalf("warmed %d containers for one dossier whose checks and submissions have different limits, want one of each shape in turn", len(warmed))
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
