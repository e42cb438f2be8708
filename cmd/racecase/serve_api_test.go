package main

import (
	"net/http"
	"strings"
	"testing"
)

// startWithoutEngine runs the server with no Docker engine reachable and
// the given extra flags.
func startWithoutEngine(t *testing.T, extra ...string) *testServer {
	t.Setenv("DOCKER_HOST", "unix://"+t.TempDir()+"/no-engine.sock")
	return startServe(t, extra...)
}

func TestWithoutAnEngineEverythingButRunsWorks(t *testing.T) {
	srv := startWithoutEngine(t)
	c := newClient(t, srv.URL)
	ws := c.createWorkspace()
	c.save(ws.ID, "src/locks/job-lock.js", "// my fix\n")
	p := problemOf(t, c.do("POST", "/api/workspaces/"+ws.ID+"/runs", map[string]string{"kind": "check"}), http.StatusServiceUnavailable, "unavailable")
	if detail := p["detail"].(string); !strings.Contains(detail, "Docker engine") || !strings.Contains(detail, "docker-engine") {
		t.Fatalf("the 503 does not say how to start a runner: %q", detail)
	}
	ready := problemOf(t, c.do("GET", "/readyz", nil), http.StatusServiceUnavailable, "unavailable")
	checks := ready["checks"].(map[string]any)
	if checks["database"] != "ok" || !strings.Contains(checks["runner"].(string), "Docker engine") {
		t.Fatalf("readyz checks %v", checks)
	}
	c.do("GET", "/healthz", nil).want(t, http.StatusOK)
	c.do("GET", "/api/openapi.json", nil).want(t, http.StatusOK)
	if code := srv.stop(); code != exitOK {
		t.Fatalf("graceful stop exited %d", code)
	}
}

func TestOwnershipIsPrivate(t *testing.T) {
	srv := startWithoutEngine(t)
	alice, bob := newClient(t, srv.URL), newClient(t, srv.URL)
	ws := alice.createWorkspace()
	base := "/api/workspaces/" + ws.ID
	for _, r := range []struct{ method, path string }{
		{"GET", base}, {"GET", base + "/files/src/locks/job-lock.js"}, {"POST", base + "/reset"},
		{"POST", base + "/reset/src/locks/job-lock.js"}, {"GET", base + "/diff"}, {"GET", base + "/hints"},
		{"POST", base + "/hints"}, {"GET", base + "/progress"},
	} {
		problemOf(t, bob.do(r.method, r.path, nil), http.StatusNotFound, "not_found")
	}
	problemOf(t, bob.do("PUT", base+"/files/src/locks/job-lock.js", map[string]any{"content": "x", "base_version": 1}), http.StatusNotFound, "not_found")
	problemOf(t, bob.do("POST", base+"/runs", map[string]string{"kind": "check"}), http.StatusNotFound, "not_found")
	list := decode[struct{ Workspaces []any }](t, bob.do("GET", "/api/workspaces", nil).want(t, http.StatusOK))
	if len(list.Workspaces) != 0 {
		t.Fatalf("bob lists %v", list.Workspaces)
	}
	// A forged cookie is no one.
	forged := newClient(t, srv.URL)
	req, _ := http.NewRequest("GET", srv.URL+base, nil)
	req.AddCookie(&http.Cookie{Name: "racecase_session", Value: "v1.l_forged.AAAA"})
	resp, err := forged.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("forged cookie: %d", resp.StatusCode)
	}
	alice.do("GET", base, nil).want(t, http.StatusOK)
}

func TestStaleSaveAndBadRequestsLoseNothing(t *testing.T) {
	srv := startWithoutEngine(t)
	c := newClient(t, srv.URL)
	ws := c.createWorkspace()
	files := "/api/workspaces/" + ws.ID + "/files/"
	const lock = "src/locks/job-lock.js"
	kept := c.save(ws.ID, lock, "// tab one\n")

	// A second tab that loaded version 1 gets the current file back.
	p := problemOf(t, c.do("PUT", files+lock, map[string]any{"content": "// tab two\n", "base_version": 1}), http.StatusConflict, "conflict")
	current := p["current"].(map[string]any)
	if current["content"] != "// tab one\n" || current["version"] != float64(kept.Version) {
		t.Fatalf("409 carries %v", current)
	}

	saveBody := map[string]any{"content": "// lost?\n", "base_version": kept.Version}
	for _, bad := range []struct {
		name, path string
		body       any
		status     int
		code       string
	}{
		{"dot-dot", "src/../package.json", saveBody, 400, "invalid"},
		{"escaped dot-dot", "src/%2e%2e/%2e%2e/etc/passwd", saveBody, 400, "invalid"},
		{"absolute", "/etc/passwd", saveBody, 400, "invalid"},
		{"backslash", `src\locks\job-lock.js`, saveBody, 400, "invalid"},
		{"empty path", "", saveBody, 400, "invalid"},
		{"not in the repository", "src/new.js", saveBody, 404, "not_found"},
		{"read-only", "package.json", map[string]any{"content": "{}", "base_version": 1}, 403, "forbidden"},
		{"file too large", lock, map[string]any{"content": strings.Repeat("x", 256<<10+1), "base_version": kept.Version}, 413, "too_large"},
		{"not UTF-8", lock, "{\"content\":\"\xff\xfe\",\"base_version\":2}", 400, "invalid"},
		{"NUL", lock, map[string]any{"content": "a\x00b", "base_version": kept.Version}, 400, "invalid"},
		{"no base version", lock, map[string]any{"content": "x"}, 400, "invalid"},
		{"bad JSON", lock, `{"content": "x", "base_version": }`, 400, "invalid"},
		{"unknown member", lock, `{"content": "x", "base_version": 2, "force": true}`, 400, "invalid"},
	} {
		t.Run(bad.name, func(t *testing.T) {
			problemOf(t, c.do("PUT", files+bad.path, bad.body), bad.status, bad.code)
		})
	}
	// Filling the workspace past 2 MiB is refused at the file that would pass it.
	view := decode[workspaceJSON](t, c.do("GET", "/api/workspaces/"+ws.ID, nil).want(t, http.StatusOK))
	big := strings.Repeat("y", 256<<10)
	refused := false
	for _, f := range view.Files {
		if f.ReadOnly || f.Path == lock {
			continue
		}
		r := c.do("PUT", files+f.Path, map[string]any{"content": big, "base_version": f.Version})
		if r.status != http.StatusOK {
			problemOf(t, r, http.StatusRequestEntityTooLarge, "too_large")
			refused = true
			break
		}
	}
	if !refused {
		t.Fatal("the workspace cap never refused a save")
	}
	got := decode[fileJSON](t, c.do("GET", files+lock, nil).want(t, http.StatusOK))
	if got.Content != "// tab one\n" || got.Version != kept.Version {
		t.Fatalf("after refused saves the file is %+v", got)
	}
	// Wrong media type and unknown routes are problems too.
	req, _ := http.NewRequest("PUT", srv.URL+files+lock, strings.NewReader(`{"content":"x","base_version":2}`))
	req.Header.Set("Content-Type", "text/plain")
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("text/plain body: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	problemOf(t, c.do("GET", "/api/nothing-here", nil), http.StatusNotFound, "no_route")
	problemOf(t, c.do("DELETE", "/api/workspaces", nil), http.StatusMethodNotAllowed, "method_not_allowed")
}
