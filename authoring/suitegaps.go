package authoring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/racecase/racecase/challenges"
)

// scenarioWorld is what one scenario of a hidden suite explores of the world,
// as lint-suite.mjs reports it (worldOf there).
type scenarioWorld struct {
	Name             string              `json:"name"`
	LatencyMs        map[string][2]int64 `json:"latencyMs"`
	Fails            []string            `json:"fails"`
	FailedCalls      []string            `json:"failedCalls"`
	Calls            map[string][]string `json:"calls"`
	MaxDelays        int                 `json:"maxDelays"`
	Paces            int                 `json:"paces"`
	FlipDraws        int                 `json:"flipDraws"`
	HorizonMs        int64               `json:"horizonMs"`
	RedeliverEveryMs *int64              `json:"redeliverEveryMs"`
	Overlapping      bool                `json:"overlapping"`
	During           bool                `json:"during"`
	SameWorker       bool                `json:"sameWorker"`
	AtOnce           bool                `json:"atOnce"`
	Sequential       bool                `json:"sequential"`
	Crash            bool                `json:"crash"`
	StallMs          int64               `json:"stallMs"`
	Pauses           []struct {
		Ms          int64 `json:"ms"`
		UntilLeases bool  `json:"untilLeases"`
	} `json:"pauses"`
	Properties []string `json:"properties"`
}

// longestFreeze is the longest a scenario freezes a worker; untilLeases is
// true when a pause lasts until the worker's leases ran out.
func (w scenarioWorld) longestFreeze() (ms int64, untilLeases bool) {
	ms = w.StallMs
	for _, p := range w.Pauses {
		ms = max(ms, p.Ms)
		untilLeases = untilLeases || p.UntilLeases
	}
	return ms, untilLeases
}

// gapFinder collects the gaps between a suite's scenarios and a fault model.
type gapFinder struct {
	file   string
	worlds []scenarioWorld
	gaps   challenges.Problems
}

// add reports a gap in field of the suite.
func (g *gapFinder) add(field, msg, fix string) {
	g.gaps = append(g.gaps, challenges.Problem{File: g.file, Field: field, Message: msg, Fix: fix})
}

// where returns the names of the scenarios for which narrower holds, and the
// field of the first of them (suffixed by sub).
func (g *gapFinder) where(sub string, narrower func(scenarioWorld) bool) (names []string, field string) {
	for i, w := range g.worlds {
		if narrower(w) {
			if field == "" {
				field = fmt.Sprintf("scenarios[%d]%s", i, sub)
			}
			names = append(names, fmt.Sprintf("%q", w.Name))
		}
	}
	return names, field
}

// suiteGaps holds the scenarios of a hidden suite (worlds) against the
// dossier's fault model and reports where they explore less than the model
// allows (a wrong fix that breaks only there passes) or more (a correct fix
// can fail): latency ranges per remote, delay bounds, redelivery and
// duplicates (repeats during a delivery included), work handled at once by
// one worker, failures, crashes, pauses
// and polling paces. Each gap names the suite file and the field of the first
// scenario it concerns.
func suiteGaps(file string, m challenges.FaultModel, worlds []scenarioWorld) challenges.Problems {
	if len(worlds) == 0 {
		return nil
	}
	g := &gapFinder{file: file, worlds: worlds}
	g.latency(m)
	g.delays()
	g.slowAlone(m)
	g.delivery(m.Delivery)
	g.handles(m.Handles)
	g.failures(m)
	g.crashes(m.Crashes)
	g.pauses(m)
	g.polls(m)
	return g.gaps
}

// polls reports a remote the model lets a waiting request call only so often
// when no test checks it (pacedPolls): a fix that polls faster passes.
func (g *gapFinder) polls(m challenges.FaultModel) {
	paced, _ := g.where("", func(w scenarioWorld) bool { return slices.Contains(w.Properties, "pacedPolls") })
	if len(paced) > 0 {
		return
	}
	for _, r := range m.Remotes {
		if r.MinPollInterval != "" {
			g.add("scenarios", fmt.Sprintf("the fault model lets a request that waits call %s at most every %s, but no test names pacedPolls: a fix that polls faster passes", r.Name, r.MinPollInterval),
				"add a test with property: 'pacedPolls' to a scenario in which requests wait")
		}
	}
}

// latency reports remotes whose calls a scenario never lets take as long, or
// as little, as the model allows.
func (g *gapFinder) latency(m challenges.FaultModel) {
	for _, r := range m.Remotes {
		lo, _ := r.Latency.Min.Millis()
		hi, _ := r.Latency.Max.Millis()
		used, _ := g.where("", func(w scenarioWorld) bool { _, ok := w.LatencyMs[r.Name]; return ok })
		if len(used) == 0 {
			g.add("subject.deps", fmt.Sprintf("the fault model's remote %q is never handed to the subject, so no scenario explores its calls", r.Name),
				fmt.Sprintf("give the subject %s as a remote, or correct the remote's name in dossier.yaml", r.Name))
			continue
		}
		if names, field := g.where(".limits.maxLatencyMs", func(w scenarioWorld) bool {
			got, ok := w.LatencyMs[r.Name]
			return ok && got[1] < hi
		}); len(names) > 0 {
			g.add(field, fmt.Sprintf("the fault model lets a %s call take up to %d ms, but scenarios %s never let one take that long",
				r.Name, hi, strings.Join(names, ", ")),
				fmt.Sprintf("explore %s calls up to %d ms (maxLatencyMs, or the effect's or service's latencyMs)", r.Name, hi))
		}
		if names, field := g.where(".limits.maxLatencyMs", func(w scenarioWorld) bool {
			got, ok := w.LatencyMs[r.Name]
			return ok && got[0] > lo
		}); len(names) > 0 {
			g.add(field, fmt.Sprintf("the fault model lets a %s call take as little as %d ms, but scenarios %s make every one take longer",
				r.Name, lo, strings.Join(names, ", ")),
				fmt.Sprintf("start the %s latency range at %d ms", r.Name, lo))
		}
		if names, field := g.where(".limits.maxLatencyMs", func(w scenarioWorld) bool {
			got, ok := w.LatencyMs[r.Name]
			return ok && (got[1] > hi || got[0] < lo)
		}); len(names) > 0 {
			g.add(field, fmt.Sprintf("the fault model's %s calls take %d to %d ms, but scenarios %s let one take a time outside that: a correct fix can fail there",
				r.Name, lo, hi, strings.Join(names, ", ")),
				fmt.Sprintf("explore %s calls from %d to %d ms, or correct the fault model", r.Name, lo, hi))
		}
	}
}

// delays reports scenarios whose clock never moves on while a call is in
// flight. The explorer runs them with every call at its quickest and again
// with every call at its slowest (unless they keep one pace), but never with
// one call slow while another is quick. It also reports scenarios with delays
// that keep one pace: several slow calls in a row are never explored there;
// and scenarios that never try a random draw the other way.
func (g *gapFinder) delays() {
	if names, field := g.where(".limits.maxDelays", func(w scenarioWorld) bool { return w.MaxDelays == 0 && w.Paces != 1 }); len(names) > 0 {
		g.add(field, fmt.Sprintf("scenarios %s have maxDelays 0: each pace runs every call at one end of its range, never one overtaken by a timer while another is quick nor one answering late, so a renewal that races its own lease or a wait that gives up early may go unexplored",
			strings.Join(names, ", ")), "allow at least one delay (maxDelays ≥ 1)")
	}
	if names, field := g.where(".limits.paces", func(w scenarioWorld) bool { return w.MaxDelays == 0 && w.Paces == 1 }); len(names) > 0 {
		g.add(field, fmt.Sprintf("scenarios %s have maxDelays 0 and paces 1: every call completes as soon as it can, so work slower than its lease and waits that give up early are never explored",
			strings.Join(names, ", ")), "allow the slow pace (paces: 2) or at least one delay (maxDelays ≥ 1)")
	}
	if names, field := g.where(".limits.paces", func(w scenarioWorld) bool { return w.MaxDelays > 0 && w.Paces == 1 }); len(names) > 0 {
		g.add(field, fmt.Sprintf("scenarios %s have paces 1: a delay makes one call slower at a time, and only up to the next moment something is due, so several slow calls in a row, or one ending where nothing is due, are never explored",
			strings.Join(names, ", ")), "allow the slow pace (paces: 2)")
	}
	if names, field := g.where(".limits.flipDraws", func(w scenarioWorld) bool { return w.FlipDraws == 0 }); len(names) > 0 {
		g.add(field, fmt.Sprintf("scenarios %s have flipDraws 0: every worker draws the same random numbers in every schedule, so a fix whose race needs two workers to pick alike (or apart), such as a shard picked at random, may never meet it",
			strings.Join(names, ", ")), "let the explorer try each worker's first draws both ways (flipDraws ≥ 1)")
	}
}

// slowAlone reports a model with leases whose suite never explores one
// worker alone at its slowest while the others are quick (paces: 3): a lease
// shorter than its holder's work at its slowest then runs out only while the
// other workers are slow too, and a quick one never takes over and finishes
// first.
func (g *gapFinder) slowAlone(m challenges.FaultModel) {
	if len(m.Leases) == 0 || m.Workers < 2 {
		return
	}
	if names, _ := g.where("", func(w scenarioWorld) bool { return w.Paces == 3 }); len(names) == 0 {
		g.add("scenarios", fmt.Sprintf("the fault model has leases (the %s), but no scenario explores one worker alone at its slowest while another is quick: a lease shorter than its holder's work at its slowest passes", m.Leases[0].Name),
			"give limits: { paces: 3 } to a scenario in which two workers contend for a lease")
	}
}

// delivery reports scenarios that never deliver work again although the
// model says it can arrive more than once, that redeliver at another pace
// than the model's, and a suite that never delivers the same work twice at once.
func (g *gapFinder) delivery(d challenges.Delivery) {
	if d.Semantics != "at-least-once" {
		if names, field := g.where(".redeliver", func(w scenarioWorld) bool { return w.Sequential }); len(names) > 0 {
			g.add(field, fmt.Sprintf("the fault model delivers work once, but scenarios %s deliver the same work again: a correct fix can fail there",
				strings.Join(names, ", ")), "deliver each job once, or correct the fault model's delivery")
		}
		return
	}
	if names, field := g.where(".redeliver", func(w scenarioWorld) bool { return !w.Sequential }); len(names) > 0 {
		g.add(field, fmt.Sprintf("the fault model delivers work at least once, but scenarios %s never deliver the same work again: code that relies on redelivery (an answer of busy) fails there, and code that breaks on a repeat passes",
			strings.Join(names, ", ")), "add redeliver: { everyMs, maxAttempts } or a second delivery of the job")
	}
	if after, ok := d.RedeliveryAfter.Millis(); ok {
		if names, field := g.where(".redeliver.everyMs", func(w scenarioWorld) bool {
			return w.RedeliverEveryMs != nil && *w.RedeliverEveryMs != after
		}); len(names) > 0 {
			g.add(field, fmt.Sprintf("the fault model delivers unacknowledged work again after %d ms, but scenarios %s redeliver at another pace", after, strings.Join(names, ", ")),
				fmt.Sprintf("redeliver at the model's pace (everyMs: %d), or correct the fault model", after))
		}
	}
	if d.Duplicates == "overlapping" {
		if names, _ := g.where("", func(w scenarioWorld) bool { return w.Overlapping }); len(names) == 0 {
			g.add("scenarios", "the fault model lets the same work arrive twice at once, but no scenario delivers one job to two deliveries that start on their own",
				"add a scenario whose two deliveries of one job both start at a time (at), not after each other")
		}
		if names, _ := g.where("", func(w scenarioWorld) bool { return w.During }); len(names) == 0 {
			g.add("scenarios", "the fault model lets a repeat arrive while the first delivery is still handled, but no scenario lets one arrive during another: repeats come only at fixed moments, so a lease shorter than the work can pass",
				"add a scenario with a delivery { worker, job, during: i } of the job of delivery i")
		}
	}
}

// handles reports a suite that never hands one worker two deliveries
// together although the model lets a worker handle many (state its process
// keeps, a lock table or a flag, is then shared by two requests, and a fix
// that keeps it wrongly passes), or one whose deliveries to one worker may
// overlap at all although the model says a worker takes one at a time.
func (g *gapFinder) handles(handles string) {
	names, field := g.where(".deliveries", func(w scenarioWorld) bool { return w.SameWorker })
	together, _ := g.where(".deliveries", func(w scenarioWorld) bool { return w.AtOnce })
	switch {
	case handles == challenges.HandlesMany && len(together) == 0:
		g.add("scenarios", "the fault model lets a worker handle several pieces of work at once, but no scenario hands one worker two deliveries at once: a fix whose process-wide state (a lock table, a flag, a counter) breaks when two of its requests meet passes",
			"add a scenario with two deliveries to one worker that arrive together (at the same moment, within a call's latency of each other, or one during the other)")
	case handles == challenges.HandlesOne && len(names) > 0:
		g.add(field, fmt.Sprintf("the fault model says a worker handles one piece of work at a time, but scenarios %s hand one worker two at once: a correct fix can fail there", strings.Join(names, ", ")),
			"give the second delivery after: i (it starts once delivery i ended), or correct the fault model's handles")
	}
}

// failures reports remotes whose calls can fail in the model but that no
// scenario fails.
func (g *gapFinder) failures(m challenges.FaultModel) {
	for _, r := range m.Remotes {
		if len(r.Failures) == 0 {
			continue
		}
		if names, _ := g.where("", func(w scenarioWorld) bool { return slices.Contains(w.Fails, r.Name) }); len(names) == 0 {
			kinds := make([]string, len(r.Failures))
			for i, f := range r.Failures {
				kinds[i] = f.Kind
			}
			fix := fmt.Sprintf("give an effect of %s a fail(args, call) in some scenario, or, when it is a service, some scenario faults: [{ target: '%s', method, fail(args, call) }] (lint does not see a service's own call.reject)", r.Name, r.Name)
			if r.Name == "store" || r.Name == "locks" {
				fix = fmt.Sprintf("give some scenario faults: [{ target: '%s', method, fail(args, call) }]", r.Name)
			}
			g.add("effects", fmt.Sprintf("the fault model says %s calls can fail (%s), but no scenario fails one", r.Name, strings.Join(kinds, ", ")), fix)
			continue
		}
		if never := g.neverFailed(r); len(never) > 0 {
			g.add("faults", fmt.Sprintf("the fault model says %s can fail these calls too, but no scenario fails them: %s; code that mishandles such a failure passes",
				r.Name, strings.Join(never, ", ")),
				fmt.Sprintf("fail each of them once in some scenario: faults: [{ target: '%s', method, fail(args, call) }], or an effect's fail", r.Name))
		}
	}
}

// neverFailed returns the methods of remote r that the fault model lets fail
// (its failures' calls, or every method the code gets when a failure names
// none) and that no scenario fails.
func (g *gapFinder) neverFailed(r challenges.Remote) []string {
	var never []string
	// Every world lists the same calls: the subject's.
	for _, method := range g.worlds[0].Calls[r.Name] {
		failed := slices.ContainsFunc(g.worlds, func(w scenarioWorld) bool { return slices.Contains(w.FailedCalls, r.Name+"."+method) })
		if r.CanFail(method) && !failed {
			never = append(never, method)
		}
	}
	return never
}

// crashes reports a suite that never crashes a worker the model says can
// die, or crashes one the model says does not.
func (g *gapFinder) crashes(crashes string) {
	crashed, field := g.where(".crash", func(w scenarioWorld) bool { return w.Crash })
	switch {
	case crashes == "anywhere" && len(crashed) == 0:
		g.add("scenarios", "the fault model says a worker can die at any point, but no scenario crashes one", "add a scenario with crash: { worker }")
	case crashes == "none" && len(crashed) > 0:
		g.add(field, fmt.Sprintf("the fault model says workers do not die, but scenarios %s crash one: a correct fix can fail there", strings.Join(crashed, ", ")),
			"remove the crash, or correct the fault model")
	}
}

// pauses reports a suite that never freezes a worker the model says can
// freeze, never for longer than a lease when the model's pauses can be, or
// freezes workers the model says never freeze.
func (g *gapFinder) pauses(m challenges.FaultModel) {
	frozen, field := g.where(".pauses", func(w scenarioWorld) bool { ms, until := w.longestFreeze(); return ms > 0 || until })
	if m.Pauses == nil {
		if len(frozen) > 0 {
			g.add(field, fmt.Sprintf("the fault model says workers never freeze, but scenarios %s freeze one: a correct fix can fail there", strings.Join(frozen, ", ")),
				"remove the pause or stall, or add pauses to the fault model")
		}
		return
	}
	if len(frozen) == 0 {
		g.add("scenarios", "the fault model says a worker can freeze at any point, but no scenario pauses or stalls one", "add pauses: [{ worker, ms }] to a scenario")
		return
	}
	limit, bounded := m.Pauses.Max.Millis()
	for _, l := range m.Leases {
		ttl, _ := l.TTL.Millis()
		if bounded && limit <= ttl {
			continue
		}
		if outlast, _ := g.where("", func(w scenarioWorld) bool { ms, until := w.longestFreeze(); return until || ms > ttl }); len(outlast) == 0 {
			g.add("scenarios", fmt.Sprintf("the fault model lets a worker freeze for longer than the %s (%d ms), but no scenario freezes one that long", l.Name, ttl),
				"add pauses: [{ worker, until: 'leases' }] to a scenario, with claimKeys matching the lease's keys")
		}
	}
	if bounded {
		if names, field := g.where(".pauses", func(w scenarioWorld) bool { ms, _ := w.longestFreeze(); return ms > limit }); len(names) > 0 {
			g.add(field, fmt.Sprintf("the fault model's longest freeze is %d ms, but scenarios %s freeze a worker for longer: a correct fix can fail there", limit, strings.Join(names, ", ")),
				fmt.Sprintf("freeze for at most %d ms", limit))
		}
	}
}
