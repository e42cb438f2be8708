package api

import (
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
)

// deadlineOnWrite starts a response's write deadline when the response
// starts, not when the request arrived: the time a handler takes is the
// server's, and a busy server must not lose an answer it took long to make.
// A handler that sets its own write deadline (git's progress, a refused body)
// keeps it.
type deadlineOnWrite struct {
	gin.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	once    sync.Once
}

// start sets the deadline the first time the response is about to go out.
func (w *deadlineOnWrite) start() {
	w.once.Do(func() { _ = w.rc.SetWriteDeadline(time.Now().Add(w.timeout)) })
}

// SetWriteDeadline lets a handler set its own deadline, which start then leaves alone.
func (w *deadlineOnWrite) SetWriteDeadline(deadline time.Time) error {
	w.once.Do(func() {})
	return w.rc.SetWriteDeadline(deadline)
}

// WriteHeaderNow sends the header, within the deadline.
func (w *deadlineOnWrite) WriteHeaderNow() {
	w.start()
	w.ResponseWriter.WriteHeaderNow()
}

// Write sends body bytes, within the deadline.
func (w *deadlineOnWrite) Write(data []byte) (int, error) {
	w.start()
	return w.ResponseWriter.Write(data)
}

// WriteString sends body text, within the deadline.
func (w *deadlineOnWrite) WriteString(s string) (int, error) {
	w.start()
	return w.ResponseWriter.WriteString(s)
}

// Flush sends what is buffered, within the deadline.
func (w *deadlineOnWrite) Flush() {
	w.start()
	w.ResponseWriter.Flush()
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *deadlineOnWrite) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// bodyReadDeadline clears the read deadline once the request body has been
// read to its end: from then on the server only watches for the client
// leaving, which a deadline must not cut short (limitBodies).
type bodyReadDeadline struct {
	io.ReadCloser
	rc   *http.ResponseController
	once sync.Once
}

// Read reads the body, and clears the deadline at its end.
func (b *bodyReadDeadline) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(func() { _ = b.rc.SetReadDeadline(time.Time{}) })
	}
	return n, err
}
