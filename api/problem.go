package api

import (
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// problemContentType is the media type of an RFC 9457 problem document.
const problemContentType = "application/problem+json"

// statusOf maps each application error code to its HTTP status. It is the
// only place where codes become statuses.
var statusOf = map[string]int{
	workspace.EINVALID:     http.StatusBadRequest,
	workspace.EFORBIDDEN:   http.StatusForbidden,
	workspace.ENOTFOUND:    http.StatusNotFound,
	workspace.ECONFLICT:    http.StatusConflict,
	workspace.ETOOLARGE:    http.StatusRequestEntityTooLarge,
	workspace.ETOOMANY:     http.StatusTooManyRequests,
	workspace.EQUOTA:       http.StatusForbidden,
	workspace.EFULL:        http.StatusInsufficientStorage,
	workspace.EUNAVAILABLE: http.StatusServiceUnavailable,
	workspace.EINTERNAL:    http.StatusInternalServerError,
}

// Codes of problems the HTTP layer raises itself, before any application code.
const (
	codeNoRoute          = "no_route"
	codeMethodNotAllowed = "method_not_allowed"
	codeMediaType        = "unsupported_media_type"
)

// problem is an RFC 9457 problem document. Extra members are flattened into
// the top-level object.
type problem struct {
	Type      string
	Title     string
	Status    int
	Detail    string
	Instance  string
	Code      string
	RequestID string
	Extra     map[string]any
}

// MarshalJSON writes the standard members, then the extensions.
func (p problem) MarshalJSON() ([]byte, error) {
	m := map[string]any{}
	for k, v := range p.Extra {
		m[k] = v
	}
	m["type"] = "urn:racecase:problem:" + p.Code
	m["title"] = p.Title
	m["status"] = p.Status
	m["detail"] = p.Detail
	m["instance"] = p.Instance
	m["code"] = p.Code
	if p.RequestID != "" {
		m["request_id"] = p.RequestID
	}
	return json.Marshal(m)
}

// newProblem builds the problem for status and code with a detail for the
// client.
func newProblem(c *gin.Context, status int, code, detail string) problem {
	return problem{
		Title:     http.StatusText(status),
		Status:    status,
		Detail:    detail,
		Instance:  c.Request.URL.Path,
		Code:      code,
		RequestID: c.GetString(keyRequestID),
	}
}

// writeProblem sends p and aborts the handler chain.
func writeProblem(c *gin.Context, p problem) {
	body, err := json.Marshal(p)
	if err != nil {
		body = []byte(`{"type":"urn:racecase:problem:internal","title":"Internal Server Error","status":500,"code":"internal"}`)
		p.Status = http.StatusInternalServerError
	}
	c.Abort()
	c.Data(p.Status, problemContentType, body)
}

// writeError sends err as a problem: an application error with its code's
// status and its learner-safe message, anything else as a 500 whose details
// go only to the log.
func writeError(c *gin.Context, err error) {
	code := workspace.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		code, status = workspace.EINTERNAL, http.StatusInternalServerError
	}
	p := newProblem(c, status, code, workspace.ErrorMessage(err))
	var e *workspace.Error
	if errors.As(err, &e) {
		p.Extra = e.Data
		if e.RetryAfter > 0 {
			c.Header("Retry-After", strconv.Itoa(int(math.Ceil(e.RetryAfter.Seconds()))))
		}
	}
	if status >= http.StatusInternalServerError {
		logger(c).Error("request failed", "error", err.Error(), "status", status)
	}
	writeProblem(c, p)
}

// logger returns the request's logger.
func logger(c *gin.Context) *slog.Logger {
	if l, ok := c.Get(keyLogger); ok {
		return l.(*slog.Logger)
	}
	return slog.Default()
}
