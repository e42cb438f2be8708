package challenges

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
)

// Mutant is a generated wrong fix: the reference fix with one small change
// inside what it changed in repo/, the kind of change a plausible wrong fix
// makes (an await dropped, an atomic operation split, a check removed, …).
// The hidden suite must reject every mutant that changes behaviour.
type Mutant struct {
	// ID identifies the mutant across runs and unrelated edits: its
	// operator and a hash of its file, the code it changes and how.
	ID string `json:"id"`
	// File is the mutated file's path inside repo/.
	File string `json:"file"`
	// Line is the line the change starts on, in the reference fix's file.
	Line int `json:"line"`
	// Operator names the kind of change (OpDropAwait, …).
	Operator string `json:"operator"`
	// Change says what changed, in one line.
	Change string `json:"change"`
	// Source is the mutated file.
	Source []byte `json:"-"`
}

// String describes the mutant in one line: file, line, operator, change.
func (m Mutant) String() string {
	return fmt.Sprintf("%s:%d %s: %s", m.File, m.Line, m.Operator, m.Change)
}

// mutableFile says whether a file of the reference fix is mutated: JavaScript
// the hidden suite may load, not a visible test.
func mutableFile(name string) bool {
	switch path.Ext(name) {
	case ".js", ".mjs", ".cjs":
	default:
		return false
	}
	base := path.Base(name)
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") {
		return false
	}
	for _, dir := range strings.Split(path.Dir(name), "/") {
		if dir == "test" || dir == "tests" || dir == "__tests__" || dir == "node_modules" {
			return false
		}
	}
	return true
}

// GenerateMutants derives the mutants of a reference fix: repo holds the
// learner's repository, fix only the files the reference fix writes (the
// solution/ overlay). Each mutant changes code on a line the fix added or
// changed, never code the fix left as it was. Mutants come in file and
// source order; ones that would repeat another's source are left out. An
// error names a file of the fix that cannot be tokenized.
func GenerateMutants(repo, fix map[string][]byte) ([]Mutant, error) {
	var out []Mutant
	seen := map[string]bool{}
	occurrences := map[string]int{}
	for _, name := range slices.Sorted(maps.Keys(fix)) {
		if !mutableFile(name) {
			continue
		}
		src := string(fix[name])
		p, err := parseJS(src)
		if err != nil {
			return nil, fmt.Errorf("solution/%s: %w", name, err)
		}
		changed := changedLines(string(repo[name]), src)
		for _, m := range mutationsOf(p, func(line int) bool { return changed[line] }) {
			mutated := m.apply(src)
			if mutated == src || seen[name+"\x00"+mutated] {
				continue
			}
			seen[name+"\x00"+mutated] = true
			key := strings.Join([]string{name, m.op, normalizeSpace(m.site), normalizeSpace(editText(m))}, "\x00")
			occurrences[key]++
			sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, occurrences[key])))
			out = append(out, Mutant{
				ID:       m.op + "-" + hex.EncodeToString(sum[:4]),
				File:     name,
				Line:     m.line,
				Operator: m.op,
				Change:   m.what,
				Source:   []byte(mutated),
			})
		}
	}
	return out, nil
}

// editText is what a mutation writes, for its id.
func editText(m jsMutation) string {
	var parts []string
	for _, e := range m.edits {
		parts = append(parts, e.text)
	}
	return strings.Join(parts, "\x00")
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// changedLines returns the 1-based lines of after that are not in a longest
// common subsequence of the lines of before and after: what a change added
// or rewrote. Every line of a new file (before is empty) is changed.
func changedLines(before, after string) map[int]bool {
	a, b := strings.Split(before, "\n"), strings.Split(after, "\n")
	if before == "" {
		a = nil
	}
	// lcs[i][j] is the length of a longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	changed := map[int]bool{}
	i, j := 0, 0
	for j < len(b) {
		switch {
		case i < len(a) && a[i] == b[j]:
			i++
			j++
		case i < len(a) && lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			changed[j+1] = true
			j++
		}
	}
	return changed
}
