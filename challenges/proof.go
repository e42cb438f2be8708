package challenges

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"github.com/racecase/racecase/runner"
)

// ProofOptions tunes Prove.
type ProofOptions struct {
	// Image is the runner image to use.
	Image string
	// Runs is how many times the reference fix runs against the hidden suite;
	// every run must pass with identical results. Values below 1 mean 1.
	Runs int
	// Parallel is how many runs may be in flight at once; values below 1 mean 1.
	Parallel int
	// Hidden is the dossier's hidden suite, the secret files of hidden runs
	// (Prove's; ProveAll takes each dossier's with the dossier).
	Hidden map[string][]byte
	// Progress, when set, is called with how many of the proof's container
	// runs are done and how many there are: once before the first starts,
	// then after each one. A mutant counts as one run, though a verdict that
	// is neither pass nor fail runs it a second time. Calls may come from
	// several goroutines, one at a time.
	Progress func(done, total int)
	// Mutants also proves the hidden suite against the mutants of the
	// reference fix (see Mutant): each runs once, and every one not marked
	// equivalent must fail.
	Mutants bool
	// Syntax drops the mutants that do not parse; needed with Mutants.
	Syntax SyntaxChecker
}

// Proof is the outcome of one claim about a dossier, such as "the buggy repo
// fails the hidden suite" or "decoy sleep-recheck fails the hidden suite".
type Proof struct {
	// Dossier is the dossier's slug.
	Dossier string `json:"dossier"`
	// Subject is what ran: "buggy repo", "reference fix" or "decoy <name>".
	Subject string `json:"subject"`
	// Suite is "visible" or "hidden".
	Suite runner.Suite `json:"suite"`
	// Want is the verdict the dossier needs.
	Want runner.Verdict `json:"want"`
	// Got is the verdict of the first run.
	Got runner.Verdict `json:"got"`
	// Runs is how many runs were made.
	Runs int `json:"runs"`
	// Identical is how many runs gave exactly the results of the first.
	Identical int `json:"identical"`
	// OK is true when every run gave Want with identical results (and, for
	// the reference fix's hidden suite, stayed within its margins).
	OK bool `json:"ok"`
	// Detail says what decided the verdict, e.g. the failing test.
	Detail string `json:"detail"`
	// Margins is, for the reference fix's hidden suite, how much of its
	// budgets the exploration used; nil for every other claim.
	Margins *Margins `json:"margins,omitempty"`
	// Mutant is, for a mutant's claim, the mutant and what became of it.
	Mutant *MutantProof `json:"mutant,omitempty"`
	// Mutation is, for the dossier's "mutants" claim, its mutation score.
	Mutation *MutationScore `json:"mutation,omitempty"`

	runMS int64 // a mutant's container time, for the score
}

// Margins is how close a passing hidden suite came to its limits. A reference
// fix may use at most half of any budget, so that a correct fix written in
// another style, or a slower machine, still has room.
type Margins struct {
	// Schedules is the most schedules one test explored, and Test names it.
	Schedules int `json:"schedules"`
	// ScheduleBudget is that test's schedule budget.
	ScheduleBudget int `json:"schedule_budget"`
	// Test is the test that explored the most schedules.
	Test string `json:"test"`
	// Longest is the most steps one schedule took, in any test.
	Longest int `json:"longest"`
	// StepBudget is the step budget of the test with the longest schedule.
	StepBudget int `json:"step_budget"`
	// Work is the most work (steps run in all) one test's exploration took,
	// and WorkBudget that test's work budget.
	Work       int `json:"work"`
	WorkBudget int `json:"work_budget"`
	// CPUMS is the most CPU time one run used, in ms.
	CPUMS int64 `json:"cpu_ms"`
	// CPUBudgetMS is the run's CPU-time limit, in ms.
	CPUBudgetMS int64 `json:"cpu_budget_ms"`
	// SlowestMS is the slowest run's duration in the container, in ms; it
	// is reported, not judged: the wall clock depends on the machine's load.
	SlowestMS int64 `json:"slowest_ms"`
	// WallMS is the run's wall-clock backstop, in ms.
	WallMS int64 `json:"wall_ms"`
}

// marginShare is the most of any budget a reference fix may use.
const marginShare = 0.5

// problem says which margin a reference fix overstepped, or "" when none.
func (m *Margins) problem() string {
	switch {
	case float64(m.Schedules) > marginShare*float64(m.ScheduleBudget):
		return fmt.Sprintf("%q explored %d of its %d schedules, more than half its budget", m.Test, m.Schedules, m.ScheduleBudget)
	case float64(m.Longest) > marginShare*float64(m.StepBudget):
		return fmt.Sprintf("a schedule took %d of its %d steps, more than half its budget", m.Longest, m.StepBudget)
	case float64(m.Work) > marginShare*float64(m.WorkBudget):
		return fmt.Sprintf("an exploration ran %d of its %d steps of work, more than half its budget", m.Work, m.WorkBudget)
	case float64(m.CPUMS) > marginShare*float64(m.CPUBudgetMS):
		return fmt.Sprintf("a run used %d ms of the %d ms CPU-time limit, more than half of it", m.CPUMS, m.CPUBudgetMS)
	}
	return ""
}

// String reports the margins in one line that does not vary between runs
// (the time margins are in the JSON only).
func (m *Margins) String() string {
	return fmt.Sprintf("schedules %d/%d, steps %d/%d, work %d/%d", m.Schedules, m.ScheduleBudget, m.Longest, m.StepBudget, m.Work, m.WorkBudget)
}

// marginsOf measures a passing hidden run against its budgets.
func marginsOf(res *runner.Results, lim runner.Limits) *Margins {
	m := &Margins{CPUBudgetMS: lim.CPU.Milliseconds(), WallMS: lim.Wall.Milliseconds()}
	for _, t := range res.Tests {
		if t.Budget == nil {
			continue
		}
		if m.Test == "" || float64(t.Schedules)/float64(t.Budget.Schedules) > float64(m.Schedules)/float64(m.ScheduleBudget) {
			m.Test, m.Schedules, m.ScheduleBudget = t.Name, t.Schedules, t.Budget.Schedules
		}
		if m.StepBudget == 0 || float64(t.Longest)/float64(t.Budget.Steps) > float64(m.Longest)/float64(m.StepBudget) {
			m.Longest, m.StepBudget = t.Longest, t.Budget.Steps
		}
		if t.Budget.Work > 0 && (m.WorkBudget == 0 || float64(t.Work)/float64(t.Budget.Work) > float64(m.Work)/float64(m.WorkBudget)) {
			m.Work, m.WorkBudget = t.Work, t.Budget.Work
		}
	}
	return m
}

// buggySubject is the Subject of the claims about the learner's starting repository.
const buggySubject = "buggy repo"

// claim is one subject and suite to run, with the verdict the dossier needs.
type claim struct {
	subject string
	suite   runner.Suite
	files   map[string][]byte
	want    runner.Verdict
	runs    int
	decoy   string       // the decoy's name, for a decoy's claim
	mutant  *MutantProof // the mutant, for a mutant's claim
	// only names the tests whose scenarios alone the run explores (nil: all):
	// a decoy's claim needs only the tests its wrong turns name.
	only []string
}

// job is the runner job of one run of the claim.
func (c claim) job(d *Dossier, image string, hidden map[string][]byte) runner.Job {
	job := d.NewJob(image, c.suite, c.files, hidden)
	if c.only != nil {
		// A list of strings always marshals.
		names, _ := json.Marshal(c.only)
		job.Secret[OnlyTestsFile] = names
	}
	return job
}

// Prove runs every claim a dossier makes through r: the buggy repo fails the
// visible and the hidden suite; the reference fix passes both, the hidden one
// opts.Runs times in a row with identical results; every decoy fails the hidden
// suite, as each wrong turn written from it says (failing its tests and
// passing its passes); with opts.Mutants, every mutant of the reference fix
// not marked equivalent fails the hidden suite and every one marked passes,
// followed by the dossier's mutation score. It returns the proofs in that
// order; an error means the runner itself failed and nothing can be
// concluded.
func Prove(ctx context.Context, r runner.Runner, fsys fs.FS, d *Dossier, opts ProofOptions) ([]Proof, error) {
	return ProveAll(ctx, r, fsys, []DossierSuite{{Dossier: d, Hidden: opts.Hidden}}, opts)
}

// DossierSuite is a dossier with its hidden suite, as ProveAll takes them.
type DossierSuite struct {
	// Dossier is the dossier to prove.
	Dossier *Dossier
	// Hidden is its hidden suite, the secret files of its hidden runs.
	Hidden map[string][]byte
}

// ProveAll proves each dossier as Prove does, with their hidden suites from
// suites (opts.Hidden is not used), and returns the proofs dossier by
// dossier. Every run of every dossier shares one pool of opts.Parallel
// runs, so one dossier's long explorations overlap another's short ones;
// the order they start in changes only how long the whole takes, never a
// proof (see startOrder).
func ProveAll(ctx context.Context, r runner.Runner, fsys fs.FS, suites []DossierSuite, opts ProofOptions) ([]Proof, error) {
	plans := make([]*proofPlan, len(suites))
	for i, s := range suites {
		p, err := planProof(ctx, fsys, s, opts)
		if err != nil {
			return nil, err
		}
		plans[i] = p
	}
	if err := runPlans(ctx, r, plans, opts); err != nil {
		return nil, err
	}
	var proofs []Proof
	for _, p := range plans {
		proofs = append(proofs, p.judge(opts.Image)...)
	}
	return proofs, nil
}

func (d *Dossier) claims(fsys fs.FS, runs int) ([]claim, error) {
	buggy, err := d.RepoFiles(fsys)
	if err != nil {
		return nil, err
	}
	fixed, err := d.SolutionFiles(fsys)
	if err != nil {
		return nil, err
	}
	decoys, err := d.Decoys(fsys)
	if err != nil {
		return nil, err
	}
	claims := []claim{
		{subject: buggySubject, suite: runner.SuiteVisible, files: buggy, want: runner.VerdictFail, runs: 1},
		{subject: buggySubject, suite: runner.SuiteHidden, files: buggy, want: runner.VerdictFail, runs: 1},
		{subject: "reference fix", suite: runner.SuiteVisible, files: fixed, want: runner.VerdictPass, runs: 1},
		{subject: "reference fix", suite: runner.SuiteHidden, files: fixed, want: runner.VerdictPass, runs: runs},
	}
	for _, decoy := range decoys {
		claims = append(claims, claim{subject: "decoy " + decoy.Name, suite: runner.SuiteHidden, files: decoy.Files,
			want: runner.VerdictFail, runs: 1, decoy: decoy.Name, only: d.WrongTurnTests(decoy.Name)})
	}
	return claims, nil
}

// judgeClaim decides one claim from its runs' results, in run order.
func (d *Dossier) judgeClaim(image string, hidden map[string][]byte, c claim, results []*runner.Results) Proof {
	job := c.job(d, image, hidden)
	p := Proof{Dossier: d.Slug, Subject: c.subject, Suite: c.suite, Want: c.want}
	var first, missed string
	measured := c.suite == runner.SuiteHidden && c.want == runner.VerdictPass
	for i, res := range results {
		run := i + 1
		fingerprint := resultsFingerprint(res)
		p.Runs++
		if run == 1 {
			first = fingerprint
			p.Got = res.Verdict
			p.Detail = explain(res)
			if c.decoy != "" {
				missed = d.wrongTurnMissed(c.decoy, testsWith(res, runner.StatusFail), testsWith(res, runner.StatusPass))
			}
			if measured {
				p.Margins = marginsOf(res, job.Limits.WithDefaults())
			}
		}
		if p.Margins != nil {
			p.Margins.SlowestMS = max(p.Margins.SlowestMS, res.DurationMS)
			p.Margins.CPUMS = max(p.Margins.CPUMS, res.CPUMS)
		}
		if fingerprint == first {
			p.Identical++
		} else if p.Identical == run-1 {
			p.Detail = fmt.Sprintf("run %d differed from run 1: %s", run, explain(res))
		}
	}
	p.OK = p.Got == c.want && p.Identical == p.Runs
	if p.OK && missed != "" {
		p.OK, p.Detail = false, missed
	}
	if p.Margins != nil && p.OK {
		if why := p.Margins.problem(); why != "" {
			p.OK, p.Detail = false, why
		}
	}
	if c.subject == buggySubject && p.Got == runner.VerdictPass {
		if marked := SkeletonFiles(c.files); len(marked) > 0 {
			p.Detail = fmt.Sprintf("skeleton bug not written yet: write it in repo/%s (%s)",
				strings.Join(marked, ", repo/"), SkeletonMarker)
		}
	}
	return p
}

// resultsFingerprint is the part of a result that must repeat exactly: the
// verdict and every test's outcome, message and trace (not timings).
func resultsFingerprint(res *runner.Results) string {
	data, _ := json.Marshal(struct {
		Verdict runner.Verdict      `json:"verdict"`
		Message string              `json:"message"`
		Tests   []runner.TestResult `json:"tests"`
	}{res.Verdict, res.Message, res.Tests})
	return string(data)
}

// testsWith names the tests of a result that have a status.
func testsWith(res *runner.Results, status string) []string {
	var out []string
	for _, t := range res.Tests {
		if t.Status == status {
			out = append(out, t.Name)
		}
	}
	return out
}

// explain names what decided a result: the first test that failed, else
// the first in error, or the run-level message. A failed test says what went
// wrong; one left undecided after it (an error) says only that the
// exploration stopped.
func explain(res *runner.Results) string {
	for _, status := range []string{runner.StatusFail, runner.StatusError} {
		for _, t := range res.Tests {
			if t.Status == status {
				return fmt.Sprintf("%s: %s", t.Name, t.Message)
			}
		}
	}
	if res.Message != "" {
		return res.Message
	}
	return fmt.Sprintf("all %d tests passed", len(res.Tests))
}
