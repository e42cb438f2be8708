package main

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitAccessJSON is GET /api/workspaces/{id}/git.
type gitAccessJSON struct {
	URL          string `json:"url"`
	Token        string `json:"token"`
	CloneURL     string `json:"clone_url"`
	CloneCommand string `json:"clone_command"`
}

// gitAccess reads how to clone a workspace.
func (c *client) gitAccess(wsID string) gitAccessJSON {
	c.t.Helper()
	return decode[gitAccessJSON](c.t, c.do("GET", "/api/workspaces/"+wsID+"/git", nil).want(c.t, http.StatusOK))
}

// gitCLI runs Debian's git as a learner would, in a home of its own and
// never prompting for anything.
type gitCLI struct {
	t    testing.TB
	home string
}

// newGit returns the real git client, with a fresh configuration.
func newGit(t testing.TB) *gitCLI {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests drive the real git client: %v (apt-get install git)", err)
	}
	g := &gitCLI{t: t, home: t.TempDir()}
	g.must("", "config", "--global", "user.name", "A Learner")
	g.must("", "config", "--global", "user.email", "learner@example.com")
	g.must("", "config", "--global", "advice.detachedHead", "false")
	return g
}

// run runs git in dir and returns its combined output.
func (g *gitCLI) run(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+g.home, "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// must runs git and fails the test when it fails.
func (g *gitCLI) must(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.run(dir, args...)
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// refused runs git, fails the test unless git fails, and returns its output.
func (g *gitCLI) refused(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.run(dir, args...)
	if err == nil {
		g.t.Fatalf("git %s succeeded:\n%s", strings.Join(args, " "), out)
	}
	return out
}

// clone clones a workspace with its clone URL into a fresh directory.
func (g *gitCLI) clone(cloneURL string) string {
	g.t.Helper()
	dir := filepath.Join(g.t.TempDir(), "clone")
	g.must("", "clone", cloneURL, dir)
	return dir
}

// commitFile writes content to a file of the clone and commits it.
func (g *gitCLI) commitFile(dir, path, content, message string) {
	g.t.Helper()
	writeFile(g.t, filepath.Join(dir, filepath.FromSlash(path)), content)
	g.must(dir, "add", "--", path)
	g.must(dir, "commit", "-q", "-m", message)
}

// remoteMain returns the commit main points at on the server.
func (g *gitCLI) remoteMain(dir string) string {
	g.t.Helper()
	out := g.must(dir, "ls-remote", "origin", "refs/heads/main")
	hash, _, _ := strings.Cut(out, "\t")
	return hash
}

// writeFile writes content to path, creating its directory.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile reads a file of a clone.
func readFile(t testing.TB, dir, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// wantLines fails the test unless out holds every one of lines.
func wantLines(t testing.TB, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l) {
			t.Fatalf("the output lacks %q:\n%s", l, out)
		}
	}
}
