package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/api/apitest"
)

// rawConn is a TCP connection to the server written to by hand, to send
// what no well-behaved client sends.
type rawConn struct {
	t *testing.T
	net.Conn
}

// dial opens a raw connection to the server at base.
func dial(t *testing.T, base string) *rawConn {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &rawConn{t: t, Conn: c}
}

// response reads one response to req, waiting at most a minute for it,
// and checks it against openapi.json (req nil: a refusal before any request).
func (c *rawConn) response(req *http.Request) (*http.Response, map[string]any) {
	c.t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(c), req)
	if err != nil {
		c.t.Fatalf("no response: %v", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if req != nil {
		apitest.Check(c.t, req, resp, body)
	}
	var p map[string]any
	_ = json.Unmarshal(body, &p)
	return resp, p
}

// request parses the head of a request written by hand.
func request(t *testing.T, head string) *http.Request {
	t.Helper()
	req, err := http.ReadRequest(bufio.NewReader(strings.NewReader(head)))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// cookieOf returns the Cookie header of a client's session.
func cookieOf(c *client) string {
	u, _ := url.Parse(c.base)
	var parts []string
	for _, k := range c.http.Jar.Cookies(u) {
		parts = append(parts, k.Name+"="+k.Value)
	}
	return strings.Join(parts, "; ")
}

func TestSlowAndAbortedBodiesLoseNothingAndHoldNothing(t *testing.T) {
	srv := startWithoutEngine(t, "--body-timeout", "1s")
	c := newClient(t, srv.URL)
	ws := c.createWorkspace()
	const lock = "src/locks/job-lock.js"
	saved := c.save(ws.ID, lock, "// kept\n")
	put := func(length int) string {
		return fmt.Sprintf("PUT /api/workspaces/%s/files/%s HTTP/1.1\r\nHost: racecase\r\nCookie: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n",
			ws.ID, lock, cookieOf(c), length)
	}
	body := fmt.Sprintf(`{"content":"// lost?\n","base_version":%d}`, saved.Version)

	// A body sent a byte at a time never ends in time: 408, and the connection is closed.
	slow := dial(t, srv.URL)
	fmt.Fprint(slow, put(len(body)))
	go func() {
		for i := range len(body) - 1 {
			if _, err := slow.Write([]byte{body[i]}); err != nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	resp, p := slow.response(request(t, put(len(body))))
	if resp.StatusCode != http.StatusRequestTimeout || p["code"] != "request_timeout" || !resp.Close {
		t.Fatalf("slow body: %d %v, close %v", resp.StatusCode, p, resp.Close)
	}

	// A body cut short by the client changes nothing.
	aborted := dial(t, srv.URL)
	fmt.Fprint(aborted, put(len(body))+body[:len(body)/2])
	aborted.Close()

	// A declared length past the cap is refused before a byte of it is read.
	huge := dial(t, srv.URL)
	fmt.Fprint(huge, put(64<<20))
	if resp, p := huge.response(request(t, put(64<<20))); resp.StatusCode != http.StatusRequestEntityTooLarge || p["code"] != "too_large" {
		t.Fatalf("huge body: %d %v", resp.StatusCode, p)
	}

	got := decode[fileJSON](t, c.do("GET", "/api/workspaces/"+ws.ID+"/files/"+lock, nil).want(t, http.StatusOK))
	if got.Content != "// kept\n" || got.Version != saved.Version {
		t.Fatalf("after slow and aborted saves the file is %+v", got)
	}
}

func TestConnectionsPerClientAreCapped(t *testing.T) {
	srv := startWithoutEngine(t, "--max-conns-per-client", "3")
	held := []*rawConn{dial(t, srv.URL), dial(t, srv.URL), dial(t, srv.URL)}
	resp, p := dial(t, srv.URL).response(nil)
	if resp.StatusCode != http.StatusTooManyRequests || p["code"] != "too_many" || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Fatalf("a fourth connection: %d %v", resp.StatusCode, p)
	}
	held[0].Close()
	// Once the server has seen the close, the address has room again.
	deadline := time.Now().Add(time.Minute)
	for {
		c := dial(t, srv.URL)
		const healthz = "GET /healthz HTTP/1.1\r\nHost: racecase\r\n\r\n"
		fmt.Fprint(c, healthz)
		resp, _ := c.response(request(t, healthz))
		c.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no room after a connection closed: %d", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
