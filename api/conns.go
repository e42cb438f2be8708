package api

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/racecase/racecase/workspace"
)

// refuseWriteTimeout bounds writing the refusal to a connection over the cap.
const refuseWriteTimeout = time.Second

// LimitConnsPerClient returns a listener that lets each client (clientKey
// of the remote address) hold at most max connections at once. A
// connection past the cap gets a 429 problem document and is closed at
// once, so that slow clients from one address cannot take every file
// descriptor of the server.
func LimitConnsPerClient(ln net.Listener, max int) net.Listener {
	return &clientLimitedListener{Listener: ln, max: max, open: map[string]int{}}
}

// clientLimitedListener counts the open connections of each client.
type clientLimitedListener struct {
	net.Listener
	max  int
	mu   sync.Mutex
	open map[string]int
}

// Accept returns the next connection whose client is under the cap.
func (l *clientLimitedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		key := clientKey(c.RemoteAddr().String())
		l.mu.Lock()
		full := l.open[key] >= l.max
		if !full {
			l.open[key]++
		}
		l.mu.Unlock()
		if full {
			go refuseConn(c, l.max)
			continue
		}
		return &countedConn{Conn: c, release: func() { l.release(key) }}, nil
	}
}

// release forgets one closed connection of a client.
func (l *clientLimitedListener) release(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open[key]--; l.open[key] <= 0 {
		delete(l.open, key)
	}
}

// countedConn releases its place under the cap when it is closed.
type countedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

// Close closes the connection and releases its place once.
func (c *countedConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}

// refuseConn answers a connection over the cap with a 429 problem and
// closes it.
func refuseConn(c net.Conn, max int) {
	defer c.Close()
	body, _ := json.Marshal(problem{
		Title:  http.StatusText(http.StatusTooManyRequests),
		Status: http.StatusTooManyRequests,
		Code:   workspace.ETOOMANY,
		Detail: fmt.Sprintf("This address already holds %d connections to racecase, the most one client may; close some and try again.", max),
	})
	_ = c.SetWriteDeadline(time.Now().Add(refuseWriteTimeout))
	fmt.Fprintf(c, "HTTP/1.1 429 Too Many Requests\r\nContent-Type: %s\r\nContent-Length: %d\r\nRetry-After: 1\r\nConnection: close\r\n\r\n%s",
		problemContentType, len(body), body)
}
