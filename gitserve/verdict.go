package gitserve

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/workspace"
)

// stillEvery is how often a push waiting for its verdict says it still is.
const stillEvery = 10 * time.Second

// recheckEvery is how often the wait re-reads its run without a signal.
const recheckEvery = time.Second

// maxVerdictWait is how long a push waits for its run's verdict (a long
// queue, or no runner left on a shared database) before it lets the
// pusher go; the run goes on either way.
const maxVerdictWait = 10 * time.Minute

// runToVerdict starts the run a push asked for and reports its progress to
// the pusher until its verdict, which it prints test by test. The run is the
// workspace's like any other: the browser shows it as it goes.
func (s *Server) runToVerdict(ctx context.Context, out *reply, repo *workspace.Repo, kind string) {
	what := "the checks (the repository's own test)"
	if kind == workspace.KindSubmit {
		what = "your submission to the hidden concurrency tests"
	}
	// The workspace is signalled whenever its runs change; watching it from
	// before the run starts misses no change.
	changes, stop := s.svc.WatchWorkspace(repo.WorkspaceID)
	defer stop()
	run, err := s.svc.StartRun(ctx, repo.Learner, repo.WorkspaceID, kind)
	if err != nil {
		out.say("racecase: your push is saved, but " + what + " did not start: " + workspace.ErrorMessage(err))
		return
	}
	out.say(fmt.Sprintf("racecase: running %s as %s; the verdict follows here and in the browser.", what, run.ID))
	recheck := time.NewTicker(recheckEvery)
	defer recheck.Stop()
	giveUp := time.NewTimer(maxVerdictWait)
	defer giveUp.Stop()
	status, since := "", time.Now()
	for {
		switch {
		case run.Status == workspace.StatusDone:
			out.say(verdictText(run))
			return
		case run.Status != status:
			status, since = run.Status, time.Now()
			out.say(statusLine(status))
		case time.Since(since) >= stillEvery:
			since = time.Now()
			out.say(fmt.Sprintf("racecase: still %s…", status))
		}
		select {
		case <-ctx.Done():
			return
		case <-s.done:
			out.say("racecase: the server is shutting down; the run goes on, and its verdict will show in the browser.")
			return
		case <-giveUp.C:
			out.say(fmt.Sprintf("racecase: still %s after %.0f minutes; the run goes on, and its verdict will show in the browser.", run.Status, maxVerdictWait.Minutes()))
			return
		case <-changes:
		case <-recheck.C:
		}
		if run, err = s.svc.Run(ctx, repo.Learner, run.ID); err != nil {
			s.log.Error("lost track of a pushed run", "repo", repo.WorkspaceID, "error", err.Error())
			out.say("racecase: lost track of the run; its verdict will show in the browser.")
			return
		}
	}
}

// statusLine says what a run's status means.
func statusLine(status string) string {
	if status == workspace.StatusQueued {
		return "racecase: queued, waiting for a runner…"
	}
	return "racecase: running in a locked-down container…"
}

// verdictText is a finished run as the pusher reads it: a summary line,
// then each test, and for a failed concurrency test its interleaving.
func verdictText(run workspace.Run) string {
	passed := 0
	for _, t := range run.Tests {
		if t.Status == runner.StatusPass {
			passed++
		}
	}
	label := "Checks"
	if run.Kind == workspace.KindSubmit {
		label = "Submission"
	}
	outcome := run.Verdict
	switch runner.Verdict(run.Verdict) {
	case runner.VerdictPass:
		outcome = "passed"
	case runner.VerdictFail:
		outcome = "failed"
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "racecase: %s %s: %d of %d tests passed (%s, %.1f s)\n", label, outcome, passed, len(run.Tests), run.ID, float64(run.DurationMS)/1000)
	runner.WriteText(&buf, &runner.Results{Verdict: runner.Verdict(run.Verdict), Message: run.Message, Tests: run.Tests})
	return buf.String()
}
