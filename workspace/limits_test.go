package workspace

import (
	"strings"
	"testing"
)

func TestSizeMessagesNeverReadLikeTheCap(t *testing.T) {
	for n, want := range map[int64]string{
		MaxFileBytes: "256 KiB", MaxFileBytes + 1: "262145 bytes", 2 << 20: "2 MiB", 1500: "1500 bytes", 12: "12 bytes",
	} {
		if got := FormatSize(n); got != want {
			t.Errorf("FormatSize(%d) = %q, want %q", n, got, want)
		}
	}
	err := CheckContent("a.js", strings.Repeat("x", MaxFileBytes+1))
	if msg := ErrorMessage(err); !strings.Contains(msg, "would be 262145 bytes; one file may hold at most 256 KiB") {
		t.Errorf("message %q", msg)
	}
}
