package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

// validate's table ends with one fault-model line per dossier, in order.
func TestWriteFaultModels(t *testing.T) {
	ds, err := challenges.LoadAll(os.DirFS("../../challenges"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	writeFaultModels(&out, ds)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != len(ds)+1 || lines[0] != "fault models:" {
		t.Fatalf("want a heading and %d lines:\n%s", len(ds), out.String())
	}
	for i, d := range ds {
		if want := "  " + d.Slug + ": " + d.FaultModel.Summary(); lines[i+1] != want {
			t.Errorf("line %d = %q, want %q", i+1, lines[i+1], want)
		}
	}
	const jobLock = "  job-lock-double-send: 2 workers, each one at a time; store ≤1 s fails, provider ≤1 s fails; at-least-once, again after 5 s, overlapping duplicates with one id; lease 30 s; no pauses; crashes anywhere"
	if !strings.Contains(out.String(), jobLock+"\n") {
		t.Errorf("the flagship's summary is not\n%s\nin\n%s", jobLock, out.String())
	}
}
