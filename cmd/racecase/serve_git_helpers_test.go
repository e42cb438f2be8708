package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/racecase/racecase/gitserve/gittest"
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

// clonedWorkspace creates a workspace of the flagship on srv for a new
// learner and clones it with the real git client into dir.
func clonedWorkspace(t testing.TB, srv *testServer) (c *client, ws workspaceJSON, g *gittest.CLI, dir string) {
	t.Helper()
	c = newClient(t, srv.URL)
	ws = c.createWorkspace()
	g = gittest.New(t)
	return c, ws, g, g.Clone(c.gitAccess(ws.ID).CloneURL)
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
