package challenges

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Problem is one thing wrong with a dossier, located as precisely as known.
type Problem struct {
	// File is the file's path in the loaded fs.FS, e.g. "job-lock-double-send/dossier.yaml".
	File string `json:"file"`
	// Field is the dossier field involved, e.g. "architecture.edges[1].to"; empty if none.
	Field string `json:"field,omitempty"`
	// Line is the 1-based line in File; 0 when unknown.
	Line int `json:"line,omitempty"`
	// Message says what is wrong.
	Message string `json:"message"`
	// Fix says briefly how to put it right.
	Fix string `json:"fix,omitempty"`
}

// String formats the problem as `file:line field: message`.
func (p Problem) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		fmt.Fprintf(&b, ":%d", p.Line)
	}
	if p.Field != "" {
		b.WriteString(" ")
		b.WriteString(p.Field)
	}
	b.WriteString(": ")
	b.WriteString(p.Message)
	return b.String()
}

// Problems is every problem found while loading one or more dossiers. It is the
// error Load and LoadAll return when content is wrong.
type Problems []Problem

// Error prints one line per problem, `file:line field: message`.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Detailed is like Error but adds each problem's fix on an indented line.
func (ps Problems) Detailed() string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String())
		b.WriteString("\n")
		if p.Fix != "" {
			b.WriteString("    fix: ")
			b.WriteString(p.Fix)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// Sort orders problems by file, then line, then field, and drops exact duplicates.
func (ps Problems) Sort() Problems {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Field, b.Field),
		)
	})
	return slices.Compact(ps)
}

// err returns ps as an error, or nil when there are none.
func (ps Problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps.Sort()
}
