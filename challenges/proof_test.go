package challenges

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/racecase/racecase/runner"
)

// scriptedRunner answers each run from the lock.js it is given, so the proof
// logic can be tested without Docker: which variant passes which suite is up
// to the test.
type scriptedRunner struct {
	verdict func(suite runner.Suite, lock string, call int64) runner.Verdict
	calls   atomic.Int64
	err     error
	// schedules, longest and work are what every hidden test reports it
	// explored, against budgets of 100 schedules, 100 steps and 1000 steps of
	// work; duration and cpu are each run's wall-clock and CPU time in ms.
	schedules, longest, work int
	duration, cpu            int64
}

func (s *scriptedRunner) Run(_ context.Context, job runner.Job) (*runner.Results, error) {
	if s.err != nil {
		return nil, s.err
	}
	if job.Suite == runner.SuiteHidden && job.Secret == nil {
		return nil, errors.New("hidden run without its suite")
	}
	v := s.verdict(job.Suite, string(job.Files["src/lock.js"]), s.calls.Add(1))
	status := runner.StatusPass
	if v != runner.VerdictPass {
		status = runner.StatusFail
	}
	test := runner.TestResult{Name: "exactly once", Status: status, Message: string(v)}
	if job.Suite == runner.SuiteHidden {
		test.Schedules, test.Longest, test.Work = s.schedules, s.longest, s.work
		test.Budget = &runner.Budget{Schedules: 100, Steps: 100, Work: 1000}
	}
	return &runner.Results{Version: 3, Status: status, Verdict: v, Tests: []runner.TestResult{test}, DurationMS: s.duration, CPUMS: s.cpu}, nil
}

func tinyLock(t *testing.T) *Dossier {
	t.Helper()
	d, err := Load(os.DirFS("testdata"), "tiny-lock")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// atomicPasses is a sound dossier: only the reference (setIfAbsent) passes.
func atomicPasses(_ runner.Suite, lock string, _ int64) runner.Verdict {
	if strings.Contains(lock, "setIfAbsent") {
		return runner.VerdictPass
	}
	return runner.VerdictFail
}

func prove(t *testing.T, r runner.Runner) []Proof {
	t.Helper()
	proofs, err := Prove(context.Background(), r, os.DirFS("testdata"), tinyLock(t), ProofOptions{
		Image: "img", Runs: 4, Parallel: 3, Hidden: map[string][]byte{"suite.mjs": []byte("export default {}")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return proofs
}

func TestProveSoundDossier(t *testing.T) {
	proofs := prove(t, &scriptedRunner{verdict: atomicPasses})
	want := []string{"buggy repo/visible", "buggy repo/hidden", "reference fix/visible", "reference fix/hidden", "decoy sleep-recheck/hidden"}
	if len(proofs) != len(want) {
		t.Fatalf("got %d proofs, want %d: %+v", len(proofs), len(want), proofs)
	}
	for i, p := range proofs {
		if got := p.Subject + "/" + string(p.Suite); got != want[i] || !p.OK {
			t.Errorf("proof %d = %s ok=%v (%+v), want %s ok", i, got, p.OK, p, want[i])
		}
	}
	if ref := proofs[3]; ref.Runs != 4 || ref.Identical != 4 {
		t.Errorf("reference hidden: %d/%d identical, want 4/4", ref.Identical, ref.Runs)
	}
}

func TestProveReportsPassingDecoy(t *testing.T) {
	everythingPasses := func(_ runner.Suite, lock string, _ int64) runner.Verdict {
		if strings.Contains(lock, "const current") {
			return runner.VerdictFail // the buggy repo still fails
		}
		return runner.VerdictPass
	}
	proofs := prove(t, &scriptedRunner{verdict: everythingPasses})
	decoy := proofs[len(proofs)-1]
	if decoy.Subject != "decoy sleep-recheck" || decoy.OK || decoy.Got != runner.VerdictPass {
		t.Fatalf("a passing decoy was not reported as a violation: %+v", decoy)
	}
}

func TestProveReportsFlakyReference(t *testing.T) {
	flaky := func(suite runner.Suite, lock string, call int64) runner.Verdict {
		if suite == runner.SuiteHidden && strings.Contains(lock, "setIfAbsent") && call%3 == 0 {
			return runner.VerdictFail
		}
		return atomicPasses(suite, lock, call)
	}
	proofs := prove(t, &scriptedRunner{verdict: flaky})
	ref := proofs[3]
	if ref.OK || ref.Identical == ref.Runs {
		t.Fatalf("a reference that failed one run in three was accepted: %+v", ref)
	}
	if !strings.Contains(ref.Detail, "differed from run 1") && ref.Got == runner.VerdictPass {
		t.Errorf("detail does not say which run differed: %q", ref.Detail)
	}
}

func TestProveStopsOnInfrastructureError(t *testing.T) {
	boom := errors.New("engine went away")
	_, err := Prove(context.Background(), &scriptedRunner{err: boom}, os.DirFS("testdata"), tinyLock(t),
		ProofOptions{Image: "img", Hidden: map[string][]byte{}})
	if !errors.Is(err, boom) {
		t.Fatalf("got %v, want the runner's error", err)
	}
}

func TestProveNeedsTheHiddenSuite(t *testing.T) {
	if _, err := Prove(context.Background(), &scriptedRunner{verdict: atomicPasses}, os.DirFS("testdata"), tinyLock(t), ProofOptions{}); err == nil {
		t.Fatal("Prove ran hidden claims without a hidden suite")
	}
}

func TestProveNamesTheUnwrittenSkeletonBug(t *testing.T) {
	m := fixtureFS(t)
	lock := m[fixture+"/repo/src/lock.js"]
	lock.Data = append([]byte("// "+SkeletonMarker+": write the bug here\n"), lock.Data...)
	d, err := Load(m, fixture)
	if err != nil {
		t.Fatal(err)
	}
	stillCorrect := func(_ runner.Suite, lock string, _ int64) runner.Verdict {
		if strings.Contains(lock, "setTimeout") {
			return runner.VerdictFail // the decoy
		}
		return runner.VerdictPass
	}
	proofs, err := Prove(context.Background(), &scriptedRunner{verdict: stillCorrect}, m, d, ProofOptions{
		Image: "img", Hidden: map[string][]byte{"suite.mjs": []byte("export default {}")},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proofs {
		skeleton := strings.Contains(p.Detail, "skeleton bug not written yet") && strings.Contains(p.Detail, "repo/src/lock.js")
		switch {
		case p.Subject == buggySubject && (p.OK || !skeleton):
			t.Errorf("%s/%s: ok=%v detail %q; want a violation naming the skeleton file", p.Subject, p.Suite, p.OK, p.Detail)
		case p.Subject != buggySubject && (!p.OK || skeleton):
			t.Errorf("%s/%s: ok=%v detail %q; want ok without the skeleton note", p.Subject, p.Suite, p.OK, p.Detail)
		}
	}
}

func TestProveMeasuresTheReferenceAgainstItsBudgets(t *testing.T) {
	ok := prove(t, &scriptedRunner{verdict: atomicPasses, schedules: 40, longest: 12, work: 480, duration: 25_000, cpu: 900})
	ref := ok[3]
	if !ref.OK || ref.Margins == nil || ref.Margins.String() != "schedules 40/100, steps 12/100, work 480/1000" {
		t.Fatalf("reference within its budgets: ok=%v margins %+v", ref.OK, ref.Margins)
	}
	// A slow machine is reported, not judged: 25 s of a 30 s wall backstop
	// still passes when the CPU time is within its margin.
	if m := ref.Margins; m.CPUMS != 900 || m.CPUBudgetMS != 10_000 || m.SlowestMS != 25_000 || m.WallMS != 30_000 {
		t.Errorf("time margins %+v, want 900 of 10000 ms CPU, 25000 of 30000 ms wall", *m)
	}
	for _, p := range ok {
		if p.Margins != nil && p.Subject != "reference fix" {
			t.Errorf("%s/%s carries margins; only the reference's hidden claim does", p.Subject, p.Suite)
		}
	}
	for name, r := range map[string]*scriptedRunner{
		"schedules": {verdict: atomicPasses, schedules: 60, longest: 12},
		"steps":     {verdict: atomicPasses, schedules: 10, longest: 51},
		"work":      {verdict: atomicPasses, schedules: 10, longest: 12, work: 501},
		"cpu":       {verdict: atomicPasses, schedules: 10, longest: 12, cpu: 6000},
	} {
		ref := prove(t, r)[3]
		if ref.OK || !strings.Contains(ref.Detail, "more than half") {
			t.Errorf("%s: a reference over half its budget gave ok=%v detail %q", name, ref.OK, ref.Detail)
		}
	}
}

func TestExplainNamesTheFailureBeforeTheUndecided(t *testing.T) {
	res := &runner.Results{Tests: []runner.TestResult{
		{Name: "first", Status: runner.StatusPass},
		{Name: "undecided", Status: runner.StatusError, Message: "not decided: the exploration stopped"},
		{Name: "broken", Status: runner.StatusFail, Message: "job-7 got 2 notifications"},
	}}
	if got := explain(res); got != "broken: job-7 got 2 notifications" {
		t.Errorf("explain = %q", got)
	}
	res.Tests = res.Tests[:2]
	if got := explain(res); got != "undecided: not decided: the exploration stopped" {
		t.Errorf("without a failure, explain = %q", got)
	}
}

func TestProveReportsWrongTurnNotShownForItsDecoy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(w *WrongTurn)
		detail string
	}{
		{"a test the decoy passes", func(w *WrongTurn) { w.Tests = append(w.Tests, "nobody overwrites a live lock") },
			`its test "nobody overwrites a live lock" did not fail`},
		{"a pass the decoy fails", func(w *WrongTurn) { w.Passes = []string{"exactly once"} },
			`its test "exactly once" did not pass`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tinyLock(t)
			tc.change(&d.WrongTurns[0])
			proofs, err := Prove(context.Background(), &scriptedRunner{verdict: atomicPasses}, os.DirFS("testdata"), d, ProofOptions{
				Image: "img", Hidden: map[string][]byte{"suite.mjs": []byte("export default {}")},
			})
			if err != nil {
				t.Fatal(err)
			}
			if decoy := proofs[len(proofs)-1]; decoy.OK || !strings.Contains(decoy.Detail, tc.detail) {
				t.Fatalf("a decoy whose wrong turn would not be shown was accepted: %+v", decoy)
			}
		})
	}
}

// onlyRecorder records, per decoy lock.js, the tests a hidden run was limited to.
type onlyRecorder struct {
	scriptedRunner
	mu   sync.Mutex
	only map[string]string
}

func (o *onlyRecorder) Run(ctx context.Context, job runner.Job) (*runner.Results, error) {
	o.mu.Lock()
	if job.Suite == runner.SuiteHidden {
		o.only[string(job.Files["src/lock.js"])] = string(job.Secret[OnlyTestsFile])
	}
	o.mu.Unlock()
	return o.scriptedRunner.Run(ctx, job)
}

func TestProveRunsADecoyOnTheTestsItsWrongTurnsName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(d *Dossier)
		want   string
	}{
		{"a failing and a passing test", func(d *Dossier) { d.WrongTurns[0].Passes = []string{"a worker releases its lock"} },
			`["a worker releases its lock","exactly once"]`},
		{"no wrong turn", func(d *Dossier) { d.WrongTurns = nil }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tinyLock(t)
			tc.change(d)
			r := &onlyRecorder{scriptedRunner: scriptedRunner{verdict: atomicPasses}, only: map[string]string{}}
			if _, err := Prove(context.Background(), r, os.DirFS("testdata"), d, ProofOptions{
				Image: "img", Hidden: map[string][]byte{"suite.mjs": []byte("export default {}")},
			}); err != nil {
				t.Fatal(err)
			}
			decoys, err := d.Decoys(os.DirFS("testdata"))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.only[string(decoys[0].Files["src/lock.js"])]; got != tc.want {
				t.Errorf("the decoy's hidden run was limited to %q, want %q", got, tc.want)
			}
			repo, err := d.RepoFiles(os.DirFS("testdata"))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.only[string(repo["src/lock.js"])]; got != "" {
				t.Errorf("the buggy repository's hidden run was limited to %q", got)
			}
		})
	}
}
