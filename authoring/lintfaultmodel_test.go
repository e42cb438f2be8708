package authoring

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestStatedDurations(t *testing.T) {
	tests := []struct {
		text string
		want []int64
	}{
		{"Every call completes within 1 s.", []int64{1000}},
		{"the visibility timeout (5 s) and a 30 s lease", []int64{5000, 30_000}},
		{"the PSP in 300–800 ms", []int64{300, 800}},
		{"a lookup takes 0.8-1 s and a send 0.4-0.6 s", []int64{400, 600, 800, 1000}},
		{"a quote takes 200 to 400 ms", []int64{200, 400}},
		{"30 min in production, 1000 milliseconds, 2 seconds, 1 hour", []int64{1000, 2000, 1_800_000, 3_600_000}},
		{"it retries at once", []int64{0}},
		{"2 shards of 400 candidates, 3 instances, p99", nil},
	}
	for _, tt := range tests {
		got := statedDurations(tt.text)
		var ms []int64
		for v := range got {
			ms = append(ms, v)
		}
		slices.Sort(ms)
		if !slices.Equal(ms, tt.want) {
			t.Errorf("statedDurations(%q) = %v, want %v", tt.text, ms, tt.want)
		}
	}
}

// A number of the fault model that the README does not state is reported at
// the dossier's field, with a fix; stated in other units it is not.
func TestLintFaultModelAgainstTheREADME(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	readme := filepath.Join(dirs.Challenges, "receipt-twice", "repo", "README.md")
	dossier := filepath.Join(dirs.Challenges, "receipt-twice", "dossier.yaml")
	edit(t, readme, "not acked within the visibility timeout (5 s)", "not acked within the visibility timeout (5000 ms)")
	edit(t, readme, "A claim is written with a 30 s lease", "A claim is written with a lease")
	edit(t, readme, "disappears 30 s after it was written", "disappears after a while")
	edit(t, dossier, "    - {name: mailer, label: Mailer, latency: {max: 1 s}}", "    - {name: mailer, label: Mailer, latency: {min: 250 ms, max: 1 s}}")
	edit(t, dossier, "  handles: one-at-a-time", "  handles: many-at-once")
	report, err := Lint(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.ToSlash(filepath.Join(dirs.Challenges, "receipt-twice", "dossier.yaml"))
	want := []wantLint{
		{file, "fault_model.leases[0].ttl", "the fault model says 30 s for the job claim's lease, but repo/README.md never states 30 s (or 30000 ms)", `state it in the README's fault model (e.g. "within 30 s")`},
		{file, "fault_model.remotes[1].latency.min", "says 250 ms for the shortest mailer call, but repo/README.md never states 250 ms (or 0.25 s)", "or correct fault_model.remotes[1].latency.min"},
		{file, "fault_model.handles", "the fault model says each worker handles many at once, but repo/README.md never says so", "or correct fault_model.handles"},
	}
	for _, w := range want {
		if !hasProblem(report.Problems, file, w) {
			t.Errorf("want %s: %s; got:\n%s", w.field, w.message, report.Problems.Detailed())
		}
	}
	if len(report.Problems) != len(want) {
		t.Errorf("got %d problems, want %d (5000 ms states 5 s):\n%s", len(report.Problems), len(want), report.Problems.Detailed())
	}
}
