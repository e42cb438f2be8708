package authoring

import (
	"strings"
	"testing"
	"time"
)

func TestCPUForWorkCoversEveryStepWithStartUp(t *testing.T) {
	for _, tc := range []struct {
		work int
		want time.Duration
	}{
		{4000, 12 * time.Second},
		{16000, 42 * time.Second},
		{1, 3 * time.Second}, // rounded up to whole seconds
	} {
		if got := cpuForWork(tc.work); got != tc.want {
			t.Errorf("cpuForWork(%d) = %s, want %s", tc.work, got, tc.want)
		}
	}
}

func TestWorkProblemAsksForEnoughCPUTime(t *testing.T) {
	p, over := workProblem("hidden_tests/x/suite.mjs", 16000, 10*time.Second)
	if !over {
		t.Fatal("16000 steps of work under a 10 s CPU limit were accepted")
	}
	if p.Field != "limits.maxWork" || !strings.Contains(p.Fix, "cpu_seconds in dossier.yaml to 42") {
		t.Errorf("problem = %+v", p)
	}
	if _, over := workProblem("suite.mjs", 16000, 42*time.Second); over {
		t.Error("a CPU limit that covers the work was reported")
	}
	if _, over := workProblem("suite.mjs", 0, time.Second); over {
		t.Error("a suite with problems (no work known) was reported")
	}
}
