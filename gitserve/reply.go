package gitserve

import (
	"bytes"
	"net/http"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/sideband"
)

// progressWindow is how long the answer to a push may take to carry its
// next progress line (or its report) after the last one: the next one is
// due within stillEvery, and the rest is for a slow network.
const progressWindow = stillEvery + 20*time.Second

// reply is the answer to a push as it is written: progress lines the client
// prints as "remote: …" as they come, then the report of each reference.
type reply struct {
	w      http.ResponseWriter
	mux    *sideband.Muxer // nil when the client asked for no side band
	report bool            // the client asked for report-status
}

// newReply starts the answer to a push whose request asked for caps.
func newReply(w http.ResponseWriter, caps *capability.List) *reply {
	w.Header().Set("Content-Type", "application/x-git-receive-pack-result")
	w.Header().Set("Cache-Control", "no-cache")
	r := &reply{w: w, report: caps.Supports(capability.ReportStatus)}
	switch {
	case caps.Supports(capability.Sideband64k):
		r.mux = sideband.NewMuxer(sideband.Sideband64k, w)
	case caps.Supports(capability.Sideband):
		r.mux = sideband.NewMuxer(sideband.Sideband, w)
	}
	return r
}

// say sends text as progress lines, at once. Without a side band the
// client cannot show them, and they are dropped. Either way the answer's
// write deadline moves on: a push may wait for its verdict longer than
// any one write may take, and a client that stops reading is still cut
// off within progressWindow.
func (r *reply) say(text string) {
	_ = http.NewResponseController(r.w).SetWriteDeadline(time.Now().Add(progressWindow))
	if r.mux == nil {
		return
	}
	text = strings.TrimRight(text, "\n") + "\n"
	if _, err := r.mux.WriteChannel(sideband.ProgressMessage, []byte(text)); err != nil {
		return
	}
	http.NewResponseController(r.w).Flush()
}

// finish sends the report: how unpacking went ("ok" or why not) and, for
// each reference, "" for updated or the reason it was not.
func (r *reply) finish(unpack string, refs []refStatus) {
	if r.report {
		rs := packp.NewReportStatus()
		rs.UnpackStatus = unpack
		for _, ref := range refs {
			status := ref.reason
			if status == "" {
				status = "ok"
			}
			rs.CommandStatuses = append(rs.CommandStatuses, &packp.CommandStatus{ReferenceName: ref.name, Status: status})
		}
		var buf bytes.Buffer
		_ = rs.Encode(&buf)
		if r.mux == nil {
			_, _ = r.w.Write(buf.Bytes())
		} else {
			_, _ = r.mux.WriteChannel(sideband.PackData, buf.Bytes())
		}
	}
	if r.mux != nil {
		_ = pktline.NewEncoder(r.w).Flush()
	}
	http.NewResponseController(r.w).Flush()
}
