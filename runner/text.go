package runner

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints results for a person: the verdict, each test marked ✓
// (passed), ✗ (failed) or ! (not decided: it could not run or finish), and for
// a failed concurrency test the interleaving that broke it, as the racecase
// check command and a git push show them.
func WriteText(w io.Writer, res *Results) {
	fmt.Fprintf(w, "verdict: %s\n", res.Verdict)
	if res.Message != "" {
		fmt.Fprintf(w, "  %s\n", res.Message)
	}
	for _, t := range res.Tests {
		mark := testMark(t.Status)
		schedules := ""
		if t.Schedules > 0 {
			schedules = fmt.Sprintf(" (%d schedules)", t.Schedules)
		}
		fmt.Fprintf(w, "%s %s%s\n", mark, t.Name, schedules)
		if t.Status == StatusPass {
			continue
		}
		if t.Message != "" {
			fmt.Fprintf(w, "    %s\n", t.Message)
		}
		if len(t.Trace) > 0 {
			fmt.Fprintln(w, "    interleaving:")
			for _, s := range t.Trace {
				marker := " "
				if s.Highlight {
					marker = ">"
				}
				fmt.Fprintf(w, "    %s %3d  %6d ms  %-6s %-16s %-14s %s\n", marker, s.Step, s.At, s.Worker, s.Operation, s.Key, s.Result)
			}
		}
		if t.Output != "" {
			fmt.Fprintf(w, "    output:\n%s\n", indent(t.Output, "      "))
		}
	}
}

// testMark is the sign a test's status gets: a test that could not be decided
// is not marked as failed, as the web workspace shows it too.
func testMark(status string) string {
	switch status {
	case StatusPass:
		return "✓"
	case StatusFail:
		return "✗"
	default:
		return "!"
	}
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}
