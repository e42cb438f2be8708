package runner

import (
	"strings"
	"testing"
)

func TestWriteTextShowsEachTestAndTheBreakingInterleaving(t *testing.T) {
	var b strings.Builder
	WriteText(&b, &Results{Verdict: VerdictFail, Tests: []TestResult{
		{Name: "one send per job", Status: StatusFail, Message: "job-7 got 2 notifications", Schedules: 22, Trace: []TraceStep{
			{Step: 1, Worker: "blue", Operation: "get", Key: "lock:job-7", Result: "null"},
			{Step: 2, Worker: "green", Operation: "send", Key: "job-7", Result: "done", Highlight: true},
		}},
		{Name: "releases its lock", Status: StatusPass, Schedules: 3},
	}})
	got := b.String()
	for _, want := range []string{
		"verdict: fail\n",
		"✗ one send per job (22 schedules)\n",
		"    job-7 got 2 notifications\n",
		"    interleaving:\n",
		"    >   2       0 ms  green  send",
		"✓ releases its lock (3 schedules)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the text lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, ">   1") {
		t.Errorf("an unremarkable step is highlighted:\n%s", got)
	}
}

func TestWriteTextMarksAnUndecidedTestApartFromAFailedOne(t *testing.T) {
	var b strings.Builder
	WriteText(&b, &Results{Verdict: VerdictError, Tests: []TestResult{
		{Name: "one send per job", Status: StatusError, Message: "the exploration did not finish", Schedules: 215},
		{Name: "releases its lock", Status: StatusFail, Message: "the lock stayed"},
	}})
	got := b.String()
	for _, want := range []string{"! one send per job (215 schedules)\n", "✗ releases its lock\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the text lacks %q:\n%s", want, got)
		}
	}
}
