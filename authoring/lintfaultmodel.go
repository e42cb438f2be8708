package authoring

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/racecase/racecase/challenges"
)

// readmeFile is the repository file that documents production for the
// learner, fault model included.
const readmeFile = "README.md"

// A duration as prose writes it: a number, or a range of two ("300–800 ms",
// "0.8-1 s", "2 to 5 s"), and a unit, short or spelled out.
var (
	unitPattern   = `(ms|milliseconds?|s|secs?|seconds?|min|mins|minutes?|h|hrs?|hours?)\b`
	numberPattern = `([0-9]+(?:\.[0-9]+)?)`
	rangeDuration = regexp.MustCompile(numberPattern + `\s*(?:–|-|to)\s*` + numberPattern + `\s*` + unitPattern)
	oneDuration   = regexp.MustCompile(`(?:^|[^0-9.])` + numberPattern + `\s*` + unitPattern)
	// atOnce is how prose states a duration of zero.
	atOnce = regexp.MustCompile(`(?i)\b(at once|immediately|right away)\b`)
	// handlesStated is how prose states each value of the fault model's
	// handles, within one sentence and with the verb that says what a worker
	// does: "handles one delivery at a time", "each handles many requests at
	// once", "works up to 8 messages at the same time".
	handlesStated = map[string]*regexp.Regexp{
		challenges.HandlesOne:  regexp.MustCompile(`(?i)\b(handles?|serves?|works?|processes|takes?)\b[^.]{0,20}\bone\b[^.]{0,40}\bat\s+a\s+time\b`),
		challenges.HandlesMany: regexp.MustCompile(`(?i)\b(handles?|serves?|works?|processes)\b[^.]{0,20}\b(many|several|up to [0-9]+|two|[0-9]+)\b[^.]{0,40}\b(at\s+once|at\s+the\s+same\s+time|concurrently|in\s+parallel)\b`),
	}
)

// proseUnitMillis is how many milliseconds one of each unit is, by its first letters.
func proseUnitMillis(unit string) float64 {
	switch {
	case strings.HasPrefix(unit, "ms"), strings.HasPrefix(unit, "milli"):
		return 1
	case strings.HasPrefix(unit, "min"):
		return 60_000
	case strings.HasPrefix(unit, "h"):
		return 3_600_000
	default:
		return 1000
	}
}

// statedDurations returns every duration text states, in milliseconds.
func statedDurations(text string) map[int64]bool {
	stated := map[int64]bool{}
	add := func(number, unit string) {
		if n, err := strconv.ParseFloat(number, 64); err == nil {
			stated[int64(n*proseUnitMillis(unit)+0.5)] = true
		}
	}
	for _, m := range rangeDuration.FindAllStringSubmatch(text, -1) {
		add(m[1], m[3])
		add(m[2], m[3])
	}
	for _, m := range oneDuration.FindAllStringSubmatch(text, -1) {
		add(m[1], m[2])
	}
	if atOnce.MatchString(text) {
		stated[0] = true
	}
	return stated
}

// modelDuration is one duration of a fault model, with its field and what it means.
type modelDuration struct {
	field, meaning string
	value          challenges.Duration
}

// modelDurations lists every duration of m, each with its field.
func modelDurations(m challenges.FaultModel) []modelDuration {
	var out []modelDuration
	add := func(field, meaning string, v challenges.Duration) {
		if _, ok := v.Millis(); ok {
			out = append(out, modelDuration{field, meaning, v})
		}
	}
	for i, r := range m.Remotes {
		at := fmt.Sprintf("fault_model.remotes[%d]", i)
		add(at+".latency.min", "the shortest "+r.Name+" call", r.Latency.Min)
		add(at+".latency.max", "the longest "+r.Name+" call", r.Latency.Max)
		add(at+".timeout", "the "+r.Name+" client's time-out", r.Timeout)
		add(at+".min_poll_interval", "how often one waiting request may call "+r.Name, r.MinPollInterval)
	}
	add("fault_model.delivery.redelivery_after", "when unacknowledged work arrives again", m.Delivery.RedeliveryAfter)
	add("fault_model.delivery.redelivery_until", "how long the same work can keep arriving", m.Delivery.RedeliveryUntil)
	for i, l := range m.Leases {
		add(fmt.Sprintf("fault_model.leases[%d].ttl", i), "the "+l.Name+"'s lease", l.TTL)
	}
	for i, t := range m.Timeouts {
		add(fmt.Sprintf("fault_model.timeouts[%d].after", i), "when "+t.Name, t.After)
	}
	if m.Pauses != nil {
		add("fault_model.pauses.max", "the longest pause", m.Pauses.Max)
	}
	return out
}

// checkFaultModelStated reports every duration of the dossier's fault model
// that repo/README.md does not state, and a README that does not say how much
// work a worker handles at once: the README is the learner's
// documentation of production, and the fault model must say the same.
func (l *linter) checkFaultModelStated(slug string, d *challenges.Dossier, repo map[string][]byte) {
	readme, ok := repo[readmeFile]
	if !ok {
		return // loading reports a repo/ without README.md
	}
	file := path.Join(slug, challenges.DossierFile)
	stated := statedDurations(string(readme))
	for _, md := range modelDurations(d.FaultModel) {
		ms, _ := md.value.Millis()
		if stated[ms] {
			continue
		}
		l.add(file, md.field,
			fmt.Sprintf("the fault model says %s for %s, but repo/README.md never states %s", md.value, md.meaning, spelled(ms)),
			fmt.Sprintf("state it in the README's fault model (e.g. %q), or correct %s", example(md.value, ms), md.field))
	}
	if pattern, ok := handlesStated[d.FaultModel.Handles]; ok && !pattern.Match(readme) {
		l.add(file, "fault_model.handles",
			fmt.Sprintf("the fault model says each worker handles %s, but repo/README.md never says so", strings.ReplaceAll(d.FaultModel.Handles, "-", " ")),
			"say it in one sentence of the README, e.g. \"each handles one delivery at a time\" or \"each handles many requests at once\", or correct fault_model.handles")
	}
}

// spelled says a duration in milliseconds the ways a README may write it.
func spelled(ms int64) string {
	switch {
	case ms == 0:
		return "0 (or at once)"
	case ms%1000 == 0:
		return fmt.Sprintf("%d s (or %d ms)", ms/1000, ms)
	default:
		return fmt.Sprintf("%d ms (or %s s)", ms, strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64))
	}
}

// example is how a README could state v.
func example(v challenges.Duration, ms int64) string {
	if ms == 0 {
		return "at once"
	}
	return "within " + string(v)
}
