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
		w := c.Writer
		h := w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Accel-Buffering", "no")
		w.WriteHeader(http.StatusOK)
		if isHead(c.Request) {
			return
		}
		keepAlive := time.NewTicker(keepAliveEvery)
		defer keepAlive.Stop()
		recheck := time.NewTicker(recheckEvery)
		defer recheck.Stop()
		for {
			for _, e := range events {
				writeEvent(w, strconv.FormatInt(e.ID, 10), "status", e)
				after = e.ID
			}
			if run.Status == workspace.StatusDone {
				writeEvent(w, "", "verdict", run)
				w.Flush()
				return
			}
			w.Flush()
			select {
			case <-c.Request.Context().Done():
				return
			case <-done:
				return
			case <-keepAlive.C:
				fmt.Fprint(w, ": keep-alive\n\n")
			case <-changes:
			case <-recheck.C:
			}
			if events, run, err = svc.RunEvents(c, learner, id, after); err != nil {
				logger(c).Error("event stream ended", "run", id, "error", err.Error())
				return
			}
		}
	}
}

// writeEvent writes one Server-Sent Event whose data is v as JSON.
func writeEvent(w gin.ResponseWriter, id, name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	if id != "" {
		fmt.Fprintf(w, "id: %s\n", id)
	}
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
}
