package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// testLearner is a learner of a test server: its cookie and a workspace.
type testLearner struct {
	t         *testing.T
	base      string
	cookie    string
	workspace string
}

// testResponse is a finished exchange with the test server.
type testResponse struct {
	Code int
	Body *bytes.Buffer
	h    http.Header
}

// Header returns the response's header.
func (r testResponse) Header() http.Header { return r.h }

// newTestLearner serves h on a port of its own and creates a workspace
// there, keeping the learner's cookie.
func newTestLearner(t *testing.T, h http.Handler) testLearner {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	l := testLearner{t: t, base: srv.URL}
	w := l.do("POST", "/api/workspaces", `{"dossier":"job-lock-double-send"}`, map[string]string{"Content-Type": "application/json"})
	if w.Code != http.StatusCreated {
		t.Fatalf("create workspace: %d %s", w.Code, w.Body.String())
	}
	var ws struct{ ID string }
	_ = json.Unmarshal(w.Body.Bytes(), &ws)
	l.cookie, l.workspace = strings.Split(w.Header().Get("Set-Cookie"), ";")[0], ws.ID
	return l
}

// do sends a request as the learner, with extra headers ("Host" sets the
// request's host).
func (l testLearner) do(method, path, body string, headers map[string]string) testResponse {
	l.t.Helper()
	req, err := http.NewRequest(method, l.base+path, strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	if l.cookie != "" {
		req.Header.Set("Cookie", l.cookie)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	req.Host = req.Header.Get("Host")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var buf bytes.Buffer
	_, _ = io.Copy(&buf, resp.Body)
	return testResponse{Code: resp.StatusCode, Body: &buf, h: resp.Header}
}

// headersOf sends a request and returns as soon as the response's
// headers arrive, without its body.
func (l testLearner) headersOf(method, path, body string, headers map[string]string) testResponse {
	l.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, l.base+path, strings.NewReader(body))
	if err != nil {
		l.t.Fatal(err)
	}
	if l.cookie != "" {
		req.Header.Set("Cookie", l.cookie)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		l.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	return testResponse{Code: resp.StatusCode, Body: &bytes.Buffer{}, h: resp.Header}
}

func TestForgedFormPostFromAnotherOriginOfTheSiteChangesNothing(t *testing.T) {
	h := headAsGet(newTestEngine(t))
	l := newTestLearner(t, h)
	hints := "/api/workspaces/" + l.workspace + "/hints"
	for name, headers := range map[string]map[string]string{
		"another port, Fetch metadata": {"Sec-Fetch-Site": "same-site", "Origin": "http://127.0.0.1:9999"},
		"sibling subdomain, Origin":    {"Origin": "http://evil.example.test", "Host": "racecase.example.test"},
		"another site":                 {"Sec-Fetch-Site": "cross-site", "Origin": "https://attacker.test"},
	} {
		headers["Content-Type"] = "application/x-www-form-urlencoded"
		for _, path := range []string{hints, "/api/workspaces/" + l.workspace + "/reset", "/api/workspaces/" + l.workspace + "/reset/src/locks/job-lock.js"} {
			w := l.do("POST", path, "x=1", headers)
			var p map[string]any
			_ = json.Unmarshal(w.Body.Bytes(), &p)
			if w.Code != http.StatusForbidden || p["code"] != codeCrossOrigin {
				t.Errorf("%s: POST %s: %d %s", name, path, w.Code, w.Body.String())
			}
		}
	}
	var listed struct{ Hints []struct{ Revealed bool } }
	_ = json.Unmarshal(l.do("GET", hints, "", nil).Body.Bytes(), &listed)
	for i, hint := range listed.Hints {
		if hint.Revealed {
			t.Errorf("hint %d was revealed by a forged post", i)
		}
	}
	if w := l.do("POST", hints, "", map[string]string{"Sec-Fetch-Site": "same-origin"}); w.Code != http.StatusCreated {
		t.Errorf("a same-origin post: %d %s", w.Code, w.Body.String())
	}
}

func TestEveryResponseCarriesSecurityHeaders(t *testing.T) {
	h := headAsGet(newTestEngine(t))
	l := newTestLearner(t, h)
	for _, r := range []struct{ method, path string }{
		{"GET", "/api/dossiers"}, {"GET", "/api/workspaces/" + l.workspace}, {"GET", "/api/nowhere"},
		{"DELETE", "/api/dossiers"}, {"GET", "/healthz"}, {"HEAD", "/api/dossiers"}, {"POST", "/api/workspaces"},
	} {
		w := l.do(r.method, r.path, "", nil)
		for name, want := range map[string]string{
			"X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Content-Security-Policy": apiContentSecurityPolicy,
		} {
			if got := w.Header().Get(name); got != want {
				t.Errorf("%s %s (%d): %s is %q", r.method, r.path, w.Code, name, got)
			}
		}
	}
}

func TestHeadWhereverGetIsAnswered(t *testing.T) {
	r := newTestEngine(t)
	h := headAsGet(r)
	l := newTestLearner(t, h)
	run := "/api/runs/r_none/events"
	for _, route := range r.Routes() {
		if route.Method != http.MethodGet {
			continue
		}
		path := strings.NewReplacer(":id", l.workspace, ":slug", "job-lock-double-send", "*path", "src/locks/job-lock.js").Replace(route.Path)
		if route.Path == "/api/runs/:id/events" || route.Path == "/api/runs/:id" {
			path = strings.Replace(route.Path, ":id", "r_none", 1)
		}
		send := l.do
		if strings.HasSuffix(route.Path, "/events") {
			send = l.headersOf // an event stream answers until the client leaves
		}
		get, head := send("GET", path, "", nil), l.do("HEAD", path, "", nil)
		if head.Code != get.Code || head.Header().Get("Content-Type") != get.Header().Get("Content-Type") || head.Body.Len() != 0 {
			t.Errorf("HEAD %s: %d %q with %d body bytes; GET: %d %q", path, head.Code, head.Header().Get("Content-Type"),
				head.Body.Len(), get.Code, get.Header().Get("Content-Type"))
		}
	}
	if w := l.do("HEAD", run, "", nil); w.Code != http.StatusNotFound {
		t.Errorf("HEAD of a missing run's events: %d", w.Code)
	}
	w := l.do("PUT", "/api/dossiers", "", nil)
	if allow := w.Header().Get("Allow"); w.Code != http.StatusMethodNotAllowed || !strings.Contains(allow, "HEAD") {
		t.Errorf("405 Allow %q", allow)
	}
}

func TestNoRedirectsOnAPIPaths(t *testing.T) {
	h := headAsGet(newTestEngine(t))
	l := newTestLearner(t, h)
	for _, path := range []string{"/api/dossiers/", "/api//dossiers", "/API/dossiers", "/api/dossiers/job-lock-double-send/", "/healthz/"} {
		w := l.do("GET", path, "", nil)
		var p map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &p)
		if w.Code != http.StatusNotFound || p["code"] != codeNoRoute || p["request_id"] == nil || w.Header().Get("Location") != "" {
			t.Errorf("GET %s: %d Location %q %s", path, w.Code, w.Header().Get("Location"), w.Body.String())
		}
	}
}

func TestNewLearnersPerAddressAreRateLimited(t *testing.T) {
	// Three a minute: the allowance refills one every 20 s, far longer than
	// the four creations below take even on a loaded machine.
	const perMinute = 3
	h := headAsGet(newTestEngineWith(t, func(c *Config) { c.NewLearnersPerMinute = perMinute }))
	first := newTestLearner(t, h) // the first new learner from this address
	anonymous := testLearner{t: t, base: first.base}
	create := map[string]string{"Content-Type": "application/json"}
	body := `{"dossier":"job-lock-double-send"}`
	for i := 1; i < perMinute; i++ {
		if w := anonymous.do("POST", "/api/workspaces", body, create); w.Code != http.StatusCreated {
			t.Fatalf("new learner %d: %d %s", i+1, w.Code, w.Body.String())
		}
	}
	w := anonymous.do("POST", "/api/workspaces", body, create)
	var p map[string]any
	_ = json.Unmarshal(w.Body.Bytes(), &p)
	if w.Code != http.StatusTooManyRequests || p["code"] != "too_many" || w.Header().Get("Retry-After") == "" {
		t.Fatalf("one new learner too many: %d %q %s", w.Code, w.Header().Get("Retry-After"), w.Body.String())
	}
	if w := first.do("POST", "/api/workspaces", body, create); w.Code != http.StatusCreated {
		t.Errorf("a known learner's next workspace: %d %s", w.Code, w.Body.String())
	}
}
