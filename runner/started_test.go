package runner

import (
	"strings"
	"testing"
	"time"
)

func TestStartFilterTakesOutTheFirstMarkerOnly(t *testing.T) {
	for _, tt := range []struct {
		name, in, out string
		seen          bool
		cpu           time.Duration
	}{
		{"marker first", "\x1eracecase-started 1500000\nboom\n", "boom\n", true, 1500 * time.Microsecond},
		{"after unfinished output", "warning: x\x1eracecase-started 7\nrest", "warning: xrest", true, 7},
		{"no CPU time known", "\x1eracecase-started -\n", "", true, 0},
		{"a later marker is output", "\x1eracecase-started 5\n\x1eracecase-started 999999\n", "\x1eracecase-started 999999\n", true, 5},
		{"no marker: the run never began", "node: bad option\n", "node: bad option\n", false, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out strings.Builder
			f := newStartFilter(&out)
			for _, b := range []byte(tt.in) { // byte by byte: markers split across writes
				f.Write([]byte{b})
			}
			f.Flush()
			seen, cpu := f.started()
			if out.String() != tt.out || seen != tt.seen || cpu != tt.cpu {
				t.Errorf("output %q, seen %v, cpu %s; want %q, %v, %s", out.String(), seen, cpu, tt.out, tt.seen, tt.cpu)
			}
		})
	}
}
