package challenges

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/racecase/racecase/runner"
)

// tinyLockMutants are the mutants of the fixture's reference fix.
func tinyLockMutants(t *testing.T) []Mutant {
	t.Helper()
	fsys := os.DirFS("testdata")
	repo, err := tinyLock(t).RepoFiles(fsys)
	if err != nil {
		t.Fatal(err)
	}
	fix := map[string][]byte{"src/lock.js": mustRead(t, "testdata/tiny-lock/solution/src/lock.js")}
	ms, err := GenerateMutants(repo, fix)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// parsesUnless is a syntax checker for tests that says every source parses
// except those containing marker; the real one (authoring.CheckSyntax) has
// its own tests.
func parsesUnless(marker string) SyntaxChecker {
	return func(_ context.Context, files []SourceFile) ([]string, error) {
		out := make([]string, len(files))
		for i, f := range files {
			if marker != "" && strings.Contains(f.Source, marker) {
				out[i] = "SyntaxError: unexpected token"
			}
		}
		return out, nil
	}
}

// onlyTheReference is a strong hidden suite: everything but the reference
// fix's own line fails it.
func onlyTheReference(_ runner.Suite, lock string, _ int64) runner.Verdict {
	if strings.Contains(lock, "return store.setIfAbsent(job, owner);") {
		return runner.VerdictPass
	}
	return runner.VerdictFail
}

// onlyTheBugAndDecoy is a weak hidden suite: it fails the buggy repository and
// the decoy, and passes every mutant.
func onlyTheBugAndDecoy(_ runner.Suite, lock string, _ int64) runner.Verdict {
	if strings.Contains(lock, "const current") || strings.Contains(lock, "setTimeout") {
		return runner.VerdictFail
	}
	return runner.VerdictPass
}

func proveMutants(t *testing.T, d *Dossier, r runner.Runner, syntax SyntaxChecker) (claims, mutants []Proof, score Proof) {
	t.Helper()
	proofs, err := Prove(context.Background(), r, os.DirFS("testdata"), d, ProofOptions{
		Image: "img", Runs: 2, Parallel: 3, Hidden: map[string][]byte{"suite.mjs": []byte("export default {}")},
		Mutants: true, Syntax: syntax,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range proofs {
		switch {
		case p.Mutant != nil:
			mutants = append(mutants, p)
		case p.Mutation != nil:
			score = p
		default:
			claims = append(claims, p)
		}
	}
	if last := proofs[len(proofs)-1]; last.Subject != mutantsSubject {
		t.Fatalf("the last proof is %q, want the mutation score", last.Subject)
	}
	return claims, mutants, score
}

func TestProveKillsEveryMutantWithAStrongSuite(t *testing.T) {
	ms := tinyLockMutants(t)
	claims, mutants, score := proveMutants(t, tinyLock(t), &scriptedRunner{verdict: onlyTheReference}, parsesUnless(""))
	if len(claims) != 5 || len(mutants) != len(ms) || len(ms) < 4 {
		t.Fatalf("%d claims and %d mutant proofs for %d mutants", len(claims), len(mutants), len(ms))
	}
	for i, p := range mutants {
		if !p.OK || p.Mutant.Outcome != MutantKilled || p.Mutant.ID != ms[i].ID || p.Subject != "mutant "+ms[i].ID || !strings.Contains(p.Detail, "killed") {
			t.Errorf("mutant %d: %+v", i, p)
		}
	}
	want := fmt.Sprintf("killed %d of %d non-equivalent mutants (100%%); 0 marked equivalent; 0 of %d generated did not parse", len(ms), len(ms), len(ms))
	if !score.OK || score.Detail != want || score.Mutation.Killed != len(ms) {
		t.Errorf("score: ok=%v %q, want %q", score.OK, score.Detail, want)
	}
}

func TestProveFailsADossierWhoseSuiteLetsAMutantPass(t *testing.T) {
	claims, mutants, score := proveMutants(t, tinyLock(t), &scriptedRunner{verdict: onlyTheBugAndDecoy}, parsesUnless(""))
	for _, p := range claims {
		if !p.OK {
			t.Errorf("claim %s/%s did not hold: %s", p.Subject, p.Suite, p.Detail)
		}
	}
	for _, p := range mutants {
		if p.OK || p.Mutant.Outcome != MutantSurvived || !strings.Contains(p.Detail, "SURVIVED") {
			t.Errorf("a surviving mutant was accepted: %+v", p)
		}
	}
	if score.OK || score.Got != runner.VerdictPass || !strings.Contains(score.Detail, "killed 0 of") ||
		!strings.Contains(score.Detail, "not killed: "+mutants[0].Mutant.ID) {
		t.Errorf("score of a suite that kills nothing: ok=%v %q", score.OK, score.Detail)
	}
}

func TestProveEquivalentMarks(t *testing.T) {
	ms := tinyLockMutants(t)
	var marks []EquivalentMutant
	for _, m := range ms {
		marks = append(marks, EquivalentMutant{ID: m.ID, Reason: "a reason long enough to read"})
	}
	d := tinyLock(t)
	d.Mutants = &MutantNotes{Equivalent: marks}
	_, mutants, score := proveMutants(t, d, &scriptedRunner{verdict: onlyTheBugAndDecoy}, parsesUnless(""))
	for _, p := range mutants {
		if !p.OK || p.Mutant.Outcome != MutantEquivalent || p.Want != runner.VerdictPass {
			t.Errorf("an equivalent mutant that passed: %+v", p)
		}
	}
	if !score.OK || score.Mutation.Equivalent != len(ms) || score.Mutation.NonEquivalent != 0 {
		t.Errorf("all marked equivalent: ok=%v %+v", score.OK, score.Mutation)
	}

	// A mutant marked equivalent that the suite tells apart is no equivalent.
	_, mutants, score = proveMutants(t, d, &scriptedRunner{verdict: onlyTheReference}, parsesUnless(""))
	for _, p := range mutants {
		if p.OK || !strings.Contains(p.Detail, "remove the mark") {
			t.Errorf("a killed mutant marked equivalent was accepted: %+v", p)
		}
	}
	if score.OK {
		t.Error("the score held with wrong equivalence marks")
	}
}

func TestProveDropsMutantsThatDoNotParse(t *testing.T) {
	ms := tinyLockMutants(t)
	_, mutants, score := proveMutants(t, tinyLock(t), &scriptedRunner{verdict: onlyTheReference}, parsesUnless("process.pid"))
	dropped := 0
	for _, m := range ms {
		if strings.Contains(string(m.Source), "process.pid") {
			dropped++
		}
	}
	if dropped == 0 || len(mutants) != len(ms)-dropped || score.Mutation.Unparsed != dropped || !score.OK ||
		!strings.Contains(score.Detail, fmt.Sprintf("%d of %d generated did not parse", dropped, len(ms))) {
		t.Errorf("%d of %d mutants do not parse: %d run, score %q", dropped, len(ms), len(mutants), score.Detail)
	}
}

func TestProveCountsOnlyRepeatedTimeoutsAsKills(t *testing.T) {
	for _, tc := range []struct {
		name    string
		message func(call int64) string
		cpuMS   int64
		outcome string
		ok      bool
		detail  string
	}{
		{"repeats at the CPU limit", func(int64) string { return "the run used 10 s of CPU time" }, 9_950, MutantKilled, true,
			"killed by a timeout that repeated"},
		{"differs", func(call int64) string { return fmt.Sprintf("stopped after %d schedules", call) }, 9_950, MutantUndecided, false,
			"did not repeat, which is no kill"},
		{"repeats idle", func(int64) string { return "the run sat idle for 10s" }, 300, MutantUndecided, false,
			"the wall clock decided"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &timeoutRunner{scriptedRunner: scriptedRunner{verdict: onlyTheReference}, message: tc.message, cpuMS: tc.cpuMS}
			_, mutants, score := proveMutants(t, tinyLock(t), r, parsesUnless(""))
			for _, p := range mutants {
				if p.OK != tc.ok || p.Mutant.Outcome != tc.outcome || p.Runs != 2 || !strings.Contains(p.Detail, tc.detail) {
					t.Errorf("timeout that %s: %+v", tc.name, p)
				}
				if tc.ok && p.Mutant.KilledBy != runner.VerdictTimeout {
					t.Errorf("a kill by timeout is not reported as such: %+v", p)
				}
			}
			if score.OK != tc.ok {
				t.Errorf("score ok=%v, want %v: %s", score.OK, tc.ok, score.Detail)
			}
		})
	}
}

// timeoutRunner answers every hidden run of a mutant with a timeout whose
// message message decides, after cpuMS of CPU time.
type timeoutRunner struct {
	scriptedRunner
	message func(call int64) string
	cpuMS   int64
}

func (r *timeoutRunner) Run(ctx context.Context, job runner.Job) (*runner.Results, error) {
	res, err := r.scriptedRunner.Run(ctx, job)
	if err != nil || job.Suite != runner.SuiteHidden || !strings.Contains(string(job.Files["src/lock.js"]), "async (s") &&
		!strings.Contains(string(job.Files["src/lock.js"]), "process.pid") {
		return res, err
	}
	return &runner.Results{Version: 3, Status: runner.StatusError, Verdict: runner.VerdictTimeout, Message: r.message(r.calls.Load()), CPUMS: r.cpuMS}, nil
}

func TestLintFlagsStaleEquivalentMarks(t *testing.T) {
	ms := tinyLockMutants(t)
	mark := func(id string) string {
		return fmt.Sprintf("mutants:\n  equivalent:\n    - id: %s\n      reason: the fixture's lock is never contended twice\n", id)
	}
	m := fixtureFS(t)
	m[fixture+"/dossier.yaml"] = &fstest.MapFile{Data: []byte(fixtureYAML(t) + mark(ms[0].ID))}
	d, err := Load(m, fixture)
	if err != nil {
		t.Fatalf("a mark of an existing mutant: %v", err)
	}
	if d.Mutants.equivalentReason(ms[0].ID) == "" {
		t.Errorf("the mark was not read: %+v", d.Mutants)
	}

	m[fixture+"/dossier.yaml"] = &fstest.MapFile{Data: []byte(fixtureYAML(t) + mark("drop-await-00000000"))}
	ps := loadProblems(t, m)
	if len(ps) != 1 || ps[0].Field != "mutants.equivalent[0].id" || !strings.Contains(ps[0].Message, `no mutant of the reference fix has the id "drop-await-00000000"`) || ps[0].Line == 0 {
		t.Errorf("a stale mark: %v", ps)
	}

	twice := fixtureYAML(t) + mark(ms[0].ID) + fmt.Sprintf("    - id: %s\n      reason: the same mutant marked a second time\n", ms[0].ID)
	m[fixture+"/dossier.yaml"] = &fstest.MapFile{Data: []byte(twice)}
	if ps := loadProblems(t, m); len(ps) != 1 || !strings.Contains(ps[0].Message, "duplicate mutant id") {
		t.Errorf("a mutant marked twice: %v", ps)
	}
}
