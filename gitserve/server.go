// Package gitserve serves each workspace as a git repository over git's
// smart HTTP protocol (version 0, stateless), so that a learner can clone it,
// work in their own editor and push. A push is checked and applied by the
// workspace service like a save; a push to main then runs the visible
// checks and a push to the submit branch (or with `-o submit`) submits to
// the hidden tests, and the push waits for the verdict and prints it as
// "remote:" lines.
//
// Requests authenticate with the workspace's git token as the password of
// HTTP basic authentication. Errors are plain text, which git shows to the
// learner; refusals inside a push go in the push's own report.
package gitserve

import (
	"compress/gzip"
	"io"
	"log/slog"
	"net/http"
	"strings"

	"github.com/racecase/racecase/workspace"
)

// Config is what the git server needs.
type Config struct {
	// Service holds the workspaces and runs their checks.
	Service *workspace.Service
	// Logger receives errors the client is not shown; nil means slog.Default().
	Logger *slog.Logger
	// Done, when closed, ends pushes still waiting for a verdict (shutdown).
	Done <-chan struct{}
}

// Server answers the three requests of the smart HTTP protocol.
type Server struct {
	svc  *workspace.Service
	log  *slog.Logger
	done <-chan struct{}
}

// New returns a git server.
func New(cfg Config) *Server {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Done == nil {
		cfg.Done = make(chan struct{})
	}
	return &Server{svc: cfg.Service, log: cfg.Logger, done: cfg.Done}
}

// realm names the credentials git asks for when it has none.
const realm = `Basic realm="racecase workspace (your git token is the password)"`

// open authenticates a request for the repository named name ("w_….git")
// and opens it. When it cannot, it answers the request and returns nil.
func (s *Server) open(w http.ResponseWriter, r *http.Request, name string) *workspace.Repo {
	_, token, ok := r.BasicAuth()
	if !ok || token == "" {
		w.Header().Set("WWW-Authenticate", realm)
		fail(w, http.StatusUnauthorized, "Authenticate with your workspace's git token: copy the clone command from the workspace (Clone with git).")
		return nil
	}
	repo, err := s.svc.OpenRepo(r.Context(), strings.TrimSuffix(name, ".git"), token)
	if err != nil {
		s.refuse(w, err)
		return nil
	}
	return repo
}

// refuse answers a request the service refused, as plain text.
func (s *Server) refuse(w http.ResponseWriter, err error) {
	switch workspace.ErrorCode(err) {
	case workspace.ENOTFOUND:
		w.Header().Set("WWW-Authenticate", realm)
		fail(w, http.StatusUnauthorized, workspace.ErrorMessage(err))
	case workspace.EUNAVAILABLE:
		fail(w, http.StatusServiceUnavailable, workspace.ErrorMessage(err))
	default:
		s.log.Error("git request failed", "error", err.Error())
		fail(w, http.StatusInternalServerError, workspace.ErrorMessage(err))
	}
}

// fail answers with a status and a message in plain text, which git prints
// as "remote:" lines.
func fail(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, message+"\n")
}

// openPost opens the repository of a POST request and returns its body,
// inflated when git gzipped it. When it cannot, it answers the request and
// returns a nil repository.
func (s *Server) openPost(w http.ResponseWriter, r *http.Request, name string) (*workspace.Repo, io.Reader) {
	repo := s.open(w, r, name)
	if repo == nil {
		return nil, nil
	}
	switch r.Header.Get("Content-Encoding") {
	case "", "identity":
		return repo, r.Body
	case "gzip", "x-gzip":
		if body, err := gzip.NewReader(r.Body); err == nil {
			return repo, body
		}
	}
	fail(w, http.StatusUnsupportedMediaType, "racecase cannot read this request's encoding; send it plain or gzipped.")
	return nil, nil
}
