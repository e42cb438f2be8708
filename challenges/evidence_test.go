package challenges

import (
	"slices"
	"testing"
)

func TestParseMetrics(t *testing.T) {
	tests := []struct {
		text     string
		want     []Metric
		badLines []int
	}{
		{"# c\n\nqueue message ids = 1\nlatency = 12.5 ms\n", []Metric{{"queue message ids", 1, ""}, {"latency", 12.5, "ms"}}, nil},
		{"delta = -3 jobs per s\r\n", []Metric{{"delta", -3, "jobs per s"}}, nil},
		{"a = 1\nno equals sign\n= 2\nb =\nc = two\nd = NaN\ne = 2\n", []Metric{{"a", 1, ""}, {"e", 2, ""}}, []int{2, 3, 4, 5, 6}},
		{"# only comments\n", nil, []int{0}},
	}
	for _, tt := range tests {
		got, ps := parseMetrics([]byte(tt.text))
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: values %+v, want %+v", tt.text, got, tt.want)
		}
		var lines []int
		for _, p := range ps {
			lines = append(lines, p.Line)
		}
		if !slices.Equal(lines, tt.badLines) {
			t.Errorf("%q: problems at lines %v, want %v", tt.text, lines, tt.badLines)
		}
	}
}

func TestParseLog(t *testing.T) {
	lines, p := parseLog([]byte("a\r\n\r\nb\n\n\n"))
	if p != nil || !slices.Equal(lines, []string{"a", "", "b"}) {
		t.Errorf("lines %q, problem %v", lines, p)
	}
	if _, p := parseLog([]byte(" \n\n")); p == nil {
		t.Error("blank log accepted")
	}
}
