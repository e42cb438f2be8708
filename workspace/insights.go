package workspace

import (
	"cmp"
	"context"
	"slices"
	"time"
)

// Insight is where a dossier trips learners up, over one scope (a cohort, or
// every learner).
type Insight struct {
	// Dossier is the dossier's slug; Title its title.
	Dossier string `json:"dossier"`
	Title   string `json:"title"`
	// Learners is how many learners opened it; Solved how many of them had a
	// submission pass; SolveRate is Solved / Learners (0 with no learner).
	Learners  int     `json:"learners"`
	Solved    int     `json:"solved"`
	SolveRate float64 `json:"solve_rate"`
	// MedianSecondsToSolve is the median, over the learners who solved it,
	// of the time from opening their workspace to the passing submission.
	MedianSecondsToSolve *float64 `json:"median_seconds_to_solve,omitempty"`
	// MedianHintsBeforeSolving is the median number of hints those learners
	// revealed before their passing submission.
	MedianHintsBeforeSolving *float64 `json:"median_hints_before_solving,omitempty"`
	// Submissions counts every finished submission; FailingSubmissions
	// those in which a hidden test failed.
	Submissions        int `json:"submissions"`
	FailingSubmissions int `json:"failing_submissions"`
	// FailedProperties are the hidden tests that failed, most often first.
	FailedProperties []PropertyFailures `json:"failed_properties"`
	// Decoys are the dossier's decoys that its wrong turns were written from,
	// with how many failing submissions failed as that decoy does.
	Decoys []DecoyResemblance `json:"decoys"`
	// Hypotheses are the dossier's hypotheses with how many learners marked
	// each; RootCause marks the right one.
	Hypotheses []HypothesisTally `json:"hypotheses"`
	// Unpicked is how many learners marked no hypothesis.
	Unpicked int `json:"unpicked"`
}

// PropertyFailures is how often one hidden test failed.
type PropertyFailures struct {
	// Property is the hidden test's name.
	Property string `json:"property"`
	// Submissions is how many failing submissions it failed in; Learners
	// how many learners' submissions.
	Submissions int `json:"submissions"`
	Learners    int `json:"learners"`
}

// DecoyResemblance is how often failing submissions resemble one decoy: they
// failed (and passed) the tests a wrong turn written from it names.
type DecoyResemblance struct {
	// Decoy is the decoy's folder name; LooksLike the wrong turn's one line.
	Decoy     string `json:"decoy"`
	LooksLike string `json:"looks_like"`
	// Submissions is how many failing submissions resemble it; Share is
	// that over all failing submissions (0 with none).
	Submissions int     `json:"submissions"`
	Share       float64 `json:"share"`
}

// HypothesisTally is how many learners marked one hypothesis.
type HypothesisTally struct {
	// ID and Title are the hypothesis's.
	ID    string `json:"id"`
	Title string `json:"title"`
	// RootCause is true for the correct hypothesis.
	RootCause bool `json:"root_cause"`
	// Picks is how many learners marked it; Solvers how many of them solved
	// the dossier.
	Picks   int `json:"picks"`
	Solvers int `json:"solvers"`
}

// Insights returns the insights of a cohort's dossiers, or with cohortID ""
// of every served dossier over every learner (preview learners aside).
func (s *Service) Insights(ctx context.Context, cohortID string) ([]Insight, error) {
	var slugs []string
	if cohortID != "" {
		c, err := s.Cohort(ctx, cohortID)
		if err != nil {
			return nil, err
		}
		slugs = c.Dossiers
	} else {
		s.mu.RLock()
		slugs = slices.Clone(s.order)
		s.mu.RUnlock()
	}
	facts, err := s.loadFacts(ctx, cohortID)
	if err != nil {
		return nil, err
	}
	byDossier := map[string][]*wsFacts{}
	for _, f := range facts {
		byDossier[f.dossier] = append(byDossier[f.dossier], f)
	}
	out := make([]Insight, 0, len(slugs))
	for _, slug := range slugs {
		in := Insight{Dossier: slug, FailedProperties: []PropertyFailures{}, Decoys: []DecoyResemblance{}, Hypotheses: []HypothesisTally{}}
		d, served := s.lookup(slug)
		if served {
			in.Title = d.Title
		}
		s.fillInsight(&in, d, byDossier[slug])
		out = append(out, in)
	}
	return out, nil
}

// fillInsight computes one dossier's insight from its workspaces (oldest
// first); d is nil when the dossier is no longer served.
func (s *Service) fillInsight(in *Insight, d *dossier, ws []*wsFacts) {
	byLearner := map[string][]*wsFacts{}
	var learners []string
	for _, f := range ws {
		if byLearner[f.learner] == nil {
			learners = append(learners, f.learner)
		}
		byLearner[f.learner] = append(byLearner[f.learner], f)
	}
	in.Learners = len(learners)
	var seconds, hints []float64
	picks, solvers := map[string]int{}, map[string]int{}
	for _, l := range learners {
		p := primary(byLearner[l])
		solvedAt, solved := p.solvedAt()
		if solved {
			in.Solved++
			seconds = append(seconds, solvedAt.Sub(p.created).Seconds())
			hints = append(hints, float64(countBefore(p.hints, solvedAt)))
		}
		if pick := newestPick(byLearner[l]); pick != "" {
			picks[pick]++
			if solved {
				solvers[pick]++
			}
		} else {
			in.Unpicked++
		}
	}
	if in.Learners > 0 {
		in.SolveRate = float64(in.Solved) / float64(in.Learners)
	}
	in.MedianSecondsToSolve, in.MedianHintsBeforeSolving = median(seconds), median(hints)
	in.FailedProperties = failedProperties(ws)
	for _, f := range ws {
		for _, o := range f.outcomes {
			if o.kind != KindSubmit {
				continue
			}
			in.Submissions++
			if len(o.failed) > 0 {
				in.FailingSubmissions++
			}
		}
	}
	if d == nil {
		return
	}
	in.Decoys = decoyResemblance(d, ws, in.FailingSubmissions)
	for _, h := range d.Hypotheses {
		in.Hypotheses = append(in.Hypotheses, HypothesisTally{ID: h.ID, Title: h.Title,
			RootCause: h.ID == d.Secret.CorrectHypothesis, Picks: picks[h.ID], Solvers: solvers[h.ID]})
	}
}

// failedProperties counts, per hidden test, the failing submissions it
// failed in and their learners, most often first.
func failedProperties(ws []*wsFacts) []PropertyFailures {
	subs, learners := map[string]int{}, map[string]map[string]bool{}
	for _, f := range ws {
		for _, o := range f.outcomes {
			if o.kind != KindSubmit {
				continue
			}
			for _, name := range o.failed {
				subs[name]++
				if learners[name] == nil {
					learners[name] = map[string]bool{}
				}
				learners[name][f.learner] = true
			}
		}
	}
	out := make([]PropertyFailures, 0, len(subs))
	for name, n := range subs {
		out = append(out, PropertyFailures{Property: name, Submissions: n, Learners: len(learners[name])})
	}
	slices.SortFunc(out, func(a, b PropertyFailures) int {
		return cmp.Or(cmp.Compare(b.Submissions, a.Submissions), cmp.Compare(a.Property, b.Property))
	})
	return out
}

// decoyResemblance counts, for each decoy a wrong turn of d was written
// from, the failing submissions that wrong turn explains.
func decoyResemblance(d *dossier, ws []*wsFacts, failing int) []DecoyResemblance {
	out := []DecoyResemblance{}
	index := map[string]int{}
	for _, w := range d.WrongTurns {
		for _, decoy := range w.Decoys {
			if _, ok := index[decoy]; !ok {
				index[decoy] = len(out)
				out = append(out, DecoyResemblance{Decoy: decoy, LooksLike: w.LooksLike})
			}
		}
	}
	for _, f := range ws {
		for _, o := range f.outcomes {
			if o.kind != KindSubmit || len(o.failed) == 0 {
				continue
			}
			seen := map[string]bool{}
			for _, w := range d.WrongTurns {
				if !w.Explains(o.failed, o.passed) {
					continue
				}
				for _, decoy := range w.Decoys {
					if !seen[decoy] {
						seen[decoy] = true
						out[index[decoy]].Submissions++
					}
				}
			}
		}
	}
	for i := range out {
		if failing > 0 {
			out[i].Share = float64(out[i].Submissions) / float64(failing)
		}
	}
	return out
}

// newestPick returns the hypothesis marked in the newest of a learner's
// workspaces that marked one, or "".
func newestPick(ws []*wsFacts) string {
	for i := len(ws) - 1; i >= 0; i-- {
		if ws[i].pick != "" {
			return ws[i].pick
		}
	}
	return ""
}

// countBefore counts the times at or before end.
func countBefore(times []time.Time, end time.Time) int {
	n := 0
	for _, t := range times {
		if !t.After(end) {
			n++
		}
	}
	return n
}

// median returns the median of xs, or nil when there are none.
func median(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return &m
}
