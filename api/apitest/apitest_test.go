package apitest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// answer builds a response with status, media type and body.
func answer(status int, mediaType, body string) *http.Response {
	rec := httptest.NewRecorder()
	rec.Header().Set("Content-Type", mediaType)
	rec.WriteHeader(status)
	rec.WriteString(body)
	return rec.Result()
}

func TestMismatchesCatchWhatTheContractDoesNotDescribe(t *testing.T) {
	const problem = "application/problem+json"
	validation := `{"state":"never","runs_done":0,"runs_total":0,"ok":false,"proofs":%s}`
	unauthorized := `{"type":"urn:racecase:problem:%s","title":"Unauthorized","status":401,"detail":"d","code":"%s"}`
	notFound := `{"type":"urn:racecase:problem:no_route","title":"Not Found","status":404,"detail":"d","code":"no_route"}`
	for _, c := range []struct {
		name, method, path string
		resp               *http.Response
		body               string
		ok                 bool
	}{
		{"proofs an array", "GET", "/api/instructor/dossiers/x/validate", nil, strings.Replace(validation, "%s", "[]", 1), true},
		{"proofs null", "GET", "/api/instructor/dossiers/x/validate", nil, strings.Replace(validation, "%s", "null", 1), false},
		{"a known code", "GET", "/api/instructor/dossiers", answer(401, problem, ""), strings.ReplaceAll(unauthorized, "%s", "unauthorized"), true},
		{"an unknown code", "GET", "/api/instructor/dossiers", answer(401, problem, ""), strings.ReplaceAll(unauthorized, "%s", "bogus"), false},
		{"an undocumented status", "POST", "/api/workspaces/w_1/hints", answer(418, problem, ""), notFound, false},
		{"a redirect", "GET", "/api/dossiers/", answer(301, "text/html", ""), "", false},
		{"an unlisted path", "GET", "/api/nothing", answer(404, problem, ""), notFound, true},
		{"an unlisted path with a page", "GET", "/api/nothing", answer(200, "text/html", ""), "<html>", false},
		{"a file path with slashes", "GET", "/api/workspaces/w_1/files/src/a/b.js", answer(404, problem, ""),
			strings.ReplaceAll(notFound, "no_route", "not_found"), true},
	} {
		resp := c.resp
		if resp == nil {
			resp = answer(200, "application/json", "")
		}
		got, err := Mismatches(httptest.NewRequest(c.method, c.path, nil), resp, []byte(c.body))
		if err != nil {
			t.Fatal(err)
		}
		if (len(got) == 0) != c.ok {
			t.Errorf("%s: mismatches %q, want ok %v", c.name, got, c.ok)
		}
	}
}
