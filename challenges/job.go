package challenges

import (
	"encoding/json"
	"maps"
	"time"

	"github.com/racecase/racecase/runner"
)

// RunnerLimits converts the dossier's limits into the runner limits of a run
// of suite; a field the dossier leaves at zero stays zero, which the runner
// replaces by its default.
func (l Limits) RunnerLimits(suite runner.Suite) runner.Limits {
	cpu := l.CPUSeconds
	if suite == runner.SuiteVisible {
		cpu = l.CheckCPUSeconds
	}
	return runner.Limits{
		CPU:         time.Duration(cpu) * time.Second,
		Wall:        time.Duration(l.WallSeconds) * time.Second,
		MemoryBytes: int64(l.MemoryMiB) << 20,
		Pids:        int64(l.PIDs),
		OutputBytes: int64(l.OutputKiB) << 10,
	}
}

// FaultModelFile is the name under which the dossier's fault model
// (FaultModel.ForSuite, as JSON) travels in a hidden run's secret files, for
// the hidden suite to build its worlds from.
const FaultModelFile = "fault-model.json"

// OnlyTestsFile is the name under which a hidden run's secret files may list
// (as a JSON array) the only tests whose scenarios it explores; each of those
// scenarios runs whole, as in the full suite. `racecase validate` proves a
// decoy with the tests its wrong turns name.
const OnlyTestsFile = "only-tests.json"

// NewJob builds the runner job that runs suite against files (a full workspace)
// for this dossier in the given runner image. hidden is the dossier's hidden
// suite (hiddentests.Suite); it travels only with hidden runs, together with
// the fault model (FaultModelFile).
func (d *Dossier) NewJob(image string, suite runner.Suite, files, hidden map[string][]byte) runner.Job {
	job := runner.Job{
		Image:     image,
		Suite:     suite,
		Files:     files,
		Limits:    d.Limits.RunnerLimits(suite),
		Labels:    map[string]string{},
		RunLabels: map[string]string{"racecase.dossier": d.Slug, "racecase.suite": string(suite)},
	}
	if suite == runner.SuiteHidden {
		job.Secret = maps.Clone(hidden)
		if job.Secret == nil {
			job.Secret = map[string][]byte{}
		}
		// A FaultModel holds only strings, numbers and lists: it always marshals.
		model, _ := json.Marshal(d.FaultModel.ForSuite())
		job.Secret[FaultModelFile] = model
	}
	return job
}
