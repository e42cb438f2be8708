// Package gittest gives tests the real git client, as a learner runs it
// against racecase: a home of its own with a name and an e-mail, no system
// configuration, and never a prompt.
package gittest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// CLI runs Debian's git for one test.
type CLI struct {
	t    testing.TB
	home string
}

// New returns the git client with a fresh configuration. Without git the
// test fails: the git tests are about the real client.
func New(t testing.TB) *CLI {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests drive the real git client: %v (apt-get install git)", err)
	}
	g := &CLI{t: t, home: t.TempDir()}
	g.Must("", "config", "--global", "user.name", "A Learner")
	g.Must("", "config", "--global", "user.email", "learner@example.com")
	return g
}

// Run runs git in dir and returns its combined output.
func (g *CLI) Run(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = g.Env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Env is the environment git runs in.
func (g *CLI) Env() []string {
	return append(os.Environ(), "HOME="+g.home, "GIT_TERMINAL_PROMPT=0", "GIT_CONFIG_NOSYSTEM=1", "LC_ALL=C")
}

// Must runs git and fails the test when git fails.
func (g *CLI) Must(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.Run(dir, args...)
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Refused runs git, fails the test unless git fails, and returns the output.
func (g *CLI) Refused(dir string, args ...string) string {
	g.t.Helper()
	out, err := g.Run(dir, args...)
	if err == nil {
		g.t.Fatalf("git %s succeeded:\n%s", strings.Join(args, " "), out)
	}
	return out
}

// Clone clones url into a fresh directory and returns it.
func (g *CLI) Clone(url string) string {
	g.t.Helper()
	dir := filepath.Join(g.t.TempDir(), "clone")
	g.Must("", "clone", url, dir)
	return dir
}

// CommitFile writes content to a file of the clone in dir and commits it.
func (g *CLI) CommitFile(dir, path, content, message string) {
	g.t.Helper()
	WriteFile(g.t, dir, path, content)
	g.Must(dir, "add", "--", path)
	g.Must(dir, "commit", "-q", "-m", message)
}

// RemoteMain returns the commit main points at on the clone's server.
func (g *CLI) RemoteMain(dir string) string {
	g.t.Helper()
	hash, _, _ := strings.Cut(g.Must(dir, "ls-remote", "origin", "refs/heads/main"), "\t")
	return hash
}

// WriteFile writes content to the slash path of the clone in dir.
func WriteFile(t testing.TB, dir, path, content string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadFile reads the slash path of the clone in dir.
func ReadFile(t testing.TB, dir, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
