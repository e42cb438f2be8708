package main

import (
	"encoding/csv"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/api/apitest"
	"github.com/racecase/racecase/workspace"
)

// asTeacher returns a client (its own browser) sending the instructor token.
func asTeacher(t *testing.T, base, token string) *client {
	c := newClient(t, base)
	c.bearer = token
	return c
}

// getCSV fetches a path asking for text/csv, checking the answer against openapi.json.
func (c *client) getCSV(path string) [][]string {
	c.t.Helper()
	req, _ := http.NewRequest("GET", c.base+path, nil)
	req.Header.Set("Accept", "text/csv")
	req.Header.Set("Authorization", "Bearer "+c.bearer)
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	apitest.Check(c.t, req, resp, data)
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(resp.Header.Get("Content-Disposition"), "attachment") {
		c.t.Fatalf("CSV answer %d %v", resp.StatusCode, resp.Header)
	}
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		c.t.Fatalf("not CSV: %v\n%s", err, data)
	}
	return rows
}

func TestCohortsFromCreationToTheTable(t *testing.T) {
	tokens := filepath.Join(t.TempDir(), "tokens")
	if err := os.WriteFile(tokens, []byte("# the lab's assistants\nsam  sam-token-0123456789\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startWithoutEngine(t, "--instructor-token", testToken, "--instructor-tokens", tokens)
	sam, anon := asTeacher(t, srv.URL, "sam-token-0123456789"), newClient(t, srv.URL)

	problemOf(t, anon.do("POST", "/api/instructor/cohorts", map[string]any{"name": "Lab", "dossiers": []string{flagship}}), http.StatusUnauthorized, "unauthorized")
	bad := problemOf(t, sam.do("POST", "/api/instructor/cohorts", map[string]any{"name": "Lab", "dossiers": []string{"no-such"}}), http.StatusBadRequest, "invalid")
	if bad["field"] != "dossiers" {
		t.Errorf("the problem names %v", bad["field"])
	}
	co := decode[workspace.Cohort](t, sam.do("POST", "/api/instructor/cohorts", map[string]any{"name": "Lab A", "dossiers": []string{flagship}}).want(t, http.StatusCreated))
	if co.CreatedBy != "sam" || co.JoinPath != "/join/"+co.JoinCode {
		t.Fatalf("cohort %+v", co)
	}

	// Ada already works on the flagship; Bob comes by the link alone.
	ada, bob := newClient(t, srv.URL), newClient(t, srv.URL)
	ws := ada.createWorkspace()
	join := "/api/cohorts/join/" + co.JoinCode
	if inv := decode[workspace.Invitation](t, bob.do("GET", join, nil).want(t, http.StatusOK)); !inv.Open || inv.Name != "Lab A" || inv.JoinedAs != "" {
		t.Errorf("invitation %+v", inv)
	}
	problemOf(t, bob.do("POST", join, map[string]string{"display_name": " "}), http.StatusBadRequest, "invalid")
	problemOf(t, bob.do("POST", "/api/cohorts/join/nosuchcode", map[string]string{"display_name": "Bob"}), http.StatusNotFound, "not_found")
	ada.do("POST", join, map[string]string{"display_name": "Ada"}).want(t, http.StatusOK)
	bob.do("POST", join, map[string]string{"display_name": "=Bob"}).want(t, http.StatusOK)
	if inv := decode[workspace.Invitation](t, bob.do("GET", join, nil)); inv.JoinedAs != "=Bob" {
		t.Errorf("Bob joined as %q", inv.JoinedAs)
	}
	ada.do("POST", "/api/workspaces/"+ws.ID+"/hints", nil).want(t, http.StatusCreated)
	ada.do("PUT", "/api/workspaces/"+ws.ID+"/hypothesis", map[string]string{"hypothesis": "lock-claim"}).want(t, http.StatusOK)
	problemOf(t, bob.do("PUT", "/api/workspaces/"+ws.ID+"/hypothesis", map[string]string{"hypothesis": "lock-claim"}), http.StatusNotFound, "not_found")

	// Ada and Bob may join within the same millisecond: rows in either order.
	class := decode[workspace.Class](t, sam.do("GET", "/api/instructor/cohorts/"+co.ID, nil).want(t, http.StatusOK))
	if len(class.Rows) == 2 && class.Rows[0].DisplayName != "Ada" {
		class.Rows[0], class.Rows[1] = class.Rows[1], class.Rows[0]
	}
	if len(class.Rows) != 2 || class.Rows[0].DisplayName != "Ada" || class.Rows[0].HintsRevealed != 1 || class.Rows[1].StepTitle != "Not started" {
		t.Fatalf("class %+v", class.Rows)
	}
	rows := sam.getCSV("/api/instructor/cohorts/" + co.ID)
	if len(rows) == 3 && rows[1][0] != "Ada" {
		rows[1], rows[2] = rows[2], rows[1]
	}
	if len(rows) != 3 || rows[0][0] != "learner" || rows[1][0] != "Ada" || rows[2][0] != "'=Bob" || rows[1][6] != "1" {
		t.Errorf("CSV %q", rows)
	}
	insights := decode[struct{ Insights []workspace.Insight }](t, sam.do("GET", "/api/instructor/cohorts/"+co.ID+"/insights", nil).want(t, http.StatusOK))
	if in := insights.Insights[0]; in.Learners != 1 || in.Hypotheses[1].Picks != 1 || !in.Hypotheses[1].RootCause {
		t.Errorf("insight %+v", in)
	}
	sam.do("GET", "/api/instructor/insights", nil).want(t, http.StatusOK)
	seen := decode[workspace.Inspection](t, sam.do("GET", "/api/instructor/workspaces/"+ws.ID, nil).want(t, http.StatusOK))
	if seen.LearnerID == "" || seen.Workspace.ID != ws.ID || len(seen.Files) == 0 || seen.Cohorts[0].DisplayName != "Ada" || seen.Workspace.Hypothesis != "lock-claim" {
		t.Errorf("inspection %+v", seen.Workspace.Summary)
	}
	problemOf(t, sam.do("GET", "/api/instructor/workspaces/w_nosuch", nil), http.StatusNotFound, "not_found")
}

func TestPreviewKeepsTheOwnLearnerAside(t *testing.T) {
	srv := startWithoutEngine(t, "--instructor-token", testToken)
	me := asTeacher(t, srv.URL, testToken)
	own := me.createWorkspace()
	start := func() workspace.View {
		t.Helper()
		p := decode[struct {
			Path      string
			Workspace workspace.View
		}](t, me.do("POST", "/api/instructor/previews", map[string]string{"dossier": flagship}).want(t, http.StatusCreated))
		if p.Path != "/dossiers/"+flagship || !p.Workspace.Preview || p.Workspace.ID == own.ID {
			t.Fatalf("preview %+v", p)
		}
		return p.Workspace
	}
	first := start()
	list := decode[struct{ Workspaces []workspace.Summary }](t, me.do("GET", "/api/workspaces", nil))
	if len(list.Workspaces) != 1 || list.Workspaces[0].ID != first.ID {
		t.Fatalf("in the preview the browser has %+v", list.Workspaces)
	}
	second := start() // the reset
	problemOf(t, me.do("GET", "/api/workspaces/"+first.ID, nil), http.StatusNotFound, "not_found")
	me.do("GET", "/api/workspaces/"+second.ID, nil).want(t, http.StatusOK)
	me.do("POST", "/api/preview/leave", nil).want(t, http.StatusNoContent)
	if v := decode[workspace.View](t, me.do("GET", "/api/workspaces/"+own.ID, nil).want(t, http.StatusOK)); v.Preview {
		t.Errorf("the own workspace is marked a preview")
	}
	problemOf(t, me.do("POST", "/api/preview/leave", nil), http.StatusConflict, "conflict")
}

func TestInstructorTokensFile(t *testing.T) {
	dir := t.TempDir()
	for text, want := range map[string]string{
		"sam sam-token-0123456789\nkim kim-token-0123456789\n": "",
		"sam\n":                          `:1: want "name token"`,
		"instructor abcdefghijklmnopq\n": "the --instructor-token's",
		"sam abcdefghijklmnopq\nsam zyxwvutsrqponmlkj\n": `"sam" is given twice`,
		"sam short\n": "at least 16 characters",
		"sam abcdefghijklmnopq\nkim abcdefghijklmnopq\n": "must be unique",
	} {
		file := filepath.Join(dir, "tokens")
		if err := os.WriteFile(file, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := readInstructorTokens(file)
		switch {
		case want == "" && (err != nil || len(got) != 2 || got["kim"] != "kim-token-0123456789"):
			t.Errorf("%q: %v, %v", text, got, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: error %v, want one saying %q", text, err, want)
		}
	}
}
