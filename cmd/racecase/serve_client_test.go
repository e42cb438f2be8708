package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/api/apitest"
)

// client is one browser: its own cookie jar, so its own learner. Every
// response it receives is checked against openapi.json.
type client struct {
	t      testing.TB
	base   string
	http   *http.Client
	bearer string // an instructor token sent with every request, if set
}

func newClient(t testing.TB, base string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: base, http: &http.Client{Jar: jar, Timeout: 60 * time.Second}}
}

// response is a finished HTTP exchange.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request; body is sent as JSON unless it is a string or
// []byte, which are sent as they are with Content-Type: application/json.
func (c *client) do(method, path string, body any) response {
	c.t.Helper()
	r, err := c.try(method, path, body)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

// try is do that returns transport errors instead of failing the test.
func (c *client) try(method, path string, body any) (response, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return response{}, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return response{}, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil {
		apitest.Check(c.t, req, resp, data)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: data}, err
}

// json decodes the response body into v, which it returns.
func decode[T any](t testing.TB, r response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(r.body, &v); err != nil {
		t.Fatalf("response %d is not the JSON expected: %v\n%s", r.status, err, r.body)
	}
	return v
}

// want fails the test unless the response has the status.
func (r response) want(t testing.TB, status int) response {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r
}

// problemOf checks that r is a problem document with status and code, and
// returns it.
func problemOf(t testing.TB, r response, status int, code string) map[string]any {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("content type %q, want application/problem+json (status %d): %s", ct, r.status, r.body)
	}
	p := decode[map[string]any](t, r)
	if r.status != status || p["code"] != code || p["status"] != float64(status) || p["detail"] == "" {
		t.Fatalf("problem %d %v, want %d %s", r.status, p, status, code)
	}
	return p
}

// createWorkspace opens a workspace of the flagship dossier.
func (c *client) createWorkspace() workspaceJSON {
	c.t.Helper()
	return decode[workspaceJSON](c.t, c.do("POST", "/api/workspaces", map[string]string{"dossier": flagship}).want(c.t, http.StatusCreated))
}

// save reads a file's version and saves content over it.
func (c *client) save(wsID, path, content string) fileJSON {
	c.t.Helper()
	f := decode[fileJSON](c.t, c.do("GET", "/api/workspaces/"+wsID+"/files/"+path, nil).want(c.t, http.StatusOK))
	return decode[fileJSON](c.t, c.do("PUT", "/api/workspaces/"+wsID+"/files/"+path,
		map[string]any{"content": content, "base_version": f.Version}).want(c.t, http.StatusOK))
}

// startRun queues a run and returns it.
func (c *client) startRun(wsID, kind string) runJSON {
	c.t.Helper()
	return decode[runJSON](c.t, c.do("POST", "/api/workspaces/"+wsID+"/runs", map[string]string{"kind": kind}).want(c.t, http.StatusAccepted))
}

// sseEvent is one Server-Sent Event.
type sseEvent struct{ name, data string }

// streamRun reads a run's event stream until the server closes it.
func (c *client) streamRun(runID string, timeout time.Duration) []sseEvent {
	c.t.Helper()
	events, err := c.tryStreamRun(runID, timeout, func(req *http.Request, resp *http.Response, raw []byte) {
		apitest.Check(c.t, req, resp, raw)
	})
	if err != nil {
		c.t.Fatal(err)
	}
	return events
}

// tryStreamRun reads a run's event stream until the server closes it and
// hands the whole exchange to check; it returns errors instead of failing
// the test, so that it can run outside the test's goroutine.
func (c *client) tryStreamRun(runID string, timeout time.Duration, check func(*http.Request, *http.Response, []byte)) ([]sseEvent, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+"/api/runs/"+runID+"/events", nil)
	resp, err := (&http.Client{Jar: c.http.Jar}).Do(req)
	if err != nil {
		return nil, fmt.Errorf("event stream of %s: %w", runID, err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
		return nil, fmt.Errorf("event stream of %s: %d %q", runID, resp.StatusCode, ct)
	}
	var events []sseEvent
	var cur sseEvent
	var raw bytes.Buffer
	defer func() { check(req, resp, raw.Bytes()) }()
	sc := bufio.NewScanner(io.TeeReader(resp.Body, &raw))
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.name != "" {
				events = append(events, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			cur.data = strings.TrimPrefix(line, "data: ")
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("event stream of %s ended with %v after %v", runID, err, events)
	}
	return events, nil
}

// verdictOf streams a run to its end and checks the order of its events:
// queued, running, done (a run retried after a restart repeats the first
// two), then the verdict. It returns the run from the verdict event.
func (c *client) verdictOf(runID string) runJSON {
	c.t.Helper()
	run, err := verdictIn(runID, c.streamRun(runID, 3*time.Minute))
	if err != nil {
		c.t.Fatal(err)
	}
	return run
}

// verdictIn checks the order of a run's events (see verdictOf) and returns
// the run from the verdict event.
func verdictIn(runID string, events []sseEvent) (runJSON, error) {
	var statuses []string
	for _, e := range events[:max(len(events)-1, 0)] {
		var s struct{ Status string }
		_ = json.Unmarshal([]byte(e.data), &s)
		statuses = append(statuses, e.name+":"+s.Status)
	}
	got := strings.Join(statuses, " ")
	if len(events) < 4 || !strings.HasPrefix(got, "status:queued status:running") || !strings.HasSuffix(got, "status:done") ||
		strings.Count(got, "status:done") != 1 || events[len(events)-1].name != "verdict" {
		return runJSON{}, fmt.Errorf("events of run %s: %s, then %v", runID, got, events[max(len(events)-1, 0):])
	}
	var run runJSON
	err := json.Unmarshal([]byte(events[len(events)-1].data), &run)
	return run, err
}
