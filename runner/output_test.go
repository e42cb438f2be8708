package runner

import (
	"strings"
	"testing"
)

func TestCappedBuffer(t *testing.T) {
	tests := []struct {
		name      string
		limit     int64
		writes    []string
		want      string
		truncated bool
	}{
		{name: "under", limit: 10, writes: []string{"abc", "def"}, want: "abcdef"},
		{name: "exactly at the limit", limit: 6, writes: []string{"abc", "def"}, want: "abcdef"},
		{name: "one byte over", limit: 5, writes: []string{"abc", "def"}, want: "abcde", truncated: true},
		{name: "writes after the cap are dropped", limit: 2, writes: []string{"abc", "def", "g"}, want: "ab", truncated: true},
		{name: "zero", limit: 0, writes: []string{"a"}, want: "", truncated: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCappedBuffer(tt.limit)
			for _, w := range tt.writes {
				if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want all of it accepted", w, n, err)
				}
			}
			if c.String() != tt.want || c.Truncated() != tt.truncated {
				t.Errorf("got %q truncated=%v, want %q truncated=%v", c.String(), c.Truncated(), tt.want, tt.truncated)
			}
			select {
			case <-c.Exceeded():
				if !tt.truncated {
					t.Error("Exceeded closed without truncation")
				}
			default:
				if tt.truncated {
					t.Error("Exceeded not closed")
				}
			}
		})
	}
}

func TestTailBuffer(t *testing.T) {
	tb := &tailBuffer{max: 5}
	for _, w := range []string{"ab", "cdefg", "h"} {
		tb.Write([]byte(w))
	}
	if tb.String() != "defgh" {
		t.Errorf("tail %q, want %q", tb.String(), "defgh")
	}
}

func TestTruncateChars(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"too long", 5, "too …"},
		{"ééééé", 3, "éé…"},
		{strings.Repeat("x", 1000), 500, strings.Repeat("x", 499) + "…"},
	}
	for _, tt := range tests {
		if got := truncateChars(tt.in, tt.max); got != tt.want {
			t.Errorf("truncateChars(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}
