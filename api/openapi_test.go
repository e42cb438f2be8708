package api

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// openAPIDoc is the part of the OpenAPI document the test reads.
type openAPIDoc struct {
	OpenAPI string                                `json:"openapi"`
	Paths   map[string]map[string]json.RawMessage `json:"paths"`
}

// ginParam matches gin's ":name" and "*name" path parameters.
var ginParam = regexp.MustCompile(`[:*]([A-Za-z_]+)`)

func TestOpenAPIDocumentsEveryRouteAndNothingElse(t *testing.T) {
	var doc openAPIDoc
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Fatalf("openapi version %q", doc.OpenAPI)
	}
	documented := map[string]bool{}
	for path, ops := range doc.Paths {
		for method := range ops {
			if method == "parameters" {
				continue
			}
			documented[strings.ToUpper(method)+" "+path] = true
		}
	}
	served := map[string]bool{}
	for _, r := range newTestEngine(t).Routes() {
		served[r.Method+" "+ginParam.ReplaceAllString(r.Path, "{$1}")] = true
	}
	for route := range served {
		if !documented[route] {
			t.Errorf("route %s is not in openapi.json", route)
		}
	}
	for route := range documented {
		if !served[route] {
			t.Errorf("openapi.json documents %s, which is not a route", route)
		}
	}
	if len(served) < 20 {
		t.Errorf("only %d routes: %v", len(served), slices.Sorted(maps.Keys(served)))
	}
}
