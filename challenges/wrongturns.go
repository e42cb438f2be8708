package challenges

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
)

// WrongTurn is a common wrong fix, described for the learner who just made
// it: what it looks like, why the hidden tests reject it, and where to look
// instead, never the fix. It is shown after a failed submission in which
// every one of its Tests failed and every one of its Passes passed.
type WrongTurn struct {
	// LooksLike says what the wrong fix looks like, in one line.
	LooksLike string `json:"looks_like" yaml:"looks_like"`
	// WhyItFails says why it does not fix the incident.
	WhyItFails string `json:"why_it_fails" yaml:"why_it_fails"`
	// LookAt says where to look next (the evidence, the trace, a file),
	// without giving the fix.
	LookAt string `json:"look_at" yaml:"look_at"`
	// Tests are the hidden tests this wrong fix fails, by name.
	Tests []string `json:"tests" yaml:"tests"`
	// Passes are hidden tests this wrong fix passes and the unchanged
	// repository fails, by name: a wrong turn close to the fix names them so
	// that a learner who has not got that far is not shown it.
	Passes []string `json:"passes,omitempty" yaml:"passes"`
	// Decoys are the decoys (folder names under decoys/) that make this
	// wrong turn; validate proves each fails every one of Tests and passes
	// every one of Passes. Never served to learners.
	Decoys []string `json:"decoys,omitempty" yaml:"decoys"`
}

// PublicWrongTurn is a wrong turn as a learner gets it after a failed
// submission: without the decoys it was written from.
type PublicWrongTurn struct {
	// LooksLike says what the wrong fix looks like.
	LooksLike string `json:"looks_like"`
	// WhyItFails says why it does not fix the incident.
	WhyItFails string `json:"why_it_fails"`
	// LookAt says where to look next.
	LookAt string `json:"look_at"`
	// Tests are the failed hidden tests it explains.
	Tests []string `json:"tests"`
}

// WrongTurnsFor returns the wrong turns that explain a submission whose
// hidden tests named by failed failed and those named by passed passed:
// those whose every test failed and every pass passed, in the dossier's
// order. It returns nil when none does.
func (d *Dossier) WrongTurnsFor(failed, passed []string) []PublicWrongTurn {
	var out []PublicWrongTurn
	for _, w := range d.WrongTurns {
		if !w.Explains(failed, passed) {
			continue
		}
		out = append(out, PublicWrongTurn{LooksLike: w.LooksLike, WhyItFails: w.WhyItFails, LookAt: w.LookAt, Tests: slices.Clone(w.Tests)})
	}
	return out
}

// Explains reports whether the wrong turn explains a submission whose
// hidden tests named by failed failed and those named by passed passed:
// every one of its Tests failed and every one of its Passes passed.
func (w WrongTurn) Explains(failed, passed []string) bool {
	return len(w.Tests) > 0 && allIn(w.Tests, failed) && allIn(w.Passes, passed)
}

// wrongTurnMissed says, for a decoy's hidden results, which wrong turn
// written from that decoy would not be shown and why; "" when every one
// would be.
func (d *Dossier) wrongTurnMissed(decoy string, failed, passed []string) string {
	for i, w := range d.WrongTurns {
		if !slices.Contains(w.Decoys, decoy) {
			continue
		}
		for _, name := range w.Tests {
			if !slices.Contains(failed, name) {
				return fmt.Sprintf("wrong_turns[%d] (%q) would not be shown: its test %q did not fail", i, w.LooksLike, name)
			}
		}
		for _, name := range w.Passes {
			if !slices.Contains(passed, name) {
				return fmt.Sprintf("wrong_turns[%d] (%q) would not be shown: its test %q did not pass", i, w.LooksLike, name)
			}
		}
	}
	return ""
}

// WrongTurnTests names, sorted, every test a wrong turn naming the decoy
// asks to fail or to pass; nil when no wrong turn names it, for then only the
// whole suite's verdict counts.
func (d *Dossier) WrongTurnTests(decoy string) []string {
	var names []string
	for _, w := range d.WrongTurns {
		if slices.Contains(w.Decoys, decoy) {
			names = append(names, w.Tests...)
			names = append(names, w.Passes...)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// allIn reports whether every element of want is in have.
func allIn(want, have []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// checkWrongTurns checks that no wrong turn asks a test both to fail and to
// pass, and that every decoy it names is a folder under decoys/ (what is
// wrong inside it is reported with the folders).
func (c *checker) checkWrongTurns(d *Dossier) {
	entries, _ := fs.ReadDir(c.fsys, path.Join(c.dir, DecoysDir))
	var decoys []string
	for _, e := range entries {
		if e.IsDir() {
			decoys = append(decoys, e.Name())
		}
	}
	for i, w := range d.WrongTurns {
		for j, name := range w.Passes {
			if slices.Contains(w.Tests, name) {
				c.at(fmt.Sprintf("wrong_turns[%d].passes[%d]", i, j), fmt.Sprintf("%q is also in tests: a test cannot both fail and pass", name),
					"keep it in tests if the wrong fix fails it, in passes if it passes it")
			}
		}
		for j, name := range w.Decoys {
			c.known(fmt.Sprintf("wrong_turns[%d].decoys[%d]", i, j), "decoy", name, decoys)
		}
	}
}
