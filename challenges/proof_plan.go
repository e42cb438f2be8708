package challenges

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/racecase/racecase/runner"
)

// proofPlan is one dossier's claims and, once runPlans is done, what their
// runs gave.
type proofPlan struct {
	d      *Dossier
	hidden map[string][]byte
	claims []claim
	score  *MutationScore // nil without mutants
	// results holds each claim's runs in run order; a mutant's claim has
	// none and its proof in mutants instead.
	results [][]*runner.Results
	mutants []Proof
}

// planProof lists every claim of one dossier (see Prove) with room for
// their results.
func planProof(ctx context.Context, fsys fs.FS, s DossierSuite, opts ProofOptions) (*proofPlan, error) {
	d := s.Dossier
	if s.Hidden == nil {
		return nil, fmt.Errorf("%s: no hidden suite given", d.Slug)
	}
	claims, err := d.claims(fsys, max(opts.Runs, 1))
	if err != nil {
		return nil, err
	}
	p := &proofPlan{d: d, hidden: s.Hidden}
	if opts.Mutants {
		fixed, err := d.SolutionFiles(fsys)
		if err != nil {
			return nil, err
		}
		var mutants []claim
		mutants, p.score, err = d.mutantClaims(ctx, fsys, fixed, opts.Syntax)
		if err != nil {
			return nil, err
		}
		claims = append(claims, mutants...)
	}
	p.claims = claims
	p.results = make([][]*runner.Results, len(claims))
	p.mutants = make([]Proof, len(claims))
	for i, c := range claims {
		if c.mutant == nil {
			p.results[i] = make([]*runner.Results, c.runs)
		}
	}
	return p, nil
}

// judge decides every claim of the plan from its results, in claim order,
// followed by the mutation score when there are mutants.
func (p *proofPlan) judge(image string) []Proof {
	proofs := make([]Proof, len(p.claims))
	for i, c := range p.claims {
		if c.mutant != nil {
			proofs[i] = p.mutants[i]
			continue
		}
		proofs[i] = p.d.judgeClaim(image, p.hidden, c, p.results[i])
	}
	if p.score != nil {
		first := len(proofs) - (p.score.Equivalent + p.score.NonEquivalent)
		proofs = append(proofs, scoreProof(p.d.Slug, p.score, proofs[first:]))
	}
	return proofs
}

// proofRun is one container run of a plan: run number run of a claim, or
// the whole proof of a mutant's claim (one run, two when the first decides
// nothing).
type proofRun struct {
	plan  *proofPlan
	claim int
	run   int
}

// do makes the run and keeps what it gave in its plan.
func (t proofRun) do(ctx context.Context, r runner.Runner, image string) error {
	p, c := t.plan, t.plan.claims[t.claim]
	if c.mutant != nil {
		proof, err := p.d.proveMutant(ctx, r, image, p.hidden, c)
		p.mutants[t.claim] = proof
		return err
	}
	res, err := r.Run(ctx, c.job(p.d, image, p.hidden))
	if err != nil {
		return fmt.Errorf("%s: %s (%s suite): %w", p.d.Slug, c.subject, c.suite, err)
	}
	p.results[t.claim][t.run] = res
	return nil
}

// cpuLimit is the CPU time the run may use: what startOrder expects it to
// take at most.
func (t proofRun) cpuLimit() int64 {
	c := t.plan.claims[t.claim]
	return int64(t.plan.d.Limits.RunnerLimits(c.suite).WithDefaults().CPU)
}

// startOrder sorts runs so that those that may take longest start first
// (longest processing time first keeps every slot of a pool busy until the
// end): by their CPU-time limit, and at equal limits the hidden runs that
// must pass, which explore every schedule, before the rest. It is stable, so
// runs otherwise keep their claim order. The order changes only how long
// proving takes: every run is its own container and is judged alone.
func startOrder(runs []proofRun) {
	slices.SortStableFunc(runs, func(a, b proofRun) int {
		if c := cmp.Compare(b.cpuLimit(), a.cpuLimit()); c != 0 {
			return c
		}
		return cmp.Compare(b.exploresAll(), a.exploresAll())
	})
}

// exploresAll is 1 for a hidden run that must pass, which explores every
// schedule of every test, and 0 for any other.
func (t proofRun) exploresAll() int {
	if c := t.plan.claims[t.claim]; c.suite == runner.SuiteHidden && c.want == runner.VerdictPass {
		return 1
	}
	return 0
}

// runPlans makes every run of every plan through r, at most opts.Parallel
// at a time (at least one), calling opts.Progress as Prove documents. The
// first runner error stops the runs not yet started and is returned.
func runPlans(ctx context.Context, r runner.Runner, plans []*proofPlan, opts ProofOptions) error {
	var runs []proofRun
	for _, p := range plans {
		for i, c := range p.claims {
			n := c.runs
			if c.mutant != nil {
				n = 1
			}
			for k := range n {
				runs = append(runs, proofRun{plan: p, claim: i, run: k})
			}
		}
	}
	startOrder(runs)
	var mu sync.Mutex
	done := 0
	ran := func() {
		if opts.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done++
		opts.Progress(done, len(runs))
	}
	if opts.Progress != nil {
		opts.Progress(0, len(runs))
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var (
		next     atomic.Int64
		firstErr error
		once     sync.Once
		wg       sync.WaitGroup
	)
	for range max(opts.Parallel, 1) {
		wg.Go(func() {
			for runCtx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(runs) {
					return
				}
				if err := runs[i].do(runCtx, r, opts.Image); err != nil {
					once.Do(func() { firstErr = err; stop() })
					return
				}
				ran()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}
