package challenges

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// parseLog splits a plain-text log file into lines, dropping trailing blank
// lines and carriage returns. A file with no text is a problem.
func parseLog(data []byte) ([]string, *Problem) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	text = strings.TrimRight(text, " \t\n")
	if text == "" {
		return nil, &Problem{Message: "log file is empty", Fix: "add the log lines the panel should show"}
	}
	return strings.Split(text, "\n"), nil
}

// parseMetrics reads lines of the form `name = value [unit]`. Blank lines and
// lines starting with # are skipped. Each bad line is one problem, with Line set.
func parseMetrics(data []byte) ([]Metric, Problems) {
	var (
		values []Metric
		ps     Problems
	)
	const fix = "write `name = value [unit]`, e.g. `notification writes = 2`"
	for i, raw := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, ok := strings.Cut(line, "=")
		name = strings.TrimSpace(name)
		fields := strings.Fields(rest)
		if !ok || name == "" || len(fields) == 0 {
			ps = append(ps, Problem{Line: i + 1, Message: fmt.Sprintf("metric line %q is not `name = value`", line), Fix: fix})
			continue
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			ps = append(ps, Problem{Line: i + 1, Message: fmt.Sprintf("metric %q has value %q, not a number", name, fields[0]), Fix: fix})
			continue
		}
		values = append(values, Metric{Name: name, Value: v, Unit: strings.Join(fields[1:], " ")})
	}
	if len(values) == 0 && len(ps) == 0 {
		ps = append(ps, Problem{Message: "metric file has no metrics", Fix: fix})
	}
	return values, ps
}
