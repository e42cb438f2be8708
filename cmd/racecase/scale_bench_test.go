package main

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/racecase/racecase/runner/runnertest"
	"github.com/racecase/racecase/store/storetest"
)

// scaleFigures is what one configuration of BenchmarkScale measured.
type scaleFigures struct {
	p50, p95   time.Duration // submit → verdict seen on the event stream
	runsPerMin float64       // runs finished per minute, first submit to last verdict
}

// BenchmarkScale has scaleLearners learners submit the flagship at once (half
// the reference fix, half the bug) and follow their runs to the verdict, on
// four set-ups measured in the same run: the single process on SQLite (its
// default worker count), then one PostgreSQL database with one API server
// and 1, 2 and 3 worker processes running one run each. It prints each
// set-up's submit→verdict p50 and p95 and runs per minute, and each as a
// ratio to the single process. Run it with make bench-scale.
func BenchmarkScale(b *testing.B) {
	runnertest.Engine(b)
	figures := map[string]scaleFigures{}
	b.Run("sqlite-one-process", func(b *testing.B) {
		for b.Loop() {
			figures[b.Name()] = submitTogether(b, []string{startServe(b, schoolQuotas...).URL})
		}
	})
	url := storetest.FreshPostgres(b)
	bin, _, logFile := buildForRestart(b)
	api := startCluster(b, bin, logFile, "serve", url)
	var workers []*process
	for n := 1; n <= 3; n++ {
		workers = append(workers, startCluster(b, bin, logFile, "worker", url))
		b.Run(fmt.Sprintf("postgres-%d-workers", n), func(b *testing.B) {
			for b.Loop() {
				figures[b.Name()] = submitTogether(b, []string{api.url})
			}
		})
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range figures {
			if !yield(name) {
				return
			}
		}
	})
	base, ok := figures["BenchmarkScale/sqlite-one-process"]
	if !ok {
		return
	}
	fmt.Fprintf(os.Stdout, "\n%d learners submitting at once, against the single process on SQLite:\n", scaleLearners)
	for _, name := range names {
		f := figures[name]
		fmt.Fprintf(os.Stdout, "%-40s p50 %6.2fs (×%.2f)  p95 %6.2fs (×%.2f)  %5.1f runs/min (×%.2f)\n", name,
			f.p50.Seconds(), f.p50.Seconds()/base.p50.Seconds(), f.p95.Seconds(), f.p95.Seconds()/base.p95.Seconds(),
			f.runsPerMin, f.runsPerMin/base.runsPerMin)
	}
}

// submitTogether prepares scaleLearners workspaces on the servers (every
// other one with the reference fix), submits them all at once and waits for
// every verdict on its event stream, checking it.
func submitTogether(b *testing.B, servers []string) scaleFigures {
	b.StopTimer()
	fix := solutionChanges(b)
	type learner struct {
		c     *client
		wsID  string
		fixed bool
	}
	learners := make([]learner, scaleLearners)
	for i := range learners {
		c := newClient(b, servers[i%len(servers)])
		ws := c.createWorkspace()
		if i%2 == 0 {
			for path, content := range fix {
				c.save(ws.ID, path, content)
			}
		}
		learners[i] = learner{c: c, wsID: ws.ID, fixed: i%2 == 0}
	}
	b.StartTimer()
	start := time.Now()
	submitted := make([]time.Time, scaleLearners)
	runIDs := make([]string, scaleLearners)
	for i, l := range learners {
		submitted[i] = time.Now()
		runIDs[i] = l.c.startRun(l.wsID, "submit").ID
	}
	took := make([]time.Duration, scaleLearners)
	errs := make([]error, scaleLearners)
	var wg sync.WaitGroup
	for i, l := range learners {
		wg.Go(func() {
			events, err := l.c.tryStreamRun(runIDs[i], 10*time.Minute, func(*http.Request, *http.Response, []byte) {})
			took[i] = time.Since(submitted[i])
			if err == nil {
				var run runJSON
				run, err = verdictIn(runIDs[i], events)
				if want := map[bool]string{true: "pass", false: "fail"}[l.fixed]; err == nil && run.Verdict != want {
					err = fmt.Errorf("run %s: verdict %q, want %q", runIDs[i], run.Verdict, want)
				}
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			b.Error(err)
		}
	}
	elapsed := time.Since(start)
	slices.Sort(took)
	return scaleFigures{p50: took[len(took)/2], p95: took[len(took)*95/100], runsPerMin: float64(scaleLearners) / elapsed.Minutes()}
}
