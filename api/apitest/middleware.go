package apitest

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// Middleware checks every response next gives to an API path (/api/…,
// /healthz, /readyz, /metrics) with Check, as it is sent, so that tests
// driving a browser check what the browser receives. Responses sent after
// the test ended are not checked.
func Middleware(t testing.TB, next http.Handler) http.Handler {
	var mu sync.Mutex
	ended := false
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		ended = true
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isAPIPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		tee := &teeWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(tee, r)
		mu.Lock()
		defer mu.Unlock()
		if !ended {
			resp := &http.Response{StatusCode: tee.status, Header: w.Header(), ContentLength: int64(tee.body.Len()), Request: r}
			Check(t, r, resp, tee.body.Bytes())
		}
	})
}

// isAPIPath reports the paths openapi.json describes.
func isAPIPath(p string) bool {
	switch p {
	case "/healthz", "/readyz", "/metrics":
		return true
	}
	return p == "/api" || strings.HasPrefix(p, "/api/")
}

// teeWriter passes a response through and keeps its status and body.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
	wrote  bool
}

// WriteHeader records the status.
func (w *teeWriter) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write keeps a copy of the body.
func (w *teeWriter) Write(p []byte) (int, error) {
	w.wrote = true
	w.body.Write(p)
	return w.ResponseWriter.Write(p)
}

// Flush sends what was written so far, for event streams.
func (w *teeWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the connection's writer.
func (w *teeWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
