package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/instructor"
	"github.com/racecase/racecase/runner/runnertest"
)

// testToken is the instructor token the tests serve with.
const testToken = "test-instructor-token"

// asInstructor sends a request with the given bearer token ("" for none).
func asInstructor(t *testing.T, s *testServer, token, method, path string) response {
	t.Helper()
	req, err := http.NewRequest(method, s.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: body}
}

// instructorList is GET /api/instructor/dossiers, by slug.
func instructorList(t *testing.T, s *testServer) map[string]instructor.Dossier {
	t.Helper()
	var got struct{ Dossiers []instructor.Dossier }
	if err := json.Unmarshal(asInstructor(t, s, testToken, "GET", "/api/instructor/dossiers").want(t, http.StatusOK).body, &got); err != nil {
		t.Fatal(err)
	}
	out := map[string]instructor.Dossier{}
	for _, d := range got.Dossiers {
		out[d.Slug] = d
	}
	return out
}

func TestInstructorRoutesNeedTheToken(t *testing.T) {
	s := startServe(t, "--instructor-token", testToken)
	for _, token := range []string{"", "wrong-token", testToken + "x"} {
		for _, r := range [][2]string{{"GET", "/api/instructor/dossiers"}, {"POST", "/api/instructor/dossiers/" + flagship + "/validate"}} {
			res := asInstructor(t, s, token, r[0], r[1])
			problemOf(t, res, http.StatusUnauthorized, "unauthorized")
			if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("%s %s with %q: WWW-Authenticate %q", r[0], r[1], token, res.header.Get("WWW-Authenticate"))
			}
		}
	}
	if d := instructorList(t, s)[flagship]; d.Source != instructor.BuiltIn || !d.Served || d.Preview != "/dossiers/"+flagship {
		t.Errorf("the flagship: %+v", d)
	}
	if strings.Contains(s.log.String(), testToken) {
		t.Error("the token is in the log")
	}
}

func TestInstructorListsLintProblemsOfTheFolder(t *testing.T) {
	dir := newInTemp(t, "receipt-twice")
	replaceIn(t, filepath.Join(dir, "receipt-twice", challenges.DossierFile), "kind: codebase-incident", "kind: codebase-accident")
	s := startServe(t, "--instructor-token", testToken, "--challenges", dir)
	d := instructorList(t, s)["receipt-twice"]
	if d.Source != dir || d.Served || len(d.Problems) == 0 {
		t.Fatalf("the broken dossier: %+v", d)
	}
	if p := d.Problems[0]; p.Field != "kind" || p.Line == 0 || p.Fix == "" || !strings.HasSuffix(p.File, "receipt-twice/dossier.yaml") {
		t.Errorf("problem %+v", p)
	}
	problemOf(t, asInstructor(t, s, testToken, "GET", "/api/instructor/dossiers/no-such/validate"), http.StatusNotFound, "not_found")
}

func TestServeRefusesAFolderDossierWithABuiltInSlug(t *testing.T) {
	dir := newInTemp(t, flagship)
	code, _, errOut := runCLI(t, "serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--challenges", dir)
	if code != exitTrouble || !strings.Contains(errOut, filepath.Join(dir, flagship)) || !strings.Contains(errOut, "built-in dossier") {
		t.Fatalf("code %d:\n%s", code, errOut)
	}
}

func TestInstructorToken(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	if tok, made := instructorToken("flag", env("env")); tok != "flag" || made {
		t.Errorf("flag: %q %v", tok, made)
	}
	if tok, made := instructorToken("", env("env")); tok != "env" || made {
		t.Errorf("env: %q %v", tok, made)
	}
	a, made := instructorToken("", env(""))
	b, _ := instructorToken("", env(""))
	if !made || len(a) < 20 || a == b {
		t.Errorf("generated %q, %q", a, b)
	}
	var out strings.Builder
	printInstructorURL(&out, "127.0.0.1:8080", serveOptions{token: a, tokenMade: true})
	if out.String() != "racecase: instructor page on http://127.0.0.1:8080/instructor#token="+a+"\n" {
		t.Errorf("printed %q", out.String())
	}
}

// TestInstructorValidatesThroughTheRunner validates a new skeleton from the
// instructor API through the real runner: it fails only because its bug is
// not written yet. The validation, with who asked and its progress, is in
// the history, also after a restart. Without a Docker engine it skips,
// unless REQUIRE_DOCKER=1.
func TestInstructorValidatesThroughTheRunner(t *testing.T) {
	engine := runnertest.Engine(t)
	slug := fmt.Sprintf("skeleton-%d", time.Now().UnixNano())
	runnertest.ExpectNoLeftovers(t, engine, "racecase.dossier="+slug)
	dir := newInTemp(t, slug)
	s := startServe(t, "--instructor-token", testToken, "--challenges", dir)
	path := "/api/instructor/dossiers/" + slug + "/validate"
	if v := decode[instructor.Validation](t, asInstructor(t, s, testToken, "POST", path).want(t, http.StatusAccepted)); v.State != instructor.StateRunning {
		t.Fatalf("started %+v", v)
	}
	deadline := time.Now().Add(5 * time.Minute)
	var v instructor.Validation
	for v = decode[instructor.Validation](t, asInstructor(t, s, testToken, "GET", path).want(t, http.StatusOK)); v.State == instructor.StateRunning; {
		if time.Now().After(deadline) {
			t.Fatal("validation still running after 5 min")
		}
		time.Sleep(200 * time.Millisecond)
		v = decode[instructor.Validation](t, asInstructor(t, s, testToken, "GET", path).want(t, http.StatusOK))
	}
	if v.State != instructor.StateDone || v.OK || len(v.Proofs) != 5 || v.FinishedAt == nil {
		t.Fatalf("validation %+v", v)
	}
	for _, p := range v.Proofs {
		if wantFail := p.Subject == "buggy repo"; p.OK == wantFail || (wantFail && !strings.HasPrefix(p.Detail, "skeleton bug not written yet")) {
			t.Errorf("claim %+v", p)
		}
	}
	if v.RunsTotal == 0 || v.RunsDone != v.RunsTotal || v.RequestedBy != "instructor" || len(v.DossierVersion) != 12 {
		t.Errorf("progress %d of %d, asked by %q, version %q", v.RunsDone, v.RunsTotal, v.RequestedBy, v.DossierVersion)
	}
	if d := instructorList(t, s)[slug]; d.Validation.State != instructor.StateDone {
		t.Errorf("the list's validation: %+v", d.Validation)
	}

	history := "/api/instructor/dossiers/" + slug + "/validations"
	if code := s.stop(); code != exitOK {
		t.Fatalf("stop exited %d", code)
	}
	again := startServe(t, "--instructor-token", testToken, "--challenges", dir, "--data", s.Data)
	kept := decode[struct{ Validations []instructor.Validation }](t, asInstructor(t, again, testToken, "GET", history).want(t, http.StatusOK))
	if len(kept.Validations) != 1 || kept.Validations[0].ID != v.ID || len(kept.Validations[0].Proofs) != len(v.Proofs) ||
		kept.Validations[0].FinishedAt == nil || !kept.Validations[0].FinishedAt.Equal(v.FinishedAt.Truncate(time.Millisecond)) {
		t.Fatalf("after a restart the history holds %+v", kept.Validations)
	}
	if d := instructorList(t, again)[slug]; d.Validation.ID != v.ID || d.Validation.State != instructor.StateDone {
		t.Errorf("after a restart the list's validation: %+v", d.Validation)
	}
}
