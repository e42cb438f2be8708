package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// serveError runs writeError for err and returns the response.
func serveError(t *testing.T, err error) (*httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	w := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(w)
	c.Request = httptest.NewRequest(http.MethodGet, "/api/thing", nil)
	writeError(c, err)
	var body map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
		t.Fatalf("body is not JSON: %q", w.Body.String())
	}
	return w, body
}

func TestEveryCodeMapsToAStatus(t *testing.T) {
	want := map[string]int{
		workspace.EINVALID: 400, workspace.EFORBIDDEN: 403, workspace.ENOTFOUND: 404, workspace.ECONFLICT: 409,
		workspace.ETOOLARGE: 413, workspace.ETOOMANY: 429, workspace.EUNAVAILABLE: 503, workspace.EINTERNAL: 500,
		workspace.EQUOTA: 403, workspace.EFULL: 507,
	}
	for code, status := range want {
		w, body := serveError(t, workspace.Errorf(code, "message for %s", code))
		if w.Code != status || w.Header().Get("Content-Type") != problemContentType {
			t.Errorf("%s: status %d, content type %q", code, w.Code, w.Header().Get("Content-Type"))
		}
		if body["code"] != code || body["status"] != float64(status) || body["type"] != "urn:racecase:problem:"+code ||
			body["title"] != http.StatusText(status) || body["instance"] != "/api/thing" {
			t.Errorf("%s: body %v", code, body)
		}
	}
	if len(statusOf) != len(want) {
		t.Errorf("statusOf has %d codes, the test knows %d", len(statusOf), len(want))
	}
}

func TestInternalErrorsStayInternal(t *testing.T) {
	secret := errors.New("open /var/lib/racecase/racecase.db: disk I/O error")
	for _, err := range []error{secret, fmt.Errorf("workspace: save: %w", secret)} {
		w, body := serveError(t, err)
		if w.Code != 500 || body["code"] != workspace.EINTERNAL || strings.Contains(w.Body.String(), "disk") {
			t.Errorf("status %d, body %s", w.Code, w.Body.String())
		}
	}
	// An application error wrapped with context keeps its code and message.
	w, body := serveError(t, fmt.Errorf("ctx: %w", workspace.Errorf(workspace.ENOTFOUND, "There is no run %q.", "r_1")))
	if w.Code != 404 || body["detail"] != `There is no run "r_1".` {
		t.Errorf("wrapped: %d %v", w.Code, body)
	}
}

func TestProblemDataAndRetryAfter(t *testing.T) {
	w, body := serveError(t, &workspace.Error{Code: workspace.ETOOMANY, Message: "full", RetryAfter: 1500 * time.Millisecond,
		Data: map[string]any{"queue": 3, "status": "overridden?"}})
	if w.Header().Get("Retry-After") != "2" {
		t.Errorf("Retry-After %q", w.Header().Get("Retry-After"))
	}
	if body["queue"] != float64(3) || body["status"] != float64(429) {
		t.Errorf("body %v", body)
	}
}

func TestRouterProblems(t *testing.T) {
	r := newTestEngine(t)
	r.GET("/test/panic", func(*gin.Context) { panic("secret panic value") })
	for _, c := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/nowhere", 404, codeNoRoute},
		{"DELETE", "/api/dossiers", 405, codeMethodNotAllowed},
		{"GET", "/api/dossiers/none", 404, workspace.ENOTFOUND},
		{"GET", "/api/workspaces/w_none", 404, workspace.ENOTFOUND},
		{"GET", "/test/panic", 500, workspace.EINTERNAL},
		{"POST", "/api/workspaces/w_none/runs", 415, codeMediaType},
	} {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(c.method, c.path, nil))
		var body map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		if w.Code != c.status || body["code"] != c.code || w.Header().Get("Content-Type") != problemContentType {
			t.Errorf("%s %s: %d %q %s", c.method, c.path, w.Code, w.Header().Get("Content-Type"), w.Body.String())
		}
		if strings.Contains(w.Body.String(), "secret panic") {
			t.Errorf("the panic value reached the client")
		}
	}
}
