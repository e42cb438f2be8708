package main

import (
	"net/http"
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

// wantLines fails the test unless out holds every one of lines.
func wantLines(t testing.TB, out string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !strings.Contains(out, l) {
			t.Fatalf("the output lacks %q:\n%s", l, out)
		}
	}
}
