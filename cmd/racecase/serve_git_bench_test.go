package main

import (
	"bufio"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/gitserve/gittest"
	"github.com/racecase/racecase/runner/runnertest"
)

// BenchmarkSubmitByGitPush measures a submission of the reference fix made
// with `git push origin HEAD:submit`, from the push until git prints the
// verdict line, against the same submission through the API (start the run,
// follow its event stream to the verdict), alternating the two against the
// same server, each first every other time, so that both see the same
// machine. It reports the medians and their ratio: what git costs over the
// API.
func BenchmarkSubmitByGitPush(b *testing.B) {
	runnertest.Engine(b)
	srv := startServe(b, "--workers", "1")
	c, ws, g, dir := clonedWorkspace(b, srv)
	for path, content := range solutionChanges(b) {
		c.save(ws.ID, path, content)
	}
	g.Must(dir, "pull", "-q")

	var byAPI, byGit []time.Duration
	viaAPI := func() {
		start := time.Now()
		if r := c.verdictOf(c.startRun(ws.ID, "submit").ID); r.Verdict != "pass" {
			b.Fatalf("submission through the API: %+v", r)
		}
		byAPI = append(byAPI, time.Since(start))
	}
	viaGit := func() {
		start := time.Now()
		byGit = append(byGit, pushToVerdict(b, g, dir).Sub(start))
	}
	b.ResetTimer()
	for i := range b.N {
		// Each goes first every other time, so that neither gains from its turn.
		if i%2 == 0 {
			viaAPI()
			viaGit()
		} else {
			viaGit()
			viaAPI()
		}
	}
	b.StopTimer()
	api, git := medianOf(byAPI), medianOf(byGit)
	b.ReportMetric(float64(api.Milliseconds()), "api-ms")
	b.ReportMetric(float64(git.Milliseconds()), "git-push-ms")
	b.ReportMetric(float64(git)/float64(api), "git/api")
}

// pushToVerdict pushes HEAD to submit and returns when git printed the
// verdict line, which must be a pass.
func pushToVerdict(b *testing.B, g *gittest.CLI, dir string) time.Time {
	b.Helper()
	cmd := exec.Command("git", "push", "origin", "HEAD:submit")
	cmd.Dir, cmd.Env = dir, g.Env()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var at time.Time
	var out strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		line := sc.Text()
		if at.IsZero() && strings.HasPrefix(line, "remote: verdict: ") {
			at = time.Now()
		}
		out.WriteString(line + "\n")
	}
	if err := cmd.Wait(); err != nil || at.IsZero() || !strings.Contains(out.String(), "remote: verdict: pass") {
		b.Fatalf("git push to submit: %v\n%s", err, out.String())
	}
	return at
}

// medianOf returns the median of ds.
func medianOf(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}
