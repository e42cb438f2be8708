package challenges

import (
	"context"
	"errors"
	"os"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/racecase/racecase/runner"
)

// recordingRunner passes jobs on to scriptedRunner and records the CPU limit
// and suite of each job in the order they start, and the most jobs in flight.
type recordingRunner struct {
	scriptedRunner
	mu             sync.Mutex
	started        []string
	inFlight, most int
	failOnCall     int
	calls          int
}

func (r *recordingRunner) Run(ctx context.Context, job runner.Job) (*runner.Results, error) {
	r.mu.Lock()
	r.calls++
	call := r.calls
	r.started = append(r.started, job.Limits.WithDefaults().CPU.String()+" "+string(job.Suite))
	r.inFlight++
	r.most = max(r.most, r.inFlight)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inFlight--
		r.mu.Unlock()
	}()
	if call == r.failOnCall {
		return nil, errors.New("engine went away")
	}
	return r.scriptedRunner.Run(ctx, job)
}

// twoTinyLocks are two dossiers, the second with four times the CPU limit.
func twoTinyLocks(t *testing.T) []DossierSuite {
	hidden := map[string][]byte{"suite.mjs": []byte("export default {}")}
	small, big := tinyLock(t), tinyLock(t)
	big.Limits.CPUSeconds = 4 * int(small.Limits.RunnerLimits(runner.SuiteHidden).WithDefaults().CPU.Seconds())
	return []DossierSuite{{small, hidden}, {big, hidden}}
}

func TestProveAllGivesEachDossiersOwnProofs(t *testing.T) {
	suites := twoTinyLocks(t)
	opts := ProofOptions{Image: "img", Runs: 3, Parallel: 2}
	var want []Proof
	for _, s := range suites {
		o := opts
		o.Hidden, o.Parallel = s.Hidden, 1
		got, err := Prove(context.Background(), &scriptedRunner{verdict: atomicPasses}, os.DirFS("testdata"), s.Dossier, o)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, got...)
	}
	r := &recordingRunner{scriptedRunner: scriptedRunner{verdict: atomicPasses}}
	got, err := ProveAll(context.Background(), r, os.DirFS("testdata"), suites, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("one pool gave other proofs than each dossier alone:\ngot  %+v\nwant %+v", got, want)
	}
	if r.most > opts.Parallel {
		t.Errorf("%d runs were in flight at once, more than Parallel %d", r.most, opts.Parallel)
	}
}

func TestProveAllStartsTheLongestRunsFirst(t *testing.T) {
	r := &recordingRunner{scriptedRunner: scriptedRunner{verdict: atomicPasses}}
	_, err := ProveAll(context.Background(), r, os.DirFS("testdata"), twoTinyLocks(t), ProofOptions{Image: "img", Runs: 2, Parallel: 1})
	if err != nil {
		t.Fatal(err)
	}
	suites := twoTinyLocks(t)
	big := suites[1].Dossier.Limits.RunnerLimits(runner.SuiteHidden).WithDefaults().CPU.String()
	small := suites[0].Dossier.Limits.RunnerLimits(runner.SuiteHidden).WithDefaults().CPU.String()
	// The big dossier's reference runs (they must pass) come first, then its
	// other hidden runs, then the small dossier's in the same order.
	wantStart := []string{big + " hidden", big + " hidden", big + " hidden", big + " hidden", small + " hidden", small + " hidden"}
	if !reflect.DeepEqual(r.started[:len(wantStart)], wantStart) {
		t.Errorf("runs started in the order %v, want %v first", r.started, wantStart)
	}
}

func TestProveAllStopsAtTheFirstRunnerError(t *testing.T) {
	r := &recordingRunner{scriptedRunner: scriptedRunner{verdict: atomicPasses}, failOnCall: 1}
	done := make(chan error, 1)
	go func() {
		_, err := ProveAll(context.Background(), r, os.DirFS("testdata"), twoTinyLocks(t), ProofOptions{Image: "img", Runs: 3, Parallel: 1})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || r.calls != 1 {
			t.Fatalf("got %v after %d runs, want the runner's error after the first", err, r.calls)
		}
	case <-time.After(time.Minute):
		t.Fatal("ProveAll did not return after the runner failed")
	}
}
