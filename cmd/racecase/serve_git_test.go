package main

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/gitserve/gittest"
	"github.com/racecase/racecase/runner/runnertest"
)

const (
	fixFile      = "src/locks/job-lock.js"
	readOnlyFile = "package.json"
)

// TestGitCloneAndPullFollowTheBrowser: the clone holds the workspace's
// files in one commit; a browser save arrives with git pull; a push lands
// in the workspace with the next version.
func TestGitCloneAndPullFollowTheBrowser(t *testing.T) {
	srv := startWithoutEngine(t)
	c, ws, g, dir := clonedWorkspace(t, srv)

	for _, f := range ws.Files {
		server := decode[fileJSON](t, c.do("GET", "/api/workspaces/"+ws.ID+"/files/"+f.Path, nil).want(t, http.StatusOK))
		if got := gittest.ReadFile(t, dir, f.Path); got != server.Content {
			t.Fatalf("the clone's %s differs from the workspace's", f.Path)
		}
	}
	if log := g.Must(dir, "log", "--format=%s"); strings.Count(log, "\n") != 1 {
		t.Fatalf("a fresh clone has more than the first commit:\n%s", log)
	}

	c.save(ws.ID, fixFile, "// saved in the browser\n")
	g.Must(dir, "pull", "-q")
	if got := gittest.ReadFile(t, dir, fixFile); got != "// saved in the browser\n" {
		t.Fatalf("after git pull the clone holds %q", got)
	}
	if subject := g.Must(dir, "log", "-1", "--format=%s"); !strings.HasPrefix(subject, "Save "+fixFile+" (version 2)") {
		t.Fatalf("the browser save's commit: %q", subject)
	}

	g.CommitFile(dir, fixFile, "// pushed with git\n", "my fix")
	out := g.Must(dir, "push", "origin", "main")
	wantLines(t, out, "remote: racecase: main is at", fixFile+" (version 3)", "main -> main")
	f := decode[fileJSON](t, c.do("GET", "/api/workspaces/"+ws.ID+"/files/"+fixFile, nil).want(t, http.StatusOK))
	if f.Content != "// pushed with git\n" || f.Version != 3 {
		t.Fatalf("after the push the workspace holds version %d: %q", f.Version, f.Content)
	}

	// With more local commits than git sends in one round of negotiation, a
	// pull merges a browser save and the merge pushes.
	for i := range 20 {
		g.CommitFile(dir, "src/clock.js", fmt.Sprintf("// local commit %d\n", i), "a local commit")
	}
	c.save(ws.ID, "src/config.js", "// from the browser\n")
	g.Must(dir, "pull", "-q", "--no-rebase", "--no-edit")
	if got := gittest.ReadFile(t, dir, "src/config.js"); got != "// from the browser\n" {
		t.Fatalf("the pull did not bring the browser's save: %q", got)
	}
	wantLines(t, g.Must(dir, "push", "origin", "main"), "src/clock.js (version 2)", "main -> main")
}

// TestGitRefusesPushesThatWouldLoseOrBreakSomething: a stale push (plain
// or forced), a push touching a read-only file, a symbolic link and a pack
// of 50 MB are refused with a message that says why, and change nothing.
func TestGitRefusesPushesThatWouldLoseOrBreakSomething(t *testing.T) {
	srv := startWithoutEngine(t)
	c, ws, g, dir := clonedWorkspace(t, srv)
	url := "/api/workspaces/" + ws.ID + "/files/" + fixFile
	unchanged := func(head, content string) {
		t.Helper()
		if got := g.RemoteMain(dir); got != head {
			t.Fatalf("main moved from %s to %s", head, got)
		}
		if got := decode[fileJSON](t, c.do("GET", url, nil).want(t, http.StatusOK)).Content; got != content {
			t.Fatalf("the workspace's %s changed to %.40q", fixFile, got)
		}
	}

	// A save in the browser the clone has not pulled.
	c.save(ws.ID, fixFile, "// the browser's version\n")
	head := g.RemoteMain(dir)
	g.CommitFile(dir, fixFile, "// the clone's version\n", "based on the old main")
	wantLines(t, g.Refused(dir, "push", "origin", "main"), "fetch first")
	wantLines(t, g.Refused(dir, "push", "--force", "origin", "main"),
		"remote: racecase: The push is based on an old commit", "git pull", "[remote rejected] main -> main")
	unchanged(head, "// the browser's version\n")
	g.Must(dir, "fetch", "-q")
	g.Must(dir, "reset", "-q", "--hard", "origin/main")

	g.CommitFile(dir, readOnlyFile, "{\"name\": \"mine\"}\n", "change a read-only file")
	wantLines(t, g.Refused(dir, "push", "origin", "main"),
		"remote: racecase: The push changes "+readOnlyFile+", which is read-only", "(a read-only file changed)")
	unchanged(head, "// the browser's version\n")
	g.Must(dir, "reset", "-q", "--hard", "origin/main")

	if err := os.Symlink("README.md", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	g.Must(dir, "add", "link")
	g.Must(dir, "commit", "-q", "-m", "a symbolic link")
	wantLines(t, g.Refused(dir, "push", "origin", "main"), "remote: racecase: link is a symbolic link")
	unchanged(head, "// the browser's version\n")
	g.Must(dir, "reset", "-q", "--hard", "origin/main")

	big := make([]byte, 50<<20)
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	gittest.WriteFile(t, dir, "big.bin", string(big))
	g.Must(dir, "add", "big.bin")
	g.Must(dir, "commit", "-q", "-m", "50 MB")
	wantLines(t, g.Refused(dir, "push", "origin", "main"),
		"remote: racecase: the push carries a pack of 50.0 MiB; a push may carry at most 8 MiB", "remote unpack failed: pack too large")
	unchanged(head, "// the browser's version\n")
}

// TestGitWithAWrongTokenReadsNothing: no token, a wrong one, another
// workspace's, or a rotated one opens nothing, to git or to plain HTTP.
func TestGitWithAWrongTokenReadsNothing(t *testing.T) {
	srv := startWithoutEngine(t)
	alice, bob := newClient(t, srv.URL), newClient(t, srv.URL)
	ws := alice.createWorkspace()
	access := alice.gitAccess(ws.ID)
	bobs := bob.gitAccess(bob.createWorkspace().ID)
	g := gittest.New(t)
	wrong := strings.Replace(access.CloneURL, access.Token, access.Token[:len(access.Token)-2]+"xx", 1)
	others := strings.Replace(access.CloneURL, access.Token, bobs.Token, 1)
	for u, says := range map[string]string{wrong: "Authentication failed", others: "Authentication failed", access.URL: "terminal prompts disabled"} {
		wantLines(t, g.Refused("", "ls-remote", u), says)
		dir := filepath.Join(t.TempDir(), "clone")
		g.Refused("", "clone", u, dir)
		if _, err := os.Stat(filepath.Join(dir, fixFile)); err == nil {
			t.Fatalf("a clone with %s got files", u)
		}
	}

	// Plain HTTP learns nothing either, not even whether the workspace exists.
	base := access.URL
	body := "0032want " + strings.Repeat("0", 40) + "\n00000009done\n"
	for _, req := range []*http.Request{
		newRequest(t, "GET", base+"/info/refs?service=git-upload-pack", "", "wrong"),
		newRequest(t, "POST", base+"/git-upload-pack", body, "wrong"),
		newRequest(t, "POST", base+"/git-receive-pack", "0000", ""),
		newRequest(t, "GET", srv.URL+"/git/w_NOSUCHWORKSPACE.git/info/refs?service=git-upload-pack", "", access.Token),
	} {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" ||
			bytes.Contains(data, []byte("refs/heads")) || bytes.Contains(data, []byte("PACK")) {
			t.Fatalf("%s %s: %d %q", req.Method, req.URL.Path, resp.StatusCode, data)
		}
	}

	rotated := decode[gitAccessJSON](t, alice.do("POST", "/api/workspaces/"+ws.ID+"/git/token", nil).want(t, http.StatusOK))
	wantLines(t, g.Refused("", "ls-remote", access.CloneURL), "Authentication failed")
	wantLines(t, g.Must("", "ls-remote", rotated.CloneURL), "refs/heads/main")
	problemOf(t, bob.do("GET", "/api/workspaces/"+ws.ID+"/git", nil), http.StatusNotFound, "not_found")
	problemOf(t, bob.do("POST", "/api/workspaces/"+ws.ID+"/git/token", nil), http.StatusNotFound, "not_found")
}

// TestGitMalformedPackIsRefusedAndChangesNothing sends a push whose pack is
// not one: the answer says so and main stays where it was.
func TestGitMalformedPackIsRefusedAndChangesNothing(t *testing.T) {
	srv := startWithoutEngine(t)
	c, ws, g, dir := clonedWorkspace(t, srv)
	access := c.gitAccess(ws.ID)
	head := g.RemoteMain(dir)

	command := fmt.Sprintf("%s %s refs/heads/main\x00report-status side-band-64k\n", head, strings.Repeat("1", 40))
	body := fmt.Sprintf("%04x%s0000PACK\x00\x00\x00\x02\x00\x00\x00\x01not a pack at all", len(command)+4, command)
	resp, err := http.DefaultClient.Do(newRequest(t, "POST", access.URL+"/git-receive-pack", body, access.Token))
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %q", resp.StatusCode, data)
	}
	wantLines(t, string(data), "racecase: The pack is malformed", "Nothing was changed.", "unpack malformed pack", "ng refs/heads/main unpacker error")
	if got := g.RemoteMain(dir); got != head {
		t.Fatalf("main moved to %s", got)
	}
}

// newRequest builds a git protocol request authenticated with token (none
// when empty).
func newRequest(t testing.TB, method, url, body, token string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.SetBasicAuth("git", token)
	}
	return req
}

// TestGitPushRunsTheChecksAndSubmits: pushes run the visible checks (main)
// and the hidden tests (the submit branch, or -o submit); each push waits
// for the verdict and prints it, with the interleaving of a failure, and the
// runs and progress are the workspace's as if the browser had started them.
func TestGitPushRunsTheChecksAndSubmits(t *testing.T) {
	t.Parallel()
	runnertest.Engine(t)
	srv := startServe(t, "--workers", "2")
	c, ws, g, dir := clonedWorkspace(t, srv)

	// The buggy repository, submitted as cloned: the hidden tests fail with
	// the interleaving that breaks them. (Whether the push still sees the run
	// queued depends on how soon a runner takes it.)
	out := g.Must(dir, "push", "origin", "HEAD:submit")
	wantLines(t, out, "remote: racecase: main is at", "no file changed", "remote: racecase: running your submission to the hidden concurrency tests as",
		"remote: racecase: Submission failed", "remote: verdict: fail", "remote:     interleaving:", "[new branch]      HEAD -> submit")
	if !strings.Contains(out, "remote:     >") {
		t.Fatalf("no step of the interleaving is marked as the one that breaks it:\n%s", out)
	}

	// The reference fix, pushed to main: the checks pass.
	for path, content := range solutionChanges(t) {
		gittest.WriteFile(t, dir, path, content)
	}
	g.Must(dir, "commit", "-q", "-a", "-m", "claim the lock atomically")
	out = g.Must(dir, "push", "origin", "main")
	wantLines(t, out, fixFile+" (version 2)", "remote: racecase: Checks passed", "remote: verdict: pass", "main -> main")

	// One more commit, submitted with the push option: the hidden tests pass.
	fixed := gittest.ReadFile(t, dir, fixFile)
	g.CommitFile(dir, fixFile, "// Claimed with set-if-absent: one owner per job.\n"+fixed, "explain the fix")
	out = g.Must(dir, "push", "-o", "submit", "origin", "main")
	wantLines(t, out, fixFile+" (version 3)", "remote: racecase: Submission passed", "remote: verdict: pass")
	if strings.Contains(out, "✗") {
		t.Fatalf("a test failed:\n%s", out)
	}

	view := decode[struct {
		workspaceJSON
		Runs []runJSON `json:"runs"`
	}](t, c.do("GET", "/api/workspaces/"+ws.ID, nil).want(t, http.StatusOK))
	var kinds []string
	for _, r := range view.Runs {
		kinds = append(kinds, r.Kind+":"+r.Verdict)
	}
	if got := strings.Join(kinds, " "); got != "submit:pass check:pass submit:fail" {
		t.Fatalf("the workspace's runs: %s", got)
	}
	for _, s := range view.Progress.Steps {
		if want := s.Key != "reproduced"; s.Done != want {
			t.Errorf("step %s done: %v", s.Key, s.Done)
		}
	}
}

// TestGitPushOutwaitsTheBodyTimeout: a push waits for a verdict that takes
// longer than any one request may (--body-timeout), and still ends with
// the verdict and its report, because every progress line moves the
// answer's write deadline on.
func TestGitPushOutwaitsTheBodyTimeout(t *testing.T) {
	t.Parallel()
	runnertest.Engine(t)
	srv := startServe(t, "--body-timeout", "2s")
	_, _, g, dir := clonedWorkspace(t, srv)
	g.CommitFile(dir, "test/concurrent-worker.test.js", slowTest(5), "a test that takes its time")
	out := g.Must(dir, "push", "origin", "main")
	wantLines(t, out, "remote: racecase: Checks passed", "remote: verdict: pass", "main -> main")
}
