package challenges

import (
	"fmt"
	"strings"
)

// Summary is the fault model on one line, e.g. "2 workers, each one at a
// time; store ≤1 s, provider ≤1 s fails; at-least-once, again after 5 s,
// overlapping duplicates with one id; lease 30 s; no pauses; crashes anywhere".
func (m FaultModel) Summary() string {
	parts := []string{fmt.Sprintf("%d worker%s, each %s", m.Workers, plural(m.Workers), strings.ReplaceAll(m.Handles, "-", " "))}
	var remotes []string
	for _, r := range m.Remotes {
		s := r.Name + " "
		if r.Latency.Min != "" && r.Latency.Min != "0 ms" && r.Latency.Min != "0 s" {
			s += string(r.Latency.Min) + "–" + string(r.Latency.Max)
		} else {
			s += "≤" + string(r.Latency.Max)
		}
		if len(r.Waits) > 0 {
			s += " (" + strings.Join(r.Waits, ", ") + " waits)"
		}
		if r.Timeout != "" {
			s += " time-out " + string(r.Timeout)
		}
		if r.MinPollInterval != "" {
			s += " polled ≥" + string(r.MinPollInterval) + " apart"
		}
		if len(r.Failures) > 0 {
			s += " fails"
		}
		remotes = append(remotes, s)
	}
	parts = append(parts, strings.Join(remotes, ", "))
	parts = append(parts, m.Delivery.summary())
	for _, l := range m.Leases {
		parts = append(parts, "lease "+string(l.TTL))
	}
	if len(m.Timeouts) > 0 {
		var ts []string
		for _, t := range m.Timeouts {
			ts = append(ts, string(t.After))
		}
		parts = append(parts, "time limits "+strings.Join(ts, ", "))
	}
	switch {
	case m.Pauses == nil:
		parts = append(parts, "no pauses")
	case m.Pauses.Max == Unbounded:
		parts = append(parts, "pauses unbounded")
	default:
		parts = append(parts, "pauses ≤"+string(m.Pauses.Max))
	}
	if m.Crashes == "none" {
		parts = append(parts, "no crashes")
	} else {
		parts = append(parts, "crashes "+m.Crashes)
	}
	return strings.Join(parts, "; ")
}

// summary is the delivery part of Summary.
func (d Delivery) summary() string {
	s := d.Semantics
	if d.RedeliveryAfter != "" {
		s += ", again after " + string(d.RedeliveryAfter)
	}
	if d.RedeliveryUntil != "" {
		s += " until " + string(d.RedeliveryUntil)
	}
	if d.Duplicates != "none" {
		s += ", " + d.Duplicates + " duplicates"
		if d.SameID {
			s += " with one id"
		}
	}
	return s
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// SuiteFaultModel is the fault model as a hidden suite receives it (the
// faultModel of a suite that exports a function): every duration in
// milliseconds, remotes by name. A nil number is unbounded or not stated.
type SuiteFaultModel struct {
	// Workers is how many separate processes run the code at once.
	Workers int `json:"workers"`
	// Handles is "one-at-a-time" or "many-at-once" (FaultModel.Handles).
	Handles string `json:"handles"`
	// Remotes are the remotes by name.
	Remotes map[string]SuiteRemote `json:"remotes"`
	// Delivery says how work reaches the code.
	Delivery SuiteDelivery `json:"delivery"`
	// Leases are the leases, in the dossier's order.
	Leases []SuiteLease `json:"leases"`
	// Timeouts are the other time limits, in the dossier's order.
	Timeouts []SuiteTimeout `json:"timeouts"`
	// Pauses is nil when workers never freeze.
	Pauses *SuitePauses `json:"pauses"`
	// Crashes is "anywhere" or "none".
	Crashes string `json:"crashes"`
}

// SuiteRemote is one remote of a SuiteFaultModel.
type SuiteRemote struct {
	// LatencyMs is [min, max].
	LatencyMs [2]int64 `json:"latencyMs"`
	// Waits are the methods that wait for as long as what they ask for is held.
	Waits []string `json:"waits"`
	// TimeoutMs is when the client gives up; nil for never.
	TimeoutMs *int64 `json:"timeoutMs"`
	// MinPollIntervalMs is how soon, at the soonest, one waiting request may
	// call the remote again; nil for no limit.
	MinPollIntervalMs *int64 `json:"minPollIntervalMs"`
	// Failures are the ways calls can fail.
	Failures []Failure `json:"failures"`
}

// SuiteDelivery is the delivery of a SuiteFaultModel.
type SuiteDelivery struct {
	// Semantics is "at-least-once" or "once".
	Semantics string `json:"semantics"`
	// RedeliveryAfterMs is when unacknowledged work arrives again; nil when not stated.
	RedeliveryAfterMs *int64 `json:"redeliveryAfterMs"`
	// RedeliveryUntilMs is how long after its first arrival work can still arrive; nil for always.
	RedeliveryUntilMs *int64 `json:"redeliveryUntilMs"`
	// Duplicates is "none", "sequential" or "overlapping".
	Duplicates string `json:"duplicates"`
	// SameID says that every arrival of the same work carries the same id.
	SameID bool `json:"sameId"`
}

// SuiteLease is one lease of a SuiteFaultModel.
type SuiteLease struct {
	// Name says what the lease is.
	Name string `json:"name"`
	// Key says where it lives; may be empty.
	Key string `json:"key"`
	// TTLMs is how long it lasts.
	TTLMs int64 `json:"ttlMs"`
	// Clock is "store" or "holder".
	Clock string `json:"clock"`
}

// SuiteTimeout is one time limit of a SuiteFaultModel.
type SuiteTimeout struct {
	// Name says what happens.
	Name string `json:"name"`
	// AfterMs is when.
	AfterMs int64 `json:"afterMs"`
}

// SuitePauses says that a worker can freeze.
type SuitePauses struct {
	// MaxMs is the longest freeze; nil for unbounded.
	MaxMs *int64 `json:"maxMs"`
}

// ForSuite returns the fault model as a hidden suite receives it.
func (m FaultModel) ForSuite() SuiteFaultModel {
	s := SuiteFaultModel{
		Workers: m.Workers,
		Handles: m.Handles,
		Remotes: map[string]SuiteRemote{},
		Delivery: SuiteDelivery{
			Semantics:         m.Delivery.Semantics,
			RedeliveryAfterMs: m.Delivery.RedeliveryAfter.millisOrNil(),
			RedeliveryUntilMs: m.Delivery.RedeliveryUntil.millisOrNil(),
			Duplicates:        m.Delivery.Duplicates,
			SameID:            m.Delivery.SameID,
		},
		Leases:   []SuiteLease{},
		Timeouts: []SuiteTimeout{},
		Crashes:  m.Crashes,
	}
	for _, r := range m.Remotes {
		lo, _ := r.Latency.Min.Millis()
		hi, _ := r.Latency.Max.Millis()
		s.Remotes[r.Name] = SuiteRemote{LatencyMs: [2]int64{lo, hi}, Waits: append([]string{}, r.Waits...),
			TimeoutMs: r.Timeout.millisOrNil(), MinPollIntervalMs: r.MinPollInterval.millisOrNil(), Failures: append([]Failure{}, r.Failures...)}
	}
	for _, l := range m.Leases {
		ttl, _ := l.TTL.Millis()
		s.Leases = append(s.Leases, SuiteLease{Name: l.Name, Key: l.Key, TTLMs: ttl, Clock: l.Clock})
	}
	for _, t := range m.Timeouts {
		after, _ := t.After.Millis()
		s.Timeouts = append(s.Timeouts, SuiteTimeout{Name: t.Name, AfterMs: after})
	}
	if m.Pauses != nil {
		s.Pauses = &SuitePauses{MaxMs: m.Pauses.Max.millisOrNil()}
	}
	return s
}
