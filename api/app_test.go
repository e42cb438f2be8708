package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestServeAppOr(t *testing.T) {
	app := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("app")) })
	fallback := func(c *gin.Context) { c.String(http.StatusNotFound, "problem") }
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	var routes []string
	r.Use(func(c *gin.Context) { c.Next(); routes = append(routes, routeOf(c)) })
	r.NoRoute(serveAppOr(app, fallback))
	for _, tc := range []struct{ method, path, want string }{
		{http.MethodGet, "/", "app"},
		{http.MethodGet, "/dossiers/job-lock-double-send", "app"},
		{http.MethodHead, "/assets/app.js", "app"},
		{http.MethodGet, "/api/nothing", "problem"},
		{http.MethodGet, "/api", "problem"},
		{http.MethodPost, "/somewhere", "problem"},
		{http.MethodGet, "/git/w_x.git/HEAD", "problem"},
		{http.MethodGet, "/gitlab", "app"},
	} {
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if got := rec.Body.String(); got != tc.want {
			t.Errorf("%s %s: got %q, want %q", tc.method, tc.path, got, tc.want)
		}
	}
	if want := []string{"app", "app", "app", "unmatched", "unmatched", "unmatched", "unmatched", "app"}; strings.Join(routes, " ") != strings.Join(want, " ") {
		t.Errorf("routes in logs and metrics: %v, want %v", routes, want)
	}
	bare := gin.New()
	bare.NoRoute(serveAppOr(nil, fallback))
	rec := httptest.NewRecorder()
	bare.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if rec.Body.String() != "problem" {
		t.Errorf("without an app, GET / got %q", rec.Body.String())
	}
}
