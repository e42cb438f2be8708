package authoring

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

// model is a small fault model: workers that handle many pieces of work at
// once, a store and a provider, at-least-once with
// overlapping duplicates every 5 s, a 30 s lease, unbounded pauses, crashes,
// and a store that a waiting request may call at most every 50 ms.
func model() challenges.FaultModel {
	return challenges.FaultModel{
		Workers: 2,
		Handles: challenges.HandlesMany,
		Remotes: []challenges.Remote{
			{Name: "store", Label: "Store", Latency: challenges.Latency{Max: "1 s"}, MinPollInterval: "50 ms"},
			{Name: "provider", Label: "Provider", Latency: challenges.Latency{Min: "100 ms", Max: "2 s"},
				Failures: []challenges.Failure{{Kind: "error", Effect: "none"}}},
		},
		Delivery: challenges.Delivery{Semantics: "at-least-once", RedeliveryAfter: "5 s", Duplicates: "overlapping", SameID: true},
		Leases:   []challenges.Lease{{Name: "job lock", TTL: "30 s", Clock: "store"}},
		Pauses:   &challenges.Pauses{Max: challenges.Unbounded},
		Crashes:  "anywhere",
	}
}

// world is a scenario that explores all of model().
func world(name string) scenarioWorld {
	every := int64(5000)
	w := scenarioWorld{
		Name:             name,
		LatencyMs:        map[string][2]int64{"store": {0, 1000}, "provider": {100, 2000}},
		Fails:            []string{"provider"},
		FailedCalls:      []string{"provider.send"},
		Calls:            map[string][]string{"store": {"get", "setIfAbsent"}, "provider": {"send"}},
		MaxDelays:        2,
		Paces:            3,
		FlipDraws:        2,
		RedeliverEveryMs: &every,
		Overlapping:      true,
		During:           true,
		SameWorker:       true,
		AtOnce:           true,
		Sequential:       true,
		Crash:            true,
		Properties:       []string{"exactlyOncePerJob", "pacedPolls"},
	}
	w.Pauses = append(w.Pauses, struct {
		Ms          int64 `json:"ms"`
		UntilLeases bool  `json:"untilLeases"`
	}{UntilLeases: true})
	return w
}

func TestSuiteGaps(t *testing.T) {
	if gaps := suiteGaps("suite.mjs", model(), []scenarioWorld{world("all of it")}); len(gaps) != 0 {
		t.Fatalf("a suite that explores the whole model has gaps:\n%s", gaps.Detailed())
	}
	tests := []struct {
		name         string
		narrow       func(m *challenges.FaultModel, w *scenarioWorld)
		field, words string
	}{
		{"latency below the bound", func(_ *challenges.FaultModel, w *scenarioWorld) { w.LatencyMs["provider"] = [2]int64{100, 1500} },
			"scenarios[1].limits.maxLatencyMs", "lets a provider call take up to 2000 ms, but scenarios \"narrow\" never let one take that long"},
		{"latency above the floor", func(_ *challenges.FaultModel, w *scenarioWorld) { w.LatencyMs["provider"] = [2]int64{500, 2000} },
			"scenarios[1].limits.maxLatencyMs", "as little as 100 ms"},
		{"latency beyond the model", func(_ *challenges.FaultModel, w *scenarioWorld) { w.LatencyMs["store"] = [2]int64{0, 3000} },
			"scenarios[1].limits.maxLatencyMs", "a correct fix can fail there"},
		{"a remote the subject never gets", func(m *challenges.FaultModel, _ *scenarioWorld) {
			m.Remotes = append(m.Remotes, challenges.Remote{Name: "ledger", Latency: challenges.Latency{Max: "1 s"}})
		}, "subject.deps", `remote "ledger" is never handed to the subject`},
		{"no delays", func(_ *challenges.FaultModel, w *scenarioWorld) { w.MaxDelays = 0 },
			"scenarios[1].limits.maxDelays", "have maxDelays 0"},
		{"no delays, quickest pace only", func(_ *challenges.FaultModel, w *scenarioWorld) { w.MaxDelays, w.Paces = 0, 1 },
			"scenarios[1].limits.paces", "have maxDelays 0 and paces 1"},
		{"delays, quickest pace only", func(_ *challenges.FaultModel, w *scenarioWorld) { w.Paces = 1 },
			"scenarios[1].limits.paces", "have paces 1: a delay makes one call slower at a time"},
		{"no worker alone at its slowest", func(_ *challenges.FaultModel, w *scenarioWorld) { w.Paces = 2 },
			"scenarios", "no scenario explores one worker alone at its slowest"},
		{"random draws never tried the other way", func(_ *challenges.FaultModel, w *scenarioWorld) { w.FlipDraws = 0 },
			"scenarios[1].limits.flipDraws", "have flipDraws 0"},
		{"no redelivery", func(_ *challenges.FaultModel, w *scenarioWorld) {
			w.RedeliverEveryMs, w.Sequential, w.Overlapping = nil, false, false
		},
			"scenarios[1].redeliver", "never deliver the same work again"},
		{"redelivery at another pace", func(_ *challenges.FaultModel, w *scenarioWorld) { every := int64(1000); w.RedeliverEveryMs = &every },
			"scenarios[1].redeliver.everyMs", "again after 5000 ms"},
		{"redelivery the model does not allow", func(m *challenges.FaultModel, _ *scenarioWorld) {
			m.Delivery = challenges.Delivery{Semantics: "once", Duplicates: "none"}
		}, "scenarios[0].redeliver", "delivers work once"},
		{"failures never injected", func(_ *challenges.FaultModel, w *scenarioWorld) { w.Fails = nil },
			"effects", "provider calls can fail (error), but no scenario fails one"},
		{"a call the model lets fail that never fails", func(m *challenges.FaultModel, w *scenarioWorld) {
			m.Remotes[0].Failures = []challenges.Failure{{Kind: "error", Effect: "none"}}
			w.Fails = append(w.Fails, "store")
			w.FailedCalls = append(w.FailedCalls, "store.setIfAbsent")
		}, "faults", "store can fail these calls too, but no scenario fails them: get"},
		{"crashes the model does not allow", func(m *challenges.FaultModel, _ *scenarioWorld) { m.Crashes = "none" },
			"scenarios[0].crash", "workers do not die"},
		{"no freeze outlasts the lease", func(_ *challenges.FaultModel, w *scenarioWorld) { w.Pauses = nil; w.StallMs = 20_000 },
			"scenarios", "longer than the job lock (30000 ms)"},
		{"freezes the model does not allow", func(m *challenges.FaultModel, _ *scenarioWorld) { m.Pauses = nil },
			"scenarios[0].pauses", "workers never freeze"},
		{"a freeze longer than the model's", func(m *challenges.FaultModel, w *scenarioWorld) {
			m.Pauses = &challenges.Pauses{Max: "10 s"}
			w.Pauses[0].Ms = 12_000
		}, "scenarios[1].pauses", "longest freeze is 10000 ms"},
		{"no repeat during another delivery", func(_ *challenges.FaultModel, w *scenarioWorld) { w.During = false },
			"scenarios", "no scenario lets one arrive during another"},
		{"no worker handed two deliveries at once", func(_ *challenges.FaultModel, w *scenarioWorld) { w.SameWorker, w.AtOnce = false, false },
			"scenarios", "no scenario hands one worker two deliveries at once"},
		{"one worker's deliveries only far apart", func(_ *challenges.FaultModel, w *scenarioWorld) { w.AtOnce = false },
			"scenarios", "no scenario hands one worker two deliveries at once"},
		{"two at once where workers take one at a time", func(m *challenges.FaultModel, _ *scenarioWorld) { m.Handles = challenges.HandlesOne },
			"scenarios[0].deliveries", "handles one piece of work at a time, but scenarios \"wide\", \"narrow\" hand one worker two at once"},
		{"polls never paced", func(_ *challenges.FaultModel, w *scenarioWorld) { w.Properties = []string{"exactlyOncePerJob"} },
			"scenarios", "call store at most every 50 ms, but no test names pacedPolls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, w := model(), world("narrow")
			tt.narrow(&m, &w)
			first := world("wide")
			if tt.field == "effects" || tt.field == "scenarios" || tt.field == "faults" {
				// A gap of the whole suite: no scenario explores it.
				first = w
				first.Name = "wide"
			}
			gaps := suiteGaps("suite.mjs", m, []scenarioWorld{first, w})
			for _, g := range gaps {
				if g.File == "suite.mjs" && g.Field == tt.field && strings.Contains(g.Message, tt.words) && g.Fix != "" {
					return
				}
			}
			t.Fatalf("want a gap at %s saying %q; got:\n%s", tt.field, tt.words, gaps.Detailed())
		})
	}
}

// A suite that exports a function receives the dossier's fault model, in
// milliseconds, and lint holds its scenarios against it: the gaps are listed,
// and are not problems.
func TestLintHandsTheFaultModelToTheSuite(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	suite := filepath.Join(dirs.HiddenTests, "receipt-twice", "suite.mjs")
	edit(t, suite, "export default {", "export default ({ faultModel }) => ({")
	edit(t, suite, "\n};\n", "\n});\n")
	edit(t, suite, "limits: { maxLatencyMs: 1000,", "limits: { maxLatencyMs: faultModel.remotes.store.latencyMs[1] / 2, maxDelays: faultModel.leases.length - 1,")
	report, err := Lint(dirs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(report.Problems) > 0 {
		t.Fatalf("want no problems:\n%s", report.Problems.Detailed())
	}
	file := filepath.ToSlash(suite)
	for _, w := range []wantLint{
		{field: "scenarios[0].limits.maxLatencyMs", message: "lets a store call take up to 1000 ms, but scenarios \"the same job delivered to two workers at once\""},
		{field: "scenarios[0].limits.maxDelays", message: "have maxDelays 0"},
	} {
		if !hasProblem(report.Gaps, file, w) {
			t.Errorf("want a gap at %s: %s; got:\n%s", w.field, w.message, report.Gaps.Detailed())
		}
	}
}

// Lint sees which scenarios hand one worker two deliveries at once (neither
// waits for the other with after) and holds them against the model's handles.
func TestLintSeesOneWorkerHandedTwoDeliveries(t *testing.T) {
	dirs := scaffold(t, "receipt-twice")
	suite := filepath.Join(dirs.HiddenTests, "receipt-twice", "suite.mjs")
	dossier := filepath.Join(dirs.Challenges, "receipt-twice", "dossier.yaml")
	readme := filepath.Join(dirs.Challenges, "receipt-twice", "repo", "README.md")
	gaps := func() challenges.Problems {
		t.Helper()
		report, err := Lint(dirs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(report.Problems) > 0 {
			t.Fatalf("want no problems:\n%s", report.Problems.Detailed())
		}
		return report.Gaps
	}
	file := filepath.ToSlash(suite)
	edit(t, dossier, "  handles: one-at-a-time", "  handles: many-at-once")
	edit(t, readme, "handles one delivery at a time", "handles many deliveries at once")
	many := wantLint{field: "scenarios", message: "no scenario hands one worker two deliveries at once"}
	if got := gaps(); !hasProblem(got, file, many) {
		t.Errorf("two workers, one delivery each: want the gap %q; got:\n%s", many.message, got.Detailed())
	}
	// The second delivery waits for the first to end: still one at a time.
	edit(t, suite, "{ worker: 'green', job: 'job-7', after: 0, delayMs: 5_000 }", "{ worker: 'blue', job: 'job-7', after: 0, delayMs: 5_000 }")
	if got := gaps(); !hasProblem(got, file, many) {
		t.Errorf("a repeat after the first ended: want the gap %q; got:\n%s", many.message, got.Detailed())
	}
	edit(t, suite, "{ worker: 'green', job: 'job-8', at: 0 }", "{ worker: 'blue', job: 'job-8', at: 0 }")
	if got := gaps(); hasProblem(got, file, many) {
		t.Errorf("two jobs on blue at 0: want no gap %q; got:\n%s", many.message, got.Detailed())
	}
	edit(t, dossier, "  handles: many-at-once", "  handles: one-at-a-time")
	edit(t, readme, "handles many deliveries at once", "handles one delivery at a time")
	one := wantLint{field: "scenarios[1].deliveries", message: "handles one piece of work at a time, but scenarios"}
	if got := gaps(); !hasProblem(got, file, one) {
		t.Errorf("two jobs on blue at 0 where workers take one at a time: want the gap %q; got:\n%s", one.message, got.Detailed())
	}
}
