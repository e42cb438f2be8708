package workspace

import (
	"testing"
	"time"
)

func TestInsightOfSolversAndFailures(t *testing.T) {
	svc := newTestService(t, nil, 0)
	d, _ := svc.lookup(flagship)
	t0 := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	exactly := "exactly one notification per job in every schedule"
	released := "a worker that finishes releases its lock"
	overwrites := "nobody overwrites or deletes a live lock owned by another worker"
	fail := func(at time.Time, failed ...string) outcome {
		return outcome{kind: KindSubmit, verdict: "fail", failed: failed, passed: []string{}, at: at}
	}
	ws := []*wsFacts{
		{id: "w1", learner: "ada", created: t0, pick: "lock-claim",
			reached: map[string]time.Time{StepSubmitted: t0.Add(10 * time.Minute)},
			hints:   []time.Time{t0.Add(time.Minute), t0.Add(20 * time.Minute)},
			outcomes: []outcome{fail(t0.Add(5*time.Minute), exactly, overwrites),
				{kind: KindSubmit, verdict: "pass", failed: []string{}, passed: []string{exactly}, at: t0.Add(10 * time.Minute)}}},
		{id: "w2", learner: "bob", created: t0, pick: "redelivery", reached: map[string]time.Time{},
			outcomes: []outcome{fail(t0.Add(time.Minute), exactly, released), fail(t0.Add(2*time.Minute), exactly, overwrites)}},
		{id: "w3", learner: "cy", created: t0, reached: map[string]time.Time{StepSubmitted: t0.Add(30 * time.Minute)}},
	}
	var in Insight
	svc.fillInsight(&in, d, ws)
	if in.Learners != 3 || in.Solved != 2 || in.SolveRate != 2.0/3 || in.Unpicked != 1 {
		t.Errorf("counts %+v", in)
	}
	if in.MedianSecondsToSolve == nil || *in.MedianSecondsToSolve != 20*60 {
		t.Errorf("median time to solve %v, want 1200 s (10 and 30 minutes)", in.MedianSecondsToSolve)
	}
	if in.MedianHintsBeforeSolving == nil || *in.MedianHintsBeforeSolving != 0.5 {
		t.Errorf("median hints before solving %v, want 0.5 (1 before Ada's solve, none for Cy)", in.MedianHintsBeforeSolving)
	}
	if in.Submissions != 4 || in.FailingSubmissions != 3 {
		t.Errorf("submissions %d, failing %d", in.Submissions, in.FailingSubmissions)
	}
	if p := in.FailedProperties; len(p) != 3 || p[0].Property != exactly || p[0].Submissions != 3 || p[0].Learners != 2 ||
		p[1].Property != overwrites || p[1].Submissions != 2 || p[2].Submissions != 1 {
		t.Errorf("failed properties %+v", p)
	}
	shares := map[string]DecoyResemblance{}
	for _, r := range in.Decoys {
		shares[r.Decoy] = r
	}
	// Failing "exactly one…" and "nobody overwrites…" is how the sleep
	// re-check decoy fails; failing "releases its lock" is never-released's.
	for decoy, want := range map[string]int{"sleep-recheck": 2, "in-process-mutex": 2, "never-released": 1, "global-serialisation": 0} {
		if r := shares[decoy]; r.Submissions != want || r.Share != float64(want)/3 {
			t.Errorf("%s resemblance %+v, want %d of 3", decoy, r, want)
		}
	}
	for _, h := range in.Hypotheses {
		want := map[string][2]int{"lock-claim": {1, 1}, "redelivery": {1, 0}, "double-publish": {0, 0}}[h.ID]
		if h.Picks != want[0] || h.Solvers != want[1] || h.RootCause != (h.ID == "lock-claim") {
			t.Errorf("hypothesis %+v", h)
		}
	}
}
