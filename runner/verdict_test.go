package runner

import (
	"encoding/base64"
	"strings"
	"testing"
	"time"
)

func TestDecide(t *testing.T) {
	lim := DefaultLimits()
	record := func(status string) []byte {
		return []byte(base64.StdEncoding.EncodeToString([]byte(
			`{"version":3,"status":"` + status + `","tests":[{"name":"t","status":"` + status + `"}]}`)))
	}
	tests := []struct {
		name        string
		o           outcome
		verdict     Verdict
		status      string
		msgContains string
		outSuffix   string
		tests       int
		diagnostics string
	}{
		{name: "pass", o: outcome{record: record("pass"), hasRecord: true}, verdict: VerdictPass, status: "pass", tests: 1},
		{name: "fail", o: outcome{record: record("fail"), hasRecord: true}, verdict: VerdictFail, status: "fail", tests: 1},
		{
			name: "record's own verdict", o: outcome{hasRecord: true, record: []byte(base64.StdEncoding.EncodeToString([]byte(
				`{"version":3,"status":"fail","verdict":"output-limit","tests":[{"name":"t","status":"error"}]}`)))},
			verdict: VerdictOutputLimit, status: "fail", tests: 1,
		},
		{name: "harness error", o: outcome{record: record("error"), hasRecord: true}, verdict: VerdictError, status: "error", tests: 1},
		{
			name: "record ignored on non-zero exit", o: outcome{record: record("pass"), hasRecord: true, exitCode: 1},
			verdict: VerdictError, status: "error", msgContains: "stopped without reporting a result (exit code 1)",
		},
		{
			name:    "no record: the harness's error output is for operators only",
			o:       outcome{exitCode: 0, stderrTail: "  file:///opt/racecase/harness/supervisor.mjs:3\nTypeError: boom\n"},
			verdict: VerdictError, status: "error", msgContains: "stopped without reporting a result (exit code 0)",
			diagnostics: "file:///opt/racecase/harness/supervisor.mjs:3\nTypeError: boom",
		},
		{
			name: "garbage record", o: outcome{record: []byte("@@@"), hasRecord: true},
			verdict: VerdictError, status: "error", msgContains: "could not read; this is not a verdict on your code",
			diagnostics: "not base64",
		},
		{
			name: "timeout beats a record", o: outcome{timedOut: true, exitCode: 137, record: record("pass"), hasRecord: true, cpu: 1234 * time.Millisecond},
			verdict: VerdictTimeout, status: "error", msgContains: "did not finish within 30s and was stopped (it used 1.2s of its 10s of CPU time)",
		},
		{
			name: "spent CPU budget beats a record", o: outcome{cpuExhausted: true, exitCode: 137, record: record("pass"), hasRecord: true},
			verdict: VerdictTimeout, status: "error", msgContains: "used 10s of CPU time, its limit",
		},
		{
			name: "the watchdog's deadline is a timeout", o: outcome{exitCode: 124},
			verdict: VerdictTimeout, status: "error", msgContains: "did not finish within",
		},
		{
			name: "the watchdog's idle stop is a timeout", o: outcome{exitCode: 142},
			verdict: VerdictTimeout, status: "error", msgContains: "sat idle for 10s without finishing",
		},
		{
			name: "the watchdog's CPU budget is a timeout", o: outcome{exitCode: 152},
			verdict: VerdictTimeout, status: "error", msgContains: "of CPU time, its limit",
		},
		{
			name: "memory beats a record", o: outcome{oomKilled: true, record: record("fail"), hasRecord: true},
			verdict: VerdictMemory, status: "error", msgContains: "more than 512 MiB of memory",
		},
		{
			name: "output limit beats everything", o: outcome{outputExceeded: true, timedOut: true, oomKilled: true, output: "xxx"},
			verdict: VerdictOutputLimit, status: "error", msgContains: "more than 1 MiB of output",
			outSuffix: "xxx\n[output truncated: more than 1 MiB]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.o.limits = lim
			tt.o.duration = 1500 * time.Millisecond
			if tt.o.output == "" {
				tt.o.output = "console"
			}
			r := decide(tt.o)
			if r.Verdict != tt.verdict || r.Status != tt.status || r.Version != 3 {
				t.Errorf("verdict %q status %q version %d, want %q %q 3", r.Verdict, r.Status, r.Version, tt.verdict, tt.status)
			}
			if !strings.Contains(r.Message, tt.msgContains) {
				t.Errorf("message %q, want it to contain %q", r.Message, tt.msgContains)
			}
			if strings.Contains(r.Message, "racecase/harness") || strings.Contains(r.Message, "TypeError") {
				t.Errorf("message %q shows the harness's own error output to the learner", r.Message)
			}
			if !strings.HasPrefix(r.Diagnostics, tt.diagnostics) {
				t.Errorf("diagnostics %q, want prefix %q", r.Diagnostics, tt.diagnostics)
			}
			if tt.outSuffix == "" {
				tt.outSuffix = "console"
			}
			if !strings.HasSuffix(r.Output, tt.outSuffix) {
				t.Errorf("output %q, want suffix %q", r.Output, tt.outSuffix)
			}
			if r.Tests == nil || len(r.Tests) != tt.tests {
				t.Errorf("tests %v, want %d", r.Tests, tt.tests)
			}
			if r.DurationMS != 1500 {
				t.Errorf("duration %d ms", r.DurationMS)
			}
		})
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		1 << 20:   "1 MiB",
		256 << 20: "256 MiB",
		3 << 10:   "3 KiB",
		1536:      "1536 bytes",
		1000:      "1000 bytes",
	} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
