package authoring

import (
	"errors"
	"fmt"
	"strings"
)

// Class is a failure class the hidden-test harness covers, with a small
// working example dossier that racecase new can scaffold: its repo/ already
// holds the bug, so the example lints and validates as it is.
type Class struct {
	// Name is what `racecase new --class` takes, e.g. "lost-update".
	Name string
	// Summary says in one line what goes wrong in the example and what fixes it.
	Summary string
	// layers are the skeleton folders the example is made of, in order: each
	// holds dossier/, hidden/ or both, and a later one's files replace an
	// earlier one's.
	layers []string
}

// defaultLayers make the skeleton of racecase new without --class: the
// receipt mailer with its bug not written yet.
var defaultLayers = []string{"skeleton/default"}

// classes are every class racecase new can scaffold, in the order they are listed.
var classes = []Class{
	{"check-then-set", "a job claim read, then written: two workers both win it; the fix claims in one setIfAbsent",
		[]string{"skeleton/default", "skeleton/check-then-set"}},
	{"lease-expiry", "work that outlasts its lease: a second worker takes the job over; the fix renews the lease with an owner check",
		[]string{"skeleton/lease-expiry"}},
	{"fencing", "a writer frozen past its lease writes stale data; the fix passes the lease's fencing token to storage that checks it",
		[]string{"skeleton/fencing"}},
	{"lost-update", "a counter read, changed and written back loses increments; the fix increments atomically",
		[]string{"skeleton/lost-update"}},
	{"double-effect", "a request retried after a timeout charges twice; the fix reserves one idempotency key per order atomically",
		[]string{"skeleton/double-effect"}},
	{"deadlock", "two locks taken in opposite orders wait for each other; the fix takes them in one global order",
		[]string{"skeleton/deadlock"}},
	{"write-skew", "two transactions check an invariant on a snapshot and write different rows; the fix makes them serializable and retries",
		[]string{"skeleton/write-skew"}},
	{"cache-stampede", "concurrent misses for one key all hit a rate-limited backend; the fix shares one fetch per key and forgets failures",
		[]string{"skeleton/cache-stampede"}},
}

// ErrUnknownClass reports a --class that names no class; its message lists them.
var ErrUnknownClass = errors.New("unknown class")

// Classes returns every class racecase new can scaffold.
func Classes() []Class {
	return append([]Class(nil), classes...)
}

// ClassNamed returns the class called name, or an error wrapping
// ErrUnknownClass that names every class.
func ClassNamed(name string) (Class, error) {
	var names []string
	for _, c := range classes {
		if c.Name == name {
			return c, nil
		}
		names = append(names, c.Name)
	}
	return Class{}, fmt.Errorf("%w %q: use one of %s", ErrUnknownClass, name, strings.Join(names, ", "))
}
