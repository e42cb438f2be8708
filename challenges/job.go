package challenges

import (
	"time"

	"github.com/racecase/racecase/runner"
)

// RunnerLimits converts the dossier's limits into runner limits; a field the
// dossier leaves at zero stays zero, which the runner replaces by its default.
func (l Limits) RunnerLimits() runner.Limits {
	return runner.Limits{
		CPU:         time.Duration(l.CPUSeconds) * time.Second,
		Wall:        time.Duration(l.WallSeconds) * time.Second,
		MemoryBytes: int64(l.MemoryMiB) << 20,
		Pids:        int64(l.PIDs),
		OutputBytes: int64(l.OutputKiB) << 10,
	}
}

// NewJob builds the runner job that runs suite against files (a full workspace)
// for this dossier in the given runner image. hidden is the dossier's hidden
// suite (hiddentests.Suite); it travels only with hidden runs.
func (d *Dossier) NewJob(image string, suite runner.Suite, files, hidden map[string][]byte) runner.Job {
	job := runner.Job{
		Image:     image,
		Suite:     suite,
		Files:     files,
		Limits:    d.Limits.RunnerLimits(),
		Labels:    map[string]string{},
		RunLabels: map[string]string{"racecase.dossier": d.Slug, "racecase.suite": string(suite)},
	}
	if suite == runner.SuiteHidden {
		job.Secret = hidden
	}
	return job
}
