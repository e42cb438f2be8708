package workspace

import "github.com/racecase/racecase/runner"

// warmer is a Runner that can start containers ahead of the runs that will
// need them; *runner.Pool is one.
type warmer interface {
	WarmOne(job runner.Job) bool
}

// warm asks a warming runner for containers shaped like the runs of the
// served dossiers (image, limits and this process's labels): one shape per
// distinct set of limits, the checks' first (the run a learner starts most),
// then the submissions', each in slug order, one container of each shape in
// turn, as far as the runner has room.
func (q *runQueue) warm() {
	w, ok := q.s.cfg.Runner.(warmer)
	if !ok {
		return
	}
	seen := map[runner.Limits]bool{}
	var shapes []runner.Job
	for _, suite := range []runner.Suite{runner.SuiteVisible, runner.SuiteHidden} {
		for _, d := range q.s.served() {
			lim := d.Limits.RunnerLimits(suite).WithDefaults()
			if !seen[lim] {
				seen[lim] = true
				shapes = append(shapes, runner.Job{Image: q.s.cfg.Image, Suite: suite, Limits: lim, Labels: q.owner.labels()})
			}
		}
	}
	for more := true; more; {
		more = false
		for _, shape := range shapes {
			if w.WarmOne(shape) {
				more = true
			}
		}
	}
}
