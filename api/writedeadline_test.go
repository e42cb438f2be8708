package api

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
)

// serveWithBodyLimits serves one GET route behind limitBodies on a real port.
func serveWithBodyLimits(t *testing.T, timeout time.Duration, route string, handler gin.HandlerFunc) string {
	t.Helper()
	gin.SetMode(gin.ReleaseMode)
	r := gin.New()
	r.Use(limitBodies(timeout))
	r.GET(route, handler)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: r}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

func TestAnAnswerSlowerThanTheBodyTimeoutStillArrives(t *testing.T) {
	const timeout = 100 * time.Millisecond
	base := serveWithBodyLimits(t, timeout, "/x", func(c *gin.Context) {
		time.Sleep(5 * timeout) // a busy server, not a slow client
		c.String(http.StatusOK, "worth the wait")
	})
	for range 2 { // the second request reuses the connection and its deadlines
		res, err := http.Get(base + "/x")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK || string(body) != "worth the wait" {
			t.Fatalf("got %d %q, %v", res.StatusCode, body, err)
		}
	}
}

func TestAClientThatDoesNotReadIsLetGoAfterTheBodyTimeout(t *testing.T) {
	writeErr := make(chan error, 1)
	base := serveWithBodyLimits(t, 200*time.Millisecond, "/x", func(c *gin.Context) {
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range 256 { // far more than the socket buffers hold
			if _, err := c.Writer.Write(chunk); err != nil {
				writeErr <- err
				return
			}
		}
		writeErr <- nil
	})
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /x HTTP/1.1\r\nHost: racecase\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-writeErr:
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("the handler's writes to a client that reads nothing ended with %v, want the write deadline", err)
		}
	case <-time.After(time.Minute): // a guard against hanging, far past the deadline
		t.Fatal("the server still writes to a client that reads nothing")
	}
}

func TestAHandlerSlowerThanTheBodyTimeoutKeepsItsContextAndItsConnection(t *testing.T) {
	const timeout = 100 * time.Millisecond
	base := serveWithBodyLimits(t, timeout, "/x", func(c *gin.Context) {
		if c.Query("slow") != "" {
			time.Sleep(5 * timeout) // a busy server, not a slow client
		}
		if err := c.Request.Context().Err(); err != nil {
			c.String(http.StatusInternalServerError, err.Error())
			return
		}
		c.String(http.StatusOK, "live")
	})
	// The second request reuses the connection of the first.
	for _, path := range []string{"/x?slow=1", "/x"} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %q, %v: a request that took longer than the body timeout to answer must not cancel its own context or the next one's", path, res.StatusCode, body, err)
		}
	}
}

func TestAWorkspaceStreamOutlastsTheBodyTimeout(t *testing.T) {
	const timeout = 100 * time.Millisecond
	base := serveWithBodyLimits(t, timeout, "/api/workspaces/:id/events", func(c *gin.Context) {
		for i := range 5 {
			fmt.Fprintf(c.Writer, "data: %d\n\n", i)
			c.Writer.Flush()
			time.Sleep(timeout)
		}
	})
	res, err := http.Get(base + "/api/workspaces/w1/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || !strings.Contains(string(body), "data: 4") {
		t.Fatalf("the stream ended after %q, %v: it must outlast the body timeout", body, err)
	}
}
