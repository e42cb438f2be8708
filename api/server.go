// Package api is racecase's HTTP API, built on gin: the catalog of dossiers,
// learners' workspaces and files, runs and workspaces followed as
// Server-Sent Events, hints and progress, git access to workspaces (the
// protocol itself is gitserve's), health and metrics, joining a cohort, and
// the token-protected instructor routes (each dossier's lint status and
// validations, cohorts with their progress table and insights, learners'
// workspaces read-only, previews). routes.go
// lists every route; every error is an RFC 9457 problem document, except on
// git's protocol routes, which answer as git expects; /api/openapi.json
// describes the whole API.
package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/racecase/racecase/instructor"
	"github.com/racecase/racecase/workspace"
)

// Config is what the API needs.
type Config struct {
	// Service is the application service behind every route.
	Service *workspace.Service
	// SessionKey signs session cookies (workspace.Service.SessionKey).
	SessionKey []byte
	// Registry receives the HTTP metrics and is what /metrics serves.
	Registry *prometheus.Registry
	// Logger receives request logs; nil means slog.Default().
	Logger *slog.Logger
	// Done, when closed, ends long-lived responses (event streams), e.g. at
	// shutdown.
	Done <-chan struct{}
	// App serves every GET or HEAD outside /api that no route matches: the
	// browser workspace (web.Handler()). Nil serves the API alone.
	App http.Handler
	// Instructor backs the instructor routes; nil makes them answer 503.
	Instructor *instructor.Desk
	// InstructorToken is the bearer token the instructor routes require,
	// named PrimaryInstructor; InstructorTokens are more, by name (a name
	// shows as who created a cohort or asked for a validation). With none,
	// every request to them is refused.
	InstructorToken  string
	InstructorTokens map[string]string
	// BodyTimeout bounds sending a request body and reading a response,
	// event streams excepted; 0 means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// NewLearnersPerMinute is how many new learners one client address may
	// create a minute; 0 means DefaultNewLearnersPerMinute.
	NewLearnersPerMinute int
	// DataDir is the data directory; while its disk has less than
	// MinFreeBytes free (0: DefaultMinFreeBytes), every change gets 507.
	// Empty checks nothing.
	DataDir      string
	MinFreeBytes int64
}

// New returns the API's handler.
func New(cfg Config) (http.Handler, error) {
	r, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	return headAsGet(r), nil
}

// newEngine returns the gin engine with every route and middleware.
func newEngine(cfg Config) (*gin.Engine, error) {
	if cfg.Service == nil || len(cfg.SessionKey) == 0 || cfg.Registry == nil {
		return nil, errors.New("api: a service, a session key and a registry are required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.BodyTimeout <= 0 {
		cfg.BodyTimeout = DefaultBodyTimeout
	}
	if cfg.NewLearnersPerMinute <= 0 {
		cfg.NewLearnersPerMinute = DefaultNewLearnersPerMinute
	}
	if cfg.MinFreeBytes <= 0 {
		cfg.MinFreeBytes = DefaultMinFreeBytes
	}
	if cfg.Done == nil {
		cfg.Done = context.Background().Done()
	}
	metrics, err := newHTTPMetrics(cfg.Registry)
	if err != nil {
		return nil, err
	}
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.HandleMethodNotAllowed = true
	r.ContextWithFallback = true
	// A path with a stray slash gets the 404 problem, not a redirect.
	r.RedirectTrailingSlash = false
	r.RedirectFixedPath = false
	r.Use(withRequestLog(cfg.Logger), metrics.observe(), withSecurityHeaders(), recoverProblem(),
		limitBodies(cfg.BodyTimeout), refuseCrossOrigin(), refuseWhenDiskLow(cfg.DataDir, cfg.MinFreeBytes), withSession(cfg.SessionKey))
	r.NoRoute(serveAppOr(cfg.App, noRoute))
	r.NoMethod(noMethod)
	addRoutes(r, cfg)
	return r, nil
}
