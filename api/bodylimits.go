package api

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// DefaultBodyTimeout is how long a request may take to send its body, and a
// response (other than an event stream) to be read, when Config leaves it
// unset.
const DefaultBodyTimeout = 20 * time.Second

// streamRoutes are the routes whose responses last (Server-Sent Events of
// a run and of a workspace): they get no deadlines.
var streamRoutes = map[string]bool{"/api/runs/:id/events": true, "/api/workspaces/:id/events": true}

// codeRequestTimeout is the code of a request whose body did not arrive in time.
const codeRequestTimeout = "request_timeout"

// limitBodies refuses every request whose declared body is longer than
// maxBodyBytes before reading it (decodeJSON, which reads bodies, caps what
// it reads too), and gives every exchange but the event streams a deadline
// to read the body, from the request's arrival until the body has been read
// (bodyReadDeadline), and one to write the response, from its start
// (deadlineOnWrite), so that a client sending or reading slowly cannot hold
// a connection for long.
func limitBodies(timeout time.Duration) gin.HandlerFunc {
	return func(c *gin.Context) {
		if c.Request.ContentLength > maxBodyBytes {
			c.Header("Connection", "close")
			writeError(c, errTooLarge())
			return
		}
		// Every request sets both deadlines, the stream clearing them: a
		// connection kept alive carries the last ones over to its next request.
		rc := http.NewResponseController(c.Writer)
		_ = rc.SetWriteDeadline(time.Time{}) // not supported only by test recorders
		if streamRoutes[c.FullPath()] {
			c.Next()
			return
		}
		// A read deadline left in force while the handler works would end
		// the server's watch for the client leaving with a time-out, which
		// cancels the request's context (and the connection's, so the next
		// request on it too): it lasts only until the body is read.
		if c.Request.Body != nil && c.Request.Body != http.NoBody {
			_ = rc.SetReadDeadline(time.Now().Add(timeout))
			c.Request.Body = &bodyReadDeadline{ReadCloser: c.Request.Body, rc: rc}
		}
		w := &deadlineOnWrite{ResponseWriter: c.Writer, rc: rc, timeout: timeout}
		c.Writer = w
		c.Next()
		// A response with no body goes out after the handlers.
		w.start()
	}
}

// errTooLarge is the answer to a body longer than maxBodyBytes.
func errTooLarge() error {
	return &workspace.Error{Code: workspace.ETOOLARGE,
		Message: fmt.Sprintf("The request body is larger than %d bytes.", maxBodyBytes),
		Data:    map[string]any{"limit_bytes": maxBodyBytes}}
}

// writeBodyError answers a body that could not be read: too large, too
// slow (408, and the connection is closed), or cut short.
func writeBodyError(c *gin.Context, err error) {
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(c, errTooLarge())
	case errors.Is(err, os.ErrDeadlineExceeded):
		// The write deadline fell with the read one; the problem still goes out.
		_ = http.NewResponseController(c.Writer).SetWriteDeadline(time.Now().Add(refuseWriteTimeout))
		c.Header("Connection", "close")
		writeProblem(c, newProblem(c, http.StatusRequestTimeout, codeRequestTimeout,
			"The request body did not arrive in time; send it again, whole."))
	default:
		writeError(c, workspace.Errorf(workspace.EINVALID, "The request body could not be read."))
	}
}
