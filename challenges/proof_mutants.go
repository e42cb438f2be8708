package challenges

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"strings"

	"github.com/racecase/racecase/runner"
)

// SyntaxChecker says, for each JavaScript file, why it does not parse, or ""
// when it parses; an error means the check itself could not run.
type SyntaxChecker func(ctx context.Context, files []SourceFile) ([]string, error)

// SourceFile is one JavaScript file to parse: its path inside the repository
// (the extension decides module or script) and its text.
type SourceFile struct {
	Path   string `json:"path"`
	Source string `json:"source"`
}

// Mutant outcomes, in MutantProof.Outcome.
const (
	MutantKilled     = "killed"     // the hidden suite failed it
	MutantSurvived   = "survived"   // the hidden suite passed it: a gap, unless marked equivalent
	MutantEquivalent = "equivalent" // marked equivalent and passed, as it should
	MutantUndecided  = "undecided"  // a timeout or error that did not repeat: not a kill
)

// MutantProof is what became of one mutant, on its proof.
type MutantProof struct {
	Mutant
	// Outcome is MutantKilled, MutantSurvived, MutantEquivalent or MutantUndecided.
	Outcome string `json:"outcome"`
	// KilledBy is the verdict that killed it: "fail", or a "timeout",
	// "error", … that repeated identically when run again.
	KilledBy runner.Verdict `json:"killed_by,omitempty"`
	// Equivalent is the author's reason when the mutant is marked equivalent.
	Equivalent string `json:"equivalent,omitempty"`
}

// MutationScore is how a dossier's hidden suite did against the mutants of
// its reference fix, on the dossier's summary proof.
type MutationScore struct {
	// Generated is how many mutants were derived from the reference fix.
	Generated int `json:"generated"`
	// Unparsed is how many of them did not parse and were dropped.
	Unparsed int `json:"unparsed"`
	// Equivalent is how many of the rest are marked equivalent.
	Equivalent int `json:"equivalent"`
	// NonEquivalent is how many were run and must be killed.
	NonEquivalent int `json:"non_equivalent"`
	// Killed is how many of those the hidden suite killed.
	Killed int `json:"killed"`
	// RunMS is the container time all mutant runs took, in ms (it varies
	// with the machine; the table leaves it out).
	RunMS int64 `json:"run_ms"`
}

// String is the score in one line, e.g. "killed 21 of 21 non-equivalent
// mutants (100%); 2 marked equivalent; 3 did not parse".
func (s *MutationScore) String() string {
	pct := 100.0
	if s.NonEquivalent > 0 {
		pct = 100 * float64(s.Killed) / float64(s.NonEquivalent)
	}
	return fmt.Sprintf("killed %d of %d non-equivalent mutants (%.0f%%); %d marked equivalent; %d of %d generated did not parse",
		s.Killed, s.NonEquivalent, pct, s.Equivalent, s.Unparsed, s.Generated)
}

// mutantsSubject is the Subject of a dossier's mutation score.
const mutantsSubject = "mutants"

// mutantClaims derives the mutants of the reference fix, drops those that
// do not parse, and returns one claim per mutant (each the reference fix's
// files with one file mutated) and the score so far.
func (d *Dossier) mutantClaims(ctx context.Context, fsys fs.FS, fixed map[string][]byte, syntax SyntaxChecker) ([]claim, *MutationScore, error) {
	if syntax == nil {
		return nil, nil, fmt.Errorf("%s: mutants need a syntax checker", d.Slug)
	}
	repo, err := d.RepoFiles(fsys)
	if err != nil {
		return nil, nil, err
	}
	fix, err := readFiles(fsys, path.Join(d.Slug, SolutionDir))
	if err != nil {
		return nil, nil, err
	}
	mutants, err := GenerateMutants(repo, fix)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", d.Slug, err)
	}
	sources := make([]SourceFile, len(mutants))
	for i, m := range mutants {
		sources[i] = SourceFile{Path: m.File, Source: string(m.Source)}
	}
	problems, err := syntax(ctx, sources)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: checking the mutants' syntax: %w", d.Slug, err)
	}
	score := &MutationScore{Generated: len(mutants)}
	var claims []claim
	for i, m := range mutants {
		if problems[i] != "" {
			score.Unparsed++
			continue
		}
		files := maps.Clone(fixed)
		files[m.File] = m.Source
		mp := &MutantProof{Mutant: m, Equivalent: d.Mutants.equivalentReason(m.ID)}
		if mp.Equivalent != "" {
			score.Equivalent++
		} else {
			score.NonEquivalent++
		}
		claims = append(claims, claim{subject: "mutant " + m.ID, suite: runner.SuiteHidden, files: files,
			want: runner.VerdictFail, runs: 1, mutant: mp})
	}
	return claims, score, nil
}

// proveMutant runs one mutant through the hidden suite once. A failure kills
// it; a pass lets it survive (as it should when it is marked equivalent); any
// other verdict (a timeout, an error) kills it only if a second run repeats
// it exactly, and is reported as such.
func (d *Dossier) proveMutant(ctx context.Context, r runner.Runner, image string, hidden map[string][]byte, c claim) (Proof, error) {
	job := d.NewJob(image, c.suite, c.files, hidden)
	mp := *c.mutant
	p := Proof{Dossier: d.Slug, Subject: c.subject, Suite: c.suite, Want: runner.VerdictFail, Mutant: &mp}
	if mp.Equivalent != "" {
		p.Want = runner.VerdictPass
	}
	res, err := r.Run(ctx, job)
	if err != nil {
		return Proof{}, fmt.Errorf("%s: %s: %w", d.Slug, c.subject, err)
	}
	p.Runs, p.Identical, p.Got = 1, 1, res.Verdict
	p.runMS = res.DurationMS
	switch res.Verdict {
	case runner.VerdictPass:
		mp.Outcome = MutantSurvived
	case runner.VerdictFail:
		mp.Outcome, mp.KilledBy = MutantKilled, res.Verdict
	default:
		again, err := r.Run(ctx, job)
		if err != nil {
			return Proof{}, fmt.Errorf("%s: %s: %w", d.Slug, c.subject, err)
		}
		p.Runs++
		p.runMS += again.DurationMS
		cpu := job.Limits.WithDefaults().CPU.Milliseconds()
		if resultsFingerprint(again) == resultsFingerprint(res) {
			p.Identical++
		}
		if p.Identical == p.Runs && countsAsKill(res, cpu) && countsAsKill(again, cpu) {
			mp.Outcome, mp.KilledBy = MutantKilled, res.Verdict
		} else {
			mp.Outcome = MutantUndecided
		}
	}
	what := mp.String()
	switch {
	case mp.Equivalent != "" && mp.Outcome == MutantSurvived:
		mp.Outcome = MutantEquivalent
		p.OK, p.Detail = true, fmt.Sprintf("%s; marked equivalent", what)
	case mp.Equivalent != "" && mp.Outcome == MutantUndecided:
		p.Detail = fmt.Sprintf("%s; marked equivalent, but its runs ended in a %s that decides nothing: %s", what, res.Verdict, explain(res))
	case mp.Equivalent != "":
		p.Detail = fmt.Sprintf("%s; marked equivalent, but the hidden suite tells it apart (%s): remove the mark", what, explain(res))
	case mp.Outcome == MutantKilled && mp.KilledBy == runner.VerdictFail:
		p.OK, p.Detail = true, fmt.Sprintf("%s; killed: %s", what, explain(res))
	case mp.Outcome == MutantKilled:
		p.OK, p.Detail = true, fmt.Sprintf("%s; killed by a %s that repeated: %s", what, mp.KilledBy, explain(res))
	case mp.Outcome == MutantUndecided && p.Identical == p.Runs:
		p.Detail = fmt.Sprintf("%s; a %s that the wall clock decided, which depends on the machine's load and is no kill (run it again on a quiet machine): %s", what, res.Verdict, explain(res))
	case mp.Outcome == MutantUndecided:
		p.Detail = fmt.Sprintf("%s; a %s that did not repeat, which is no kill: %s", what, res.Verdict, explain(res))
	default:
		p.Detail = fmt.Sprintf("%s; SURVIVED: every hidden test passed", what)
	}
	return p, nil
}

// countsAsKill says whether a run that neither passed nor failed tells the
// mutant apart on any machine: a test the harness left in error (its budgets
// are counts), the CPU-time limit used up, memory or output over their caps.
// A run stopped by the wall clock or for sitting idle is not: a busy machine
// starves a container of CPU until it looks idle. Nor is a harness that
// reported nothing.
func countsAsKill(res *runner.Results, cpuLimitMS int64) bool {
	switch res.Verdict {
	case runner.VerdictError:
		return len(res.Tests) > 0
	case runner.VerdictTimeout:
		return cpuLimitMS > 0 && res.CPUMS >= cpuLimitMS*9/10
	case runner.VerdictMemory, runner.VerdictOutputLimit:
		return true
	}
	return false
}

// scoreProof is the summary proof of a dossier's mutants: it holds when the
// hidden suite killed every non-equivalent mutant and every equivalent one
// passed.
func scoreProof(slug string, score *MutationScore, mutants []Proof) Proof {
	p := Proof{Dossier: slug, Subject: mutantsSubject, Suite: runner.SuiteHidden, Want: runner.VerdictFail, Got: runner.VerdictFail, Mutation: score}
	var survivors []string
	held := true
	for _, m := range mutants {
		score.RunMS += m.runMS
		held = held && m.OK
		switch {
		case m.Mutant.Outcome == MutantKilled && m.Mutant.Equivalent == "":
			score.Killed++
		case m.Mutant.Equivalent == "":
			survivors = append(survivors, m.Mutant.ID)
		}
	}
	p.Runs, p.Identical = len(mutants), len(mutants)
	p.OK = held
	p.Detail = score.String()
	if len(survivors) > 0 {
		p.Got = runner.VerdictPass
		p.Detail += "; not killed: " + strings.Join(survivors, ", ")
	}
	return p
}
