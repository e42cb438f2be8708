package runner

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// recordMarker opens the supervisor's result record on stdout; the nonce, a
// space and the base64 of the results JSON follow it.
const recordMarker = "\x1eracecase-result "

// maxLineBytes bounds the stdout line held back while looking for the record.
const maxLineBytes = 8 << 20

// maxDiagnostics is the most characters of the harness's own errors a record's
// Diagnostics keeps.
const maxDiagnostics = 8000

// payload is the JSON document written to the container's stdin. Byte slices
// encode as base64.
type payload struct {
	Nonce            string            `json:"nonce"`
	Suite            Suite             `json:"suite"`
	Files            map[string][]byte `json:"files"`
	Secret           map[string][]byte `json:"secret"`
	OutputLimitBytes int64             `json:"outputLimitBytes"`
}

// randomHex returns n random bytes as 2n hex digits.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand, Go 1.24+)
	return hex.EncodeToString(b)
}

// encodePayload returns the stdin document for job, keyed to nonce.
func encodePayload(nonce string, job Job) ([]byte, error) {
	p := payload{
		Nonce:            nonce,
		Suite:            job.Suite,
		Files:            job.Files,
		Secret:           job.Secret,
		OutputLimitBytes: job.Limits.OutputBytes,
	}
	if p.Files == nil {
		p.Files = map[string][]byte{}
	}
	if p.Secret == nil {
		p.Secret = map[string][]byte{}
	}
	return json.Marshal(p)
}

// recordFilter passes stdout through to the console, line by line, except
// result records carrying the run's nonce: it keeps the last one aside.
// Records with another nonce are ordinary output.
type recordFilter struct {
	marker  []byte // recordMarker, nonce and a space
	console io.Writer
	line    []byte // the current, unfinished line
	record  []byte // base64 payload of the last matching record
	found   bool
}

// newRecordFilter returns a filter for records keyed to nonce.
func newRecordFilter(nonce string, console io.Writer) *recordFilter {
	return &recordFilter{marker: []byte(recordMarker + nonce + " "), console: console}
}

// Write implements io.Writer; it never fails.
func (f *recordFilter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			f.line = append(f.line, p...)
			if len(f.line) > maxLineBytes {
				f.endLine()
			}
			break
		}
		f.line = append(f.line, p[:i+1]...)
		f.endLine()
		p = p[i+1:]
	}
	return n, nil
}

// Flush ends a last line that has no newline.
func (f *recordFilter) Flush() {
	if len(f.line) > 0 {
		f.endLine()
	}
}

// endLine sends the held line to the console or, from the marker on, keeps it
// as the record.
func (f *recordFilter) endLine() {
	if i := bytes.Index(f.line, f.marker); i >= 0 {
		f.console.Write(f.line[:i])
		f.record = append(f.record[:0], bytes.TrimRight(f.line[i+len(f.marker):], "\r\n")...)
		f.found = true
	} else {
		f.console.Write(f.line)
	}
	f.line = f.line[:0]
}

// decodeRecord reads a record's base64 payload into Results and checks it.
func decodeRecord(b64 []byte) (*Results, error) {
	raw, err := base64.StdEncoding.DecodeString(string(bytes.TrimSpace(b64)))
	if err != nil {
		return nil, fmt.Errorf("not base64: %w", err)
	}
	var rec struct {
		Results
		// Internal is the harness's own errors, for operators only.
		Internal string `json:"internal"`
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("not results JSON: %w", err)
	}
	r := rec.Results
	r.Diagnostics = truncateChars(strings.TrimSpace(rec.Internal), maxDiagnostics)
	if r.Version != ResultsVersion {
		return nil, fmt.Errorf("results version %d, want %d", r.Version, ResultsVersion)
	}
	if !validStatus(r.Status) {
		return nil, fmt.Errorf("unknown status %q", r.Status)
	}
	if err := checkRecordVerdict(r.Status, r.Verdict); err != nil {
		return nil, err
	}
	for i := range r.Tests {
		t := &r.Tests[i]
		if !validStatus(t.Status) {
			return nil, fmt.Errorf("test %q: unknown status %q", t.Name, t.Status)
		}
		if r.Status == StatusPass && t.Status != StatusPass {
			return nil, errors.New("status pass with a test that did not pass")
		}
		t.Output = truncateChars(t.Output, MaxTestOutput)
	}
	if r.Tests == nil {
		r.Tests = []TestResult{}
	}
	return &r, nil
}

// checkRecordVerdict accepts the verdict a record may carry: none, or a known
// one that agrees with the status (the supervisor reports, e.g., output-limit
// with status fail when it cut the learner's output short itself).
func checkRecordVerdict(status string, v Verdict) error {
	switch v {
	case "":
		return nil
	case VerdictPass:
		if status == StatusPass {
			return nil
		}
	case VerdictFail, VerdictError, VerdictTimeout, VerdictMemory, VerdictOutputLimit:
		if status != StatusPass {
			return nil
		}
	default:
		return fmt.Errorf("unknown verdict %q", v)
	}
	return fmt.Errorf("verdict %q with status %q", v, status)
}

// validStatus reports whether s is pass, fail or error.
func validStatus(s string) bool {
	return s == StatusPass || s == StatusFail || s == StatusError
}
