package challenges

import "slices"

// FaultModel is what a dossier's code has to cope with in production and what
// it may rely on, as its repository's README states it: the workers, every
// remote with its latency, time-out and failures, how work is delivered, the
// leases, other time limits, pauses and crashes. It is part of the problem
// statement (public) and the hidden suite receives it (SuiteFaultModel).
type FaultModel struct {
	// Workers is how many separate processes run the code at once.
	Workers int `json:"workers" yaml:"workers"`
	// Handles is how much work one worker takes on at once: HandlesOne or
	// HandlesMany.
	Handles string `json:"handles" yaml:"handles"`
	// Remotes are the remotes the code calls.
	Remotes []Remote `json:"remotes" yaml:"remotes"`
	// Delivery says how work reaches the code.
	Delivery Delivery `json:"delivery" yaml:"delivery"`
	// Leases are the locks and claims that run out on their own; optional.
	Leases []Lease `json:"leases,omitempty" yaml:"leases"`
	// Timeouts are other time limits and delays; optional.
	Timeouts []Timeout `json:"timeouts,omitempty" yaml:"timeouts"`
	// Pauses, when set, says that a worker can freeze at any point.
	Pauses *Pauses `json:"pauses,omitempty" yaml:"pauses"`
	// Crashes is "anywhere" (a worker can die at any point) or "none".
	Crashes string `json:"crashes" yaml:"crashes"`
	// Note says what the numbers alone do not; optional.
	Note string `json:"note,omitempty" yaml:"note"`
}

// The values of FaultModel.Handles.
const (
	// HandlesOne says a worker takes the next piece of work only once it
	// answered the one before.
	HandlesOne = "one-at-a-time"
	// HandlesMany says a worker can handle several pieces of work at once,
	// sharing its process's memory between them.
	HandlesMany = "many-at-once"
)

// Remote is one remote the code calls.
type Remote struct {
	// Name is the name the code is handed the remote under, e.g. "store".
	Name string `json:"name" yaml:"name"`
	// Label says what the remote is, e.g. "Shared key-value store".
	Label string `json:"label" yaml:"label"`
	// Latency is how long one call takes.
	Latency Latency `json:"latency" yaml:"latency"`
	// Waits are the methods that wait, with no time limit, for as long as
	// another worker holds what they ask for; optional.
	Waits []string `json:"waits,omitempty" yaml:"waits"`
	// Timeout is when the code's client gives up on a call; empty for never.
	Timeout Duration `json:"timeout,omitempty" yaml:"timeout"`
	// MinPollInterval is the shortest time one request may leave between two
	// calls to the remote while it waits for something there (how often it
	// may look again); empty for no limit.
	MinPollInterval Duration `json:"min_poll_interval,omitempty" yaml:"min_poll_interval"`
	// Failures are the ways calls can fail; none when empty.
	Failures []Failure `json:"failures,omitempty" yaml:"failures"`
}

// Latency is the range of one call's duration.
type Latency struct {
	// Min is the shortest call; empty means 0 ms.
	Min Duration `json:"min,omitempty" yaml:"min"`
	// Max is the longest call.
	Max Duration `json:"max" yaml:"max"`
}

// CanFail reports whether the model lets a call of method fail: some failure
// names it, or names no calls at all.
func (r Remote) CanFail(method string) bool {
	return slices.ContainsFunc(r.Failures, func(f Failure) bool { return len(f.Calls) == 0 || slices.Contains(f.Calls, method) })
}

// Failure is one way calls to a remote can fail.
type Failure struct {
	// Calls are the methods that can fail this way; every call when empty.
	Calls []string `json:"calls,omitempty" yaml:"calls"`
	// Kind is "error", "timeout" or "refused".
	Kind string `json:"kind" yaml:"kind"`
	// Effect says whether a failed call took effect: "none", "applied" or "unknown".
	Effect string `json:"effect" yaml:"effect"`
}

// Delivery says how work reaches the code and how often the same work can arrive.
type Delivery struct {
	// Semantics is "at-least-once" or "once".
	Semantics string `json:"semantics" yaml:"semantics"`
	// RedeliveryAfter is when unacknowledged work arrives again; optional.
	RedeliveryAfter Duration `json:"redelivery_after,omitempty" yaml:"redelivery_after"`
	// RedeliveryUntil is how long after its first arrival work can still
	// arrive again; empty for as long as it is not acknowledged.
	RedeliveryUntil Duration `json:"redelivery_until,omitempty" yaml:"redelivery_until"`
	// Duplicates is "none", "sequential" or "overlapping".
	Duplicates string `json:"duplicates" yaml:"duplicates"`
	// SameID says that every arrival of the same work carries the same id.
	SameID bool `json:"same_id,omitempty" yaml:"same_id"`
}

// Lease is a lock or claim that runs out on its own.
type Lease struct {
	// Name says what the lease is, e.g. "job lock".
	Name string `json:"name" yaml:"name"`
	// Key says where it lives, e.g. "lock:<jobId>"; optional.
	Key string `json:"key,omitempty" yaml:"key"`
	// TTL is how long it lasts after it was written or last renewed.
	TTL Duration `json:"ttl" yaml:"ttl"`
	// Clock is whose clock ends it: "store" or "holder".
	Clock string `json:"clock" yaml:"clock"`
}

// Timeout is a time limit or delay the code lives with.
type Timeout struct {
	// Name says what happens, e.g. "the gateway answers 504".
	Name string `json:"name" yaml:"name"`
	// After is when it happens.
	After Duration `json:"after" yaml:"after"`
}

// Pauses says that a worker can freeze at any point.
type Pauses struct {
	// Max is the longest freeze, or Unbounded.
	Max Duration `json:"max" yaml:"max"`
}

// clone returns a copy of m that shares no slice or pointer with it.
func (m FaultModel) clone() FaultModel {
	c := m
	c.Remotes = slices.Clone(m.Remotes)
	for i := range c.Remotes {
		c.Remotes[i].Waits = slices.Clone(c.Remotes[i].Waits)
		c.Remotes[i].Failures = slices.Clone(c.Remotes[i].Failures)
		for j := range c.Remotes[i].Failures {
			c.Remotes[i].Failures[j].Calls = slices.Clone(c.Remotes[i].Failures[j].Calls)
		}
	}
	c.Leases = slices.Clone(m.Leases)
	c.Timeouts = slices.Clone(m.Timeouts)
	if m.Pauses != nil {
		p := *m.Pauses
		c.Pauses = &p
	}
	return c
}
