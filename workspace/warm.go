package workspace

import "github.com/racecase/racecase/runner"

// warmer is a Runner that can start containers ahead of the runs that will
// need them; *runner.Pool is one.
type warmer interface {
	WarmOne(job runner.Job) bool
}

// warm asks a warming runner for containers shaped like the runs of the
// served dossiers (image, limits and this process's labels): one shape per
// suite and set of limits other than time, the checks' first (the run a
// learner starts most), then the submissions', each in the order the dossiers
// are served, one container of each shape in turn, as far as the runner has
// room. A shape gets the most CPU time and wall clock any of its dossiers
// allows, so that one warm container can serve a run of any of them.
func (q *runQueue) warm() {
	w, ok := q.s.cfg.Runner.(warmer)
	if !ok {
		return
	}
	var shapes []runner.Job
	for _, suite := range []runner.Suite{runner.SuiteVisible, runner.SuiteHidden} {
		index := map[runner.Limits]int{}
		for _, d := range q.s.served() {
			lim := d.Limits.RunnerLimits(suite).WithDefaults()
			untimed := lim
			untimed.CPU, untimed.Wall = 0, 0
			i, seen := index[untimed]
			if !seen {
				index[untimed] = len(shapes)
				shapes = append(shapes, runner.Job{Image: q.s.cfg.Image, Suite: suite, Limits: lim, Labels: q.owner.labels()})
				continue
			}
			shapes[i].Limits.CPU = max(shapes[i].Limits.CPU, lim.CPU)
			shapes[i].Limits.Wall = max(shapes[i].Limits.Wall, lim.Wall)
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
