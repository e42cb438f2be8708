package main

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// classCardsJSON is the catalog's answer, with what a card says of its class and difficulty.
type classCardsJSON struct {
	Dossiers []struct {
		Slug            string `json:"slug"`
		Difficulty      string `json:"difficulty"`
		EstimateMinutes int    `json:"estimate_minutes"`
		FailureClass    struct {
			ID    string `json:"id"`
			Label string `json:"label"`
		} `json:"failure_class"`
	} `json:"dossiers"`
}

// TestBrowseByFailureClass lists the catalog through the real server: the
// most approachable dossiers first, every card with its class, ?class=
// keeping one class (alone and with a search), and an unknown class refused
// with the classes named.
func TestBrowseByFailureClass(t *testing.T) {
	c := newClient(t, startWithoutEngine(t).URL)
	all := decode[classCardsJSON](t, c.do("GET", "/api/dossiers", nil).want(t, http.StatusOK))
	rank := map[string]int{"easy": 0, "medium": 1, "hard": 2}
	classes := map[string]int{}
	for i, d := range all.Dossiers {
		if d.FailureClass.ID == "" || d.FailureClass.Label == "" {
			t.Errorf("%s has no failure class: %+v", d.Slug, d.FailureClass)
		}
		classes[d.FailureClass.ID]++
		if i == 0 {
			continue
		}
		prev := all.Dossiers[i-1]
		if rank[prev.Difficulty] > rank[d.Difficulty] || (prev.Difficulty == d.Difficulty && prev.EstimateMinutes > d.EstimateMinutes) {
			t.Errorf("%s (%s, %d min) is listed after %s (%s, %d min)", d.Slug, d.Difficulty, d.EstimateMinutes, prev.Slug, prev.Difficulty, prev.EstimateMinutes)
		}
	}
	for id, n := range classes {
		got := decode[classCardsJSON](t, c.do("GET", "/api/dossiers?class="+id, nil).want(t, http.StatusOK))
		if len(got.Dossiers) != n {
			t.Errorf("?class=%s lists %d dossiers, want %d", id, len(got.Dossiers), n)
		}
		for _, d := range got.Dossiers {
			if d.FailureClass.ID != id {
				t.Errorf("?class=%s lists %s of class %s", id, d.Slug, d.FailureClass.ID)
			}
		}
	}
	leases := decode[classCardsJSON](t, c.do("GET", "/api/dossiers?class=lease-expiry&q="+url.QueryEscape("visibility timeout expired mid-batch"), nil).want(t, http.StatusOK))
	if len(leases.Dossiers) != 1 || leases.Dossiers[0].Slug != "outreach-lease-expiry" {
		t.Errorf("a search within lease-expiry found %+v, want outreach-lease-expiry alone", leases.Dossiers)
	}
	deadlocks := decode[classCardsJSON](t, c.do("GET", "/api/dossiers?class=deadlock&q="+url.QueryEscape("visibility timeout expired mid-batch"), nil).want(t, http.StatusOK))
	for _, d := range deadlocks.Dossiers {
		if d.FailureClass.ID != "deadlock" {
			t.Errorf("a search within deadlock found %s of class %s", d.Slug, d.FailureClass.ID)
		}
	}
	p := problemOf(t, c.do("GET", "/api/dossiers?class=race", nil), http.StatusBadRequest, "invalid")
	if detail, _ := p["detail"].(string); !strings.Contains(detail, `"race"`) || !strings.Contains(detail, "lease-expiry") {
		t.Errorf("an unknown class is refused with %q, which should name it and the classes", detail)
	}
}
