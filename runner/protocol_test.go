package runner

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const testNonce = "0123456789abcdef0123456789abcdef"

// recordLine returns a record line carrying results as JSON.
func recordLine(nonce string, results any) string {
	raw, err := json.Marshal(results)
	if err != nil {
		panic(err)
	}
	return recordMarker + nonce + " " + base64.StdEncoding.EncodeToString(raw) + "\n"
}

func TestRandomHex(t *testing.T) {
	a, b := randomHex(16), randomHex(16)
	if len(a) != 32 || strings.Trim(a, "0123456789abcdef") != "" || a == b {
		t.Errorf("randomHex(16) = %q, %q", a, b)
	}
}

func TestEncodePayload(t *testing.T) {
	job := Job{Files: map[string][]byte{"src/a.js": []byte("let a = 1;\n")}, Limits: Limits{OutputBytes: 1234}}
	raw, err := encodePayload(testNonce, job)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"nonce":            testNonce,
		"files":            map[string]any{"src/a.js": base64.StdEncoding.EncodeToString([]byte("let a = 1;\n"))},
		"secret":           map[string]any{},
		"outputLimitBytes": float64(1234),
		"suite":            "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("payload %s\nwant %v", raw, want)
	}
}

func TestRecordFilter(t *testing.T) {
	pass := map[string]any{"version": 3, "status": "pass", "tests": []any{}}
	fail := map[string]any{"version": 3, "status": "fail", "tests": []any{}}
	tests := []struct {
		name        string
		chunks      []string
		wantConsole string
		wantRecord  string // the record's status, "" for none
	}{
		{
			name:        "record removed from output",
			chunks:      []string{"hello\n", recordLine(testNonce, pass)},
			wantConsole: "hello\n",
			wantRecord:  "pass",
		},
		{
			name:        "wrong nonce is ordinary output",
			chunks:      []string{recordLine(strings.Repeat("0", 32), pass)},
			wantConsole: recordLine(strings.Repeat("0", 32), pass),
		},
		{
			name:        "last record wins",
			chunks:      []string{recordLine(testNonce, pass), "between\n", recordLine(testNonce, fail)},
			wantConsole: "between\n",
			wantRecord:  "fail",
		},
		{
			name:        "forged record before the real one is superseded",
			chunks:      []string{recordLine(strings.Repeat("f", 32), pass), recordLine(testNonce, fail)},
			wantConsole: recordLine(strings.Repeat("f", 32), pass),
			wantRecord:  "fail",
		},
		{
			name:        "record after a partial line",
			chunks:      []string{"no newline", recordLine(testNonce, pass)},
			wantConsole: "no newline",
			wantRecord:  "pass",
		},
		{
			name:        "record split across writes, without final newline",
			chunks:      splitEvery(strings.TrimSuffix(recordLine(testNonce, fail), "\n"), 7),
			wantConsole: "",
			wantRecord:  "fail",
		},
		{
			name:        "output after the record stays",
			chunks:      []string{recordLine(testNonce, pass) + "late\n"},
			wantConsole: "late\n",
			wantRecord:  "pass",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var console bytes.Buffer
			f := newRecordFilter(testNonce, &console)
			for _, c := range tt.chunks {
				if n, err := f.Write([]byte(c)); n != len(c) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			f.Flush()
			if console.String() != tt.wantConsole {
				t.Errorf("console %q, want %q", console.String(), tt.wantConsole)
			}
			if !f.found {
				if tt.wantRecord != "" {
					t.Fatalf("no record, want %s", tt.wantRecord)
				}
				return
			}
			r, err := decodeRecord(f.record)
			if err != nil {
				t.Fatal(err)
			}
			if r.Status != tt.wantRecord {
				t.Errorf("record status %q, want %q", r.Status, tt.wantRecord)
			}
		})
	}
}

func TestRecordFilterBoundsHeldLine(t *testing.T) {
	var console bytes.Buffer
	f := newRecordFilter(testNonce, &console)
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	for range 10 {
		f.Write(chunk)
	}
	if len(f.line) > maxLineBytes || console.Len() == 0 {
		t.Errorf("held %d bytes, passed %d", len(f.line), console.Len())
	}
}

func TestDecodeRecord(t *testing.T) {
	enc := func(s string) []byte { return []byte(base64.StdEncoding.EncodeToString([]byte(s))) }
	long := strings.Repeat("é", 600)
	tests := []struct {
		name    string
		payload []byte
		wantErr string
		check   func(t *testing.T, r *Results)
	}{
		{name: "garbage base64", payload: []byte("%%%not base64"), wantErr: "not base64"},
		{name: "not JSON", payload: enc("hello"), wantErr: "not results JSON"},
		{name: "wrong version", payload: enc(`{"version":2,"status":"pass","tests":[]}`), wantErr: "version 2"},
		{name: "unknown status", payload: enc(`{"version":3,"status":"ok","tests":[]}`), wantErr: `unknown status "ok"`},
		{name: "unknown test status", payload: enc(`{"version":3,"status":"fail","tests":[{"name":"a","status":"skipped"}]}`), wantErr: "skipped"},
		{name: "unknown verdict", payload: enc(`{"version":3,"status":"fail","verdict":"flaky","tests":[]}`), wantErr: `unknown verdict "flaky"`},
		{name: "pass verdict on a failure", payload: enc(`{"version":3,"status":"fail","verdict":"pass","tests":[]}`), wantErr: `verdict "pass" with status "fail"`},
		{name: "limit verdict on a pass", payload: enc(`{"version":3,"status":"pass","verdict":"output-limit","tests":[]}`), wantErr: `verdict "output-limit" with status "pass"`},
		{name: "pass with a failed test", payload: enc(`{"version":3,"status":"pass","tests":[{"name":"a","status":"fail"}]}`), wantErr: "did not pass"},
		{
			name:    "full record",
			payload: enc(`{"version":3,"status":"fail","tests":[{"name":"one notification","status":"fail","message":"sent twice","output":"` + long + `","schedules":148,"trace":[{"step":1,"at":0,"worker":"blue","operation":"get","key":"lock:job-7","result":"null"},{"step":4,"at":5,"worker":"green","operation":"notify","key":"job-7","result":"sent","highlight":true}]}]}`),
			check: func(t *testing.T, r *Results) {
				tr := r.Tests[0]
				if tr.Name != "one notification" || tr.Message != "sent twice" || tr.Schedules != 148 {
					t.Errorf("test %+v", tr)
				}
				if n := len([]rune(tr.Output)); n != MaxTestOutput || !strings.HasSuffix(tr.Output, "…") {
					t.Errorf("output kept %d characters, want %d ending in …", n, MaxTestOutput)
				}
				want := []TraceStep{
					{Step: 1, Worker: "blue", Operation: "get", Key: "lock:job-7", Result: "null"},
					{Step: 4, At: 5, Worker: "green", Operation: "notify", Key: "job-7", Result: "sent", Highlight: true},
				}
				if !reflect.DeepEqual(tr.Trace, want) {
					t.Errorf("trace %+v", tr.Trace)
				}
			},
		},
		{
			name:    "supervisor's own verdict",
			payload: enc(`{"version":3,"status":"fail","verdict":"output-limit","message":"too chatty","tests":[]}`),
			check: func(t *testing.T, r *Results) {
				if r.Verdict != VerdictOutputLimit || r.Message != "too chatty" {
					t.Errorf("results %+v", r)
				}
			},
		},
		{
			name:    "the harness's own errors are for operators",
			payload: enc(`{"version":3,"status":"error","message":"internal harness error: the scenario could not be judged","tests":[],"internal":"two workers: TypeError: x is undefined\n    at end (properties.mjs:9:3)"}`),
			check: func(t *testing.T, r *Results) {
				if !strings.Contains(r.Diagnostics, "TypeError: x is undefined") || !strings.Contains(r.Diagnostics, "properties.mjs:9:3") {
					t.Errorf("diagnostics %q", r.Diagnostics)
				}
				raw, err := json.Marshal(r)
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(raw), "TypeError") || strings.Contains(string(raw), "internal\"") {
					t.Errorf("what is stored and served shows the harness's errors: %s", raw)
				}
			},
		},
		{
			name:    "no tests is an empty list",
			payload: enc(`{"version":3,"status":"error","message":"suite crashed"}`),
			check: func(t *testing.T, r *Results) {
				if r.Tests == nil || r.Message != "suite crashed" {
					t.Errorf("results %+v", r)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := decodeRecord(tt.payload)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, r)
		})
	}
}

func TestResultsJSONNames(t *testing.T) {
	raw, err := json.Marshal(Results{Version: 3, Status: "fail", Verdict: VerdictFail, Tests: []TestResult{{
		Name: "n", Status: "fail", Trace: []TraceStep{{Step: 1}},
	}}, DurationMS: 7})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":3,"status":"fail","verdict":"fail","tests":[{"name":"n","status":"fail","message":"","output":"",` +
		`"trace":[{"step":1,"at":0,"worker":"","operation":"","key":"","result":""}]}],"output":"","duration_ms":7}`
	if string(raw) != want {
		t.Errorf("got  %s\nwant %s", raw, want)
	}
}

// splitEvery cuts s into pieces of n bytes.
func splitEvery(s string, n int) []string {
	var parts []string
	for len(s) > n {
		parts, s = append(parts, s[:n]), s[n:]
	}
	return append(parts, s)
}
