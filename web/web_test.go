package web

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// built is a build as `make web` lays it out.
var built = fstest.MapFS{
	"index.html":            {Data: []byte(`<!doctype html><script type="module" src="/assets/app-ABC.js"></script>`)},
	"assets/app-ABC.js":     {Data: []byte(strings.Repeat("console.log('racecase');\n", 100))},
	"assets/style-DEF.css":  {Data: []byte("body{margin:0}")},
	"assets/nested/img.svg": {Data: []byte("<svg/>")},
}

func get(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestAppRoutesGetIndex(t *testing.T) {
	h := newHandler(built)
	for _, p := range []string{"/", "/dossiers/job-lock-double-send", "/some/unknown/page", "/index.html"} {
		rec := get(t, h, http.MethodGet, p, nil)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "/assets/app-ABC.js") {
			t.Errorf("GET %s: %d %q, want the app's index.html", p, rec.Code, rec.Body.String())
		}
		if got := rec.Header().Get("Cache-Control"); got != cachePage {
			t.Errorf("GET %s: Cache-Control %q, want %q", p, got, cachePage)
		}
		if rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: security headers missing: %v", p, rec.Header())
		}
	}
}

func TestHashedAssetsAreCachedLong(t *testing.T) {
	h := newHandler(built)
	rec := get(t, h, http.MethodGet, "/assets/style-DEF.css", nil)
	if rec.Code != http.StatusOK || rec.Body.String() != "body{margin:0}" {
		t.Fatalf("GET css: %d %q", rec.Code, rec.Body.String())
	}
	if got := rec.Header().Get("Cache-Control"); got != cacheHashed {
		t.Errorf("Cache-Control %q, want %q", got, cacheHashed)
	}
	if got := rec.Header().Get("Content-Type"); got != "text/css; charset=utf-8" {
		t.Errorf("Content-Type %q", got)
	}
	if rec := get(t, h, http.MethodGet, "/assets/missing-123.js", nil); rec.Code != http.StatusNotFound {
		t.Errorf("missing asset: %d, want 404 (never the page)", rec.Code)
	}
}

func TestAssetsAreGzippedWhenAccepted(t *testing.T) {
	h := newHandler(built)
	for range 2 { // the second answer comes from the cache
		rec := get(t, h, http.MethodGet, "/assets/app-ABC.js", map[string]string{"Accept-Encoding": "gzip, br"})
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding %q, want gzip", rec.Header().Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(zr)
		if string(body) != string(built["assets/app-ABC.js"].Data) {
			t.Fatalf("gunzipped body differs")
		}
	}
}

func TestAPIPathsAreNotTheApp(t *testing.T) {
	h := newHandler(built)
	for _, p := range []string{"/api", "/api/nothing", "/api/../api/x"} {
		if rec := get(t, h, http.MethodGet, p, nil); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, rec.Code)
		}
	}
	if rec := get(t, h, http.MethodPost, "/", nil); rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST /: %d Allow=%q", rec.Code, rec.Header().Get("Allow"))
	}
	if rec := get(t, h, http.MethodHead, "/", nil); rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Errorf("HEAD /: %d with %d bytes", rec.Code, rec.Body.Len())
	}
}

func TestNotBuiltSaysHowToBuild(t *testing.T) {
	h := newHandler(fstest.MapFS{".gitkeep": {}})
	rec := get(t, h, http.MethodGet, "/dossiers/x", nil)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), "make web") {
		t.Fatalf("unbuilt app: %d %q", rec.Code, rec.Body.String())
	}
}

func TestEmbeddedHandlerServes(t *testing.T) {
	// Whether or not the app is built, the embedded handler answers the page:
	// the app (200) or the "run make web" page (503).
	rec := get(t, Handler(), http.MethodGet, "/", nil)
	if rec.Code != http.StatusOK && rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("GET /: %d", rec.Code)
	}
}
