package authoring

import (
	"fmt"
	"time"

	"github.com/racecase/racecase/challenges"
)

// A hidden run stops on its count budgets (schedules, steps, work) so that the
// same code gets the same verdict on any machine; the CPU-time limit is only
// the backstop for code the counts cannot see. For the counts to decide first,
// the CPU-time limit must cover the most work the suite may run. One step of
// work costs about a millisecond of CPU on a loaded 2-core machine; the limit
// must allow cpuPerWorkStep for each, twice that, plus the run's start-up.
const (
	cpuPerWorkStep = 2500 * time.Microsecond
	suiteStartCPU  = 2 * time.Second
)

// cpuForWork is the CPU-time limit a suite whose scenarios may run work steps
// in all needs, rounded up to whole seconds as dossier.yaml states it.
func cpuForWork(work int) time.Duration {
	return (time.Duration(work)*cpuPerWorkStep + suiteStartCPU + time.Second - 1).Truncate(time.Second)
}

// workProblem reports a CPU-time limit that does not cover a suite's work budgets.
func workProblem(file string, work int, cpu time.Duration) (challenges.Problem, bool) {
	need := cpuForWork(work)
	if cpu <= 0 || work <= 0 || cpu >= need {
		return challenges.Problem{}, false
	}
	return challenges.Problem{File: file, Field: "limits.maxWork",
		Message: fmt.Sprintf("the scenarios' work budgets add up to %d steps, which may take %s of CPU time, more than the dossier's limit of %s: "+
			"the run could time out before a count budget decides, and the verdict would depend on the machine", work, need, cpu),
		Fix: fmt.Sprintf("raise limits.cpu_seconds in dossier.yaml to %d, or lower maxWork", int(need.Seconds()))}, true
}
