package challenges

import (
	"math"
	"regexp"
	"strconv"
)

// Duration is a duration as dossier.yaml writes it: a number and a unit (ms,
// s, min or h), e.g. "1 s" or "300 ms"; where the schema allows it, Unbounded.
type Duration string

// Unbounded is the Duration of something that has no upper limit.
const Unbounded Duration = "unbounded"

// durationForm is the schema's form of a Duration.
var durationForm = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?) (ms|s|min|h)$`)

// unitMillis is how many milliseconds one of each unit is.
var unitMillis = map[string]float64{"ms": 1, "s": 1000, "min": 60_000, "h": 3_600_000}

// Millis returns the duration in milliseconds, rounded to the nearest one;
// ok is false for Unbounded, an empty duration or one not in the schema's form.
func (d Duration) Millis() (ms int64, ok bool) {
	m := durationForm.FindStringSubmatch(string(d))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		return 0, false
	}
	return int64(math.Round(n * unitMillis[m[2]])), true
}

// millisOrNil is the duration in milliseconds for JSON, nil when it has none.
func (d Duration) millisOrNil() *int64 {
	if ms, ok := d.Millis(); ok {
		return &ms
	}
	return nil
}
