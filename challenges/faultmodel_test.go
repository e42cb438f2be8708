package challenges

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"
)

// The fault model's problems are reported at their field and line, with a fix.
func TestBrokenFaultModels(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		at       string // text on the problem's line in the edited dossier.yaml
		want     wantProblem
	}{{
		name: "missing",
		old:  "fault_model:\n", new: "fault_modl:\n",
		at:   "fault_modl:",
		want: wantProblem{field: "fault_modl", message: `unknown field "fault_modl"`, fix: `did you mean "fault_model"?`},
	}, {
		name: "duration without a unit",
		old:  "latency: {max: 1 s}", new: "latency: {max: 1000}",
		at:   "latency: {max: 1000}",
		want: wantProblem{field: "fault_model.remotes[0].latency.max", message: "string", fix: "The longest call"},
	}, {
		name: "duration in a unit the format does not know",
		old:  "ttl: 30 s", new: "ttl: 30 seconds",
		at:   "ttl: 30 seconds",
		want: wantProblem{field: "fault_model.leases[0].ttl", message: `"30 seconds" is not in the expected form`, fix: "after it was written"},
	}, {
		name: "unknown delivery semantics",
		old:  "semantics: at-least-once", new: "semantics: exactly-once",
		at:   "semantics: exactly-once",
		want: wantProblem{field: "fault_model.delivery.semantics", message: `"exactly-once" is not allowed`, fix: "use one of: at-least-once, once"},
	}, {
		name: "once with duplicates",
		old:  "semantics: at-least-once, redelivery_after: 5 s,", new: "semantics: once,",
		at:   "semantics: once,",
		want: wantProblem{field: "fault_model.delivery.duplicates", message: "work delivered once has no duplicates", fix: "duplicates: none"},
	}, {
		name: "at-least-once without duplicates",
		old:  "duplicates: overlapping", new: "duplicates: none",
		at:   "duplicates: none",
		want: wantProblem{field: "fault_model.delivery.duplicates", message: "at-least-once delivery can deliver the same work twice", fix: "sequential or overlapping"},
	}, {
		name: "shortest call longer than the longest",
		old:  "latency: {max: 1 s}", new: "latency: {min: 2 s, max: 1 s}",
		at:   "min: 2 s",
		want: wantProblem{field: "fault_model.remotes[0].latency.min", message: "the shortest call (2 s) is longer than the longest (1 s)", fix: "swap"},
	}, {
		name: "two remotes of one name",
		old:  "    - {name: store, label: Lock store, latency: {max: 1 s}}\n",
		new:  "    - {name: store, label: Lock store, latency: {max: 1 s}}\n    - {name: store, label: Other store, latency: {max: 1 s}}\n",
		at:   "Other store",
		want: wantProblem{field: "fault_model.remotes[1].name", message: `duplicate remote name "store" (also fault_model.remotes[0])`, fix: "its own name"},
	}, {
		name: "redeliveries that end before they start",
		old:  "redelivery_after: 5 s,", new: "redelivery_after: 5 s, redelivery_until: 2 s,",
		at:   "redelivery_until: 2 s",
		want: wantProblem{field: "fault_model.delivery.redelivery_until", message: "redeliveries end (2 s) before the first one can come (5 s)"},
	}, {
		name: "a lease of no time",
		old:  "ttl: 30 s", new: "ttl: 0 s",
		at:   "ttl: 0 s",
		want: wantProblem{field: "fault_model.leases[0].ttl", message: "a lease of 0 lasts no time at all"},
	}, {
		name: "unknown way of handling work",
		old:  "handles: one-at-a-time", new: "handles: two-at-once",
		at:   "handles: two-at-once",
		want: wantProblem{field: "fault_model.handles", message: `"two-at-once" is not allowed`, fix: "use one of: one-at-a-time, many-at-once"},
	}, {
		name: "unknown crash kind",
		old:  "crashes: anywhere", new: "crashes: sometimes",
		at:   "crashes: sometimes",
		want: wantProblem{field: "fault_model.crashes", message: `"sometimes" is not allowed`, fix: "use one of: anywhere, none"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fixtureFS(t)
			editYAML(t, m, tt.old, tt.new)
			ps := loadProblems(t, m)
			w := tt.want
			w.line = lineOf(t, string(m[fixture+"/dossier.yaml"].Data), tt.at)
			if !hasProblem(ps, fixture+"/dossier.yaml", w.field, w.line, w.message, w.fix) {
				t.Fatalf("want %s: %s (fix %q) at line %d; got:\n%s", w.field, w.message, w.fix, w.line, ps.Detailed())
			}
		})
	}
}

func TestFaultModelDurations(t *testing.T) {
	for in, want := range map[Duration]int64{"1 s": 1000, "300 ms": 300, "0.8 s": 800, "30 min": 1_800_000, "2 h": 7_200_000, "0 s": 0} {
		if got, ok := in.Millis(); !ok || got != want {
			t.Errorf("%q.Millis() = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []Duration{"", Unbounded, "1s", "5 sec", "-1 s"} {
		if got, ok := in.Millis(); ok {
			t.Errorf("%q.Millis() = %d, true; want not ok", in, got)
		}
	}
}

func TestFaultModelViews(t *testing.T) {
	d, err := Load(fixtureFS(t), fixture)
	if err != nil {
		t.Fatal(err)
	}
	want := "2 workers, each one at a time; store ≤1 s; at-least-once, again after 5 s, overlapping duplicates with one id; lease 30 s; no pauses; crashes anywhere"
	if got := d.FaultModel.Summary(); got != want {
		t.Errorf("Summary() =\n%s\nwant\n%s", got, want)
	}
	data, err := json.Marshal(d.FaultModel.ForSuite())
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `{"workers":2,"handles":"one-at-a-time","remotes":{"store":{"latencyMs":[0,1000],"waits":[],"timeoutMs":null,"minPollIntervalMs":null,"failures":[]}},` +
		`"delivery":{"semantics":"at-least-once","redeliveryAfterMs":5000,"redeliveryUntilMs":null,"duplicates":"overlapping","sameId":true},` +
		`"leases":[{"name":"job lock","key":"lock:\u003cjobId\u003e","ttlMs":30000,"clock":"store"}],"timeouts":[],"pauses":null,"crashes":"anywhere"}`
	if string(data) != wantJSON {
		t.Errorf("ForSuite() =\n%s\nwant\n%s", data, wantJSON)
	}

	d.FaultModel.Remotes[0].MinPollInterval = "50 ms"
	if got, want := d.FaultModel.Summary(), "2 workers, each one at a time; store ≤1 s polled ≥50 ms apart;"; !strings.HasPrefix(got, want) {
		t.Errorf("Summary() with a poll interval = %s, want it to start with %s", got, want)
	}
	if data, _ := json.Marshal(d.FaultModel.ForSuite()); !strings.Contains(string(data), `"minPollIntervalMs":50,`) {
		t.Errorf("ForSuite() with a poll interval = %s, want minPollIntervalMs 50", data)
	}
}

// The learner's view holds the fault model, as a copy.
func TestPublicHoldsTheFaultModel(t *testing.T) {
	m := fstest.MapFS{}
	for k, v := range fixtureFS(t) {
		m[k] = v
	}
	editYAML(t, m, "    - {name: store, label: Lock store, latency: {max: 1 s}}\n",
		"    - {name: store, label: Lock store, latency: {max: 1 s}, failures: [{calls: [set], kind: error, effect: none}]}\n")
	d, err := Load(m, fixture)
	if err != nil {
		t.Fatal(err)
	}
	p := d.Public()
	p.FaultModel.Remotes[0].Failures[0].Calls[0] = "changed"
	if d.FaultModel.Remotes[0].Failures[0].Calls[0] != "set" {
		t.Error("Public() shares the fault model's slices with the dossier")
	}
	data, _ := json.Marshal(d.Public())
	if !strings.Contains(string(data), `"fault_model":{"workers":2,`) {
		t.Errorf("public JSON has no fault model: %s", data)
	}
}
