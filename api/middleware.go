package api

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/racecase/racecase/workspace"
)

// Keys of values a request carries in its gin.Context.
const (
	keyRequestID = "racecase.request_id"
	keyLogger    = "racecase.logger"
	keyLearner   = "racecase.learner"
)

// withRequestLog gives each request an id (also sent as X-Request-Id) and a
// logger carrying it, and logs the request when it ends.
func withRequestLog(log *slog.Logger) gin.HandlerFunc {
	return func(c *gin.Context) {
		id := rand.Text()[:16]
		c.Set(keyRequestID, id)
		c.Header("X-Request-Id", id)
		reqLog := log.With("request_id", id)
		c.Set(keyLogger, reqLog)
		start := time.Now()
		c.Next()
		reqLog.Info("request",
			"method", methodOf(c),
			"route", routeOf(c),
			"path", c.Request.URL.Path,
			"status", c.Writer.Status(),
			"duration_ms", time.Since(start).Milliseconds(),
		)
	}
}

// httpMetrics is the HTTP latency histogram.
type httpMetrics struct {
	latency *prometheus.HistogramVec
}

// newHTTPMetrics builds the histogram and registers it with r.
func newHTTPMetrics(r prometheus.Registerer) (*httpMetrics, error) {
	m := &httpMetrics{latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "racecase_http_request_duration_seconds",
		Help:    "HTTP request latency by method, route template and status.",
		Buckets: prometheus.DefBuckets,
	}, []string{"method", "route", "status"})}
	if err := r.Register(m.latency); err != nil {
		return nil, fmt.Errorf("api: register HTTP metrics: %w", err)
	}
	return m, nil
}

// observe times each request by its route template, not its path, so that
// ids do not multiply the series.
func (m *httpMetrics) observe() gin.HandlerFunc {
	return func(c *gin.Context) {
		start := time.Now()
		c.Next()
		m.latency.WithLabelValues(methodOf(c), routeOf(c), strconv.Itoa(c.Writer.Status())).
			Observe(time.Since(start).Seconds())
	}
}

// methodOf returns the request's method as the client sent it: HEAD for a
// HEAD request routed as a GET.
func methodOf(c *gin.Context) string {
	if isHead(c.Request) {
		return http.MethodHead
	}
	return c.Request.Method
}

// appRoute labels requests the browser app answered, in logs and metrics.
const appRoute = "app"

// routeOf returns the route template that matched, "app" for a page of the
// browser app, or "unmatched".
func routeOf(c *gin.Context) string {
	if r := c.FullPath(); r != "" {
		return r
	}
	if c.GetBool(appRoute) {
		return appRoute
	}
	return "unmatched"
}

// recoverProblem turns a panic into a 500 problem; the panic and its stack go
// to the log only.
func recoverProblem() gin.HandlerFunc {
	return func(c *gin.Context) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			logger(c).Error("handler panicked", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if c.Writer.Written() {
				c.Abort()
				return
			}
			writeProblem(c, newProblem(c, http.StatusInternalServerError, workspace.EINTERNAL,
				"Something went wrong on our side; it has been logged."))
		}()
		c.Next()
	}
}

// noRoute answers a path no route matches.
func noRoute(c *gin.Context) {
	writeProblem(c, newProblem(c, http.StatusNotFound, codeNoRoute,
		fmt.Sprintf("No route matches %s %s; /api/openapi.json lists every route.", c.Request.Method, c.Request.URL.Path)))
}

// noMethod answers a path that exists for other methods. gin has set Allow;
// HEAD joins it wherever GET is allowed.
func noMethod(c *gin.Context) {
	allow := c.Writer.Header().Get("Allow")
	if strings.Contains(allow, http.MethodGet) && !strings.Contains(allow, http.MethodHead) {
		allow += ", " + http.MethodHead
		c.Header("Allow", allow)
	}
	writeProblem(c, newProblem(c, http.StatusMethodNotAllowed, codeMethodNotAllowed,
		fmt.Sprintf("%s is not allowed on %s; allowed: %s.", methodOf(c), c.Request.URL.Path, allow)))
}
