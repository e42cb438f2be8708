package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// Event stream timing.
const (
	// keepAliveEvery is how often an idle stream sends a comment, so that
	// proxies keep it open.
	keepAliveEvery = 15 * time.Second
	// recheckEvery is how often a stream re-reads its run without a signal.
	recheckEvery = time.Second
)

// handleRunEvents streams a run's progress as Server-Sent Events: a
// "status" event for each change (queued, running, done), then one
// "verdict" event with the whole run, and the stream ends. A client that
// reconnects with Last-Event-ID gets only the changes after that event. A
// HEAD request gets the headers only.
func handleRunEvents(svc *workspace.Service, done <-chan struct{}) gin.HandlerFunc {
	return func(c *gin.Context) {
		learner, id := learnerOf(c), c.Param("id")
		changes, stop := svc.WatchRun(id)
		defer stop()
		after, _ := strconv.ParseInt(c.GetHeader("Last-Event-ID"), 10, 64)
		events, run, err := svc.RunEvents(c, learner, id, after)
		if err != nil {
			writeError(c, err)
			return
		}
		stream := startEventStream(c, done, changes, recheckEvery)
		defer stream.close()
		if isHead(c.Request) {
			return
		}
		for {
			for _, e := range events {
				writeEvent(stream.w, strconv.FormatInt(e.ID, 10), "status", e)
				after = e.ID
			}
			if run.Status == workspace.StatusDone {
				writeEvent(stream.w, "", "verdict", run)
				stream.w.Flush()
				return
			}
			if !stream.wait() {
				return
			}
			if events, run, err = svc.RunEvents(c, learner, id, after); err != nil {
				logger(c).Error("event stream ended", "run", id, "error", err.Error())
				return
			}
		}
	}
}

// eventStream is an open Server-Sent Events response that waits for what
// it reports to change.
type eventStream struct {
	c         *gin.Context
	w         gin.ResponseWriter
	done      <-chan struct{} // closed at shutdown
	changes   <-chan struct{} // signalled when what the stream reports may have changed
	keepAlive *time.Ticker
	recheck   *time.Ticker
}

// startEventStream answers 200 with the headers of a Server-Sent Events
// stream that re-reads on every signal of changes and every recheck
// interval. Close it when the handler returns.
func startEventStream(c *gin.Context, done, changes <-chan struct{}, recheck time.Duration) *eventStream {
	h := c.Writer.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c.Writer.WriteHeader(http.StatusOK)
	return &eventStream{c: c, w: c.Writer, done: done, changes: changes,
		keepAlive: time.NewTicker(keepAliveEvery), recheck: time.NewTicker(recheck)}
}

// wait sends what was written, then waits until something may have changed,
// keeping an idle stream alive with comments. It returns false when the
// stream must end: the client left or the server is shutting down.
func (s *eventStream) wait() bool {
	s.w.Flush()
	select {
	case <-s.c.Request.Context().Done():
		return false
	case <-s.done:
		return false
	case <-s.keepAlive.C:
		fmt.Fprint(s.w, ": keep-alive\n\n")
	case <-s.changes:
	case <-s.recheck.C:
	}
	return true
}

// close stops the stream's tickers.
func (s *eventStream) close() {
	s.keepAlive.Stop()
	s.recheck.Stop()
}

// writeEvent writes one Server-Sent Event whose data is v as JSON.
func writeEvent(w gin.ResponseWriter, id, name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	writeEventData(w, id, name, data)
}

// writeEventData writes one Server-Sent Event with data, one line of JSON.
func writeEventData(w gin.ResponseWriter, id, name string, data []byte) {
	if id != "" {
		fmt.Fprintf(w, "id: %s\n", id)
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
}
