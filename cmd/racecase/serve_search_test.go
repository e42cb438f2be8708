package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// searchJSON is the catalog's answer to a search.
type searchJSON struct {
	Dossiers []struct {
		Slug  string `json:"slug"`
		Match *struct {
			Kind  string   `json:"kind"`
			Text  string   `json:"text"`
			Words []string `json:"words"`
		} `json:"match"`
	} `json:"dossiers"`
}

// TestFindBySymptomThroughTheAPI searches the catalog through the real
// server with phrasings of the on-call seed the outreach dossier follows
// (the challenges package tries each of them against the index): the
// outreach dossier comes first, with the phrase that matched.
func TestFindBySymptomThroughTheAPI(t *testing.T) {
	c := newClient(t, startWithoutEngine(t).URL)
	for _, q := range []string{
		"SQS visibility timeout expired mid-batch and the message got redelivered to another consumer",
		"visibility timeout expired mid-batch",
	} {
		got := decode[searchJSON](t, c.do("GET", "/api/dossiers?q="+url.QueryEscape(q), nil).want(t, http.StatusOK))
		if len(got.Dossiers) == 0 || got.Dossiers[0].Slug != "outreach-lease-expiry" {
			t.Errorf("%q: %+v, want outreach-lease-expiry first", q, got.Dossiers)
			continue
		}
		m := got.Dossiers[0].Match
		if m == nil || m.Kind == "" || len(m.Words) == 0 || !strings.Contains(m.Text, m.Words[0]) {
			t.Errorf("%q: the first card's match %+v does not show the matching phrase", q, m)
		}
	}
}

func TestSearchEdges(t *testing.T) {
	c := newClient(t, startWithoutEngine(t).URL)
	all := decode[searchJSON](t, c.do("GET", "/api/dossiers", nil).want(t, http.StatusOK))
	blank := decode[searchJSON](t, c.do("GET", "/api/dossiers?q=+++", nil).want(t, http.StatusOK))
	if len(all.Dossiers) < 5 || len(blank.Dossiers) != len(all.Dossiers) || blank.Dossiers[0].Match != nil {
		t.Errorf("a blank search lists %d cards (match %v), the catalog %d", len(blank.Dossiers), blank.Dossiers[0].Match, len(all.Dossiers))
	}
	none := decode[searchJSON](t, c.do("GET", "/api/dossiers?q=zzqx", nil).want(t, http.StatusOK))
	if len(none.Dossiers) != 0 {
		t.Errorf("nonsense matched %+v", none.Dossiers)
	}
	problemOf(t, c.do("GET", "/api/dossiers?q="+strings.Repeat("lock+", 81), nil), http.StatusBadRequest, "invalid")
}
