package workspace

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkPruneRuns10000Workspaces times one pruning pass over 10,000
// workspaces holding RunsKept+5 finished runs each (5 to prune per
// workspace), and reports the heap and resident memory after it.
// Run it with: go test -run '^$' -bench PruneRuns -benchtime 1x ./workspace
func BenchmarkPruneRuns10000Workspaces(b *testing.B) {
	const workspaces, extra = 10_000, 5
	svc := newTestService(b, nil, 0)
	ctx := context.Background()
	ids := make([]string, workspaces)
	for i := range ids {
		learner, err := svc.NewLearner(ctx)
		if err != nil {
			b.Fatal(err)
		}
		v, err := svc.Create(ctx, learner, flagship)
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = v.ID
	}
	created := time.Now().UnixMilli()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		fill := extra // the runs kept by the last pass stay
		if n == 0 {
			fill += svc.cfg.RunsKept
		}
		for i, ws := range ids {
			for r := range fill {
				created++
				insertDoneRun(b, svc, ws, fmt.Sprintf("r_%d_%d_%d", n, i, r), created)
			}
		}
		b.StartTimer()
		pruned, err := svc.PruneRuns(ctx)
		if err != nil || pruned != workspaces*extra {
			b.Fatalf("pruned %d, %v; want %d", pruned, err, workspaces*extra)
		}
	}
	b.StopTimer()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.ReportMetric(float64(m.HeapInuse)/(1<<20), "heap-MiB")
	b.ReportMetric(residentMiB(), "rss-MiB")
}

// residentMiB returns the process's resident memory in MiB (Linux), or 0.
func residentMiB() float64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
