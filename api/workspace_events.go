package api

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// snapshotRecheckEvery is how often a workspace stream re-reads its
// snapshot without a signal.
const snapshotRecheckEvery = 5 * time.Second

// handleWorkspaceEvents streams a workspace's snapshot (file versions and
// latest runs) as Server-Sent Events: a "snapshot" event at once, then one
// each time it changes (a save, a reset, a git push, a run), until the
// client leaves. The page follows it to show edits and runs from elsewhere.
func handleWorkspaceEvents(svc *workspace.Service, done <-chan struct{}) gin.HandlerFunc {
	return func(c *gin.Context) {
		learner, id := learnerOf(c), c.Param("id")
		changes, stop := svc.WatchWorkspace(id)
		defer stop()
		snap, err := svc.Snapshot(c, learner, id)
		if err != nil {
			writeError(c, err)
			return
		}
		stream := startEventStream(c, done, changes, snapshotRecheckEvery)
		defer stream.close()
		if isHead(c.Request) {
			return
		}
		var sent []byte
		for {
			if data, err := json.Marshal(snap); err == nil && !bytes.Equal(data, sent) {
				writeEventData(stream.w, "", "snapshot", data)
				sent = data
			}
			if !stream.wait() {
				return
			}
			if snap, err = svc.Snapshot(c, learner, id); err != nil {
				logger(c).Error("workspace stream ended", "workspace", id, "error", err.Error())
				return
			}
		}
	}
}
