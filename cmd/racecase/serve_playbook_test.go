package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

// TestUnsolvedWorkspacesGetNoPlaybookText opens a workspace of every
// dossier, reveals every hint and reads every learner route, searches
// included: no answer carries the playbook, nor the text of any field the
// schema marks secret or internal (the answer, the playbook, the decoys a
// wrong turn is written from).
func TestUnsolvedWorkspacesGetNoPlaybookText(t *testing.T) {
	srv := startWithoutEngine(t)
	dossiers, err := challenges.LoadAll(challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dossiers {
		t.Run(d.Slug, func(t *testing.T) {
			c := newClient(t, srv.URL)
			created := c.do("POST", "/api/workspaces", map[string]string{"dossier": d.Slug}).want(t, http.StatusCreated)
			ws := decode[workspaceJSON](t, created)
			base := "/api/workspaces/" + ws.ID
			bodies := []response{created}
			for c.do("POST", base+"/hints", nil).status == http.StatusCreated {
			}
			get := []string{"/api/dossiers", "/api/dossiers/" + d.Slug, "/api/workspaces", base, base + "/progress",
				base + "/hints", base + "/diff", "/api/playbooks"}
			for _, p := range d.PublicPhrases() {
				q := []rune(p.Text)[:min(len([]rune(p.Text)), challenges.MaxQueryLength)]
				get = append(get, "/api/dossiers?q="+url.QueryEscape(string(q)))
			}
			for _, f := range ws.Files {
				get = append(get, base+"/files/"+f.Path)
			}
			for _, path := range get {
				bodies = append(bodies, c.do("GET", path, nil).want(t, http.StatusOK))
			}
			bodies = append(bodies, c.do("GET", "/api/playbooks/"+d.Slug, nil))
			problemOf(t, bodies[len(bodies)-1], http.StatusForbidden, "forbidden")

			secrets := withheldText(t, d, dossiers)
			for i, r := range bodies {
				text := normalised(jsonStrings(t, r.body))
				for _, s := range secrets {
					if strings.Contains(text, s) {
						t.Errorf("answer %d (%s) contains withheld text %q", i, strings.SplitN(string(r.body), "\n", 2)[0][:min(60, len(r.body))], s)
					}
				}
				if key := playbookKey(t, r.body); key != "" {
					t.Errorf("answer %d has a %q member before the dossier is solved", i, key)
				}
			}
		})
	}
}

// withheldText is every text of d that the schema marks secret or internal
// and no public field of any dossier also holds, whitespace normalised, with
// the first 40 characters of each long one on their own so that a shortened
// copy is caught too. Fix terms are not text: they are words that hints may use.
func withheldText(t *testing.T, d *challenges.Dossier, dossiers []*challenges.Dossier) []string {
	t.Helper()
	public := map[string]bool{}
	for _, other := range dossiers {
		texts, err := other.FieldTexts()
		if err != nil {
			t.Fatal(err)
		}
		for _, ft := range texts {
			if ft.Visibility == challenges.VisibilityPublic {
				public[ft.Text] = true
			}
		}
	}
	texts, err := d.FieldTexts()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ft := range texts {
		if ft.Visibility == challenges.VisibilityPublic || public[ft.Text] || strings.HasPrefix(ft.Field, "playbook.fix_terms[") {
			continue
		}
		text := normalised(ft.Text)
		out = append(out, text)
		if len(text) > 60 {
			out = append(out, text[:40])
		}
	}
	return out
}

// normalised collapses runs of white space into one space.
func normalised(s string) string { return strings.Join(strings.Fields(s), " ") }

// jsonStrings returns every string in a JSON document, one a line.
func jsonStrings(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, body)
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x + "\n")
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// playbookKey returns the first member of a JSON document named like a
// part of a served playbook, or "".
func playbookKey(t *testing.T, body []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatal(err)
	}
	var found string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				if found == "" && (k == "playbook" || k == "playbooks" && len(asList(e)) > 0 || k == "tldr" || k == "use_when" || k == "not_for" || k == "edge_cases") {
					found = k
				}
				walk(e)
			}
		}
	}
	walk(v)
	return found
}

// asList is v as a JSON array, or nil.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// getAs sends a GET asking for the media type accept.
func (c *client) getAs(path, accept string) response {
	c.t.Helper()
	req, err := http.NewRequest("GET", c.base+path, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Accept", accept)
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: data}
}

// solvedPlaybook checks, once the flagship is solved in view, that its
// playbook is in the progress, on the learner's shelf, and exported as
// Markdown, alone and with the shelf.
func solvedPlaybook(t *testing.T, c *client, view workspaceJSON) {
	t.Helper()
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	progress := decode[struct {
		Playbook *struct {
			Slug string `json:"slug"`
			TLDR string `json:"tldr"`
		} `json:"playbook"`
	}](t, c.do("GET", "/api/workspaces/"+view.ID+"/progress", nil).want(t, http.StatusOK))
	if progress.Playbook == nil || progress.Playbook.Slug != flagship || progress.Playbook.TLDR != d.Playbook.TLDR {
		t.Fatalf("the solved workspace's progress carries playbook %+v", progress.Playbook)
	}
	shelf := decode[struct {
		Playbooks []struct{ Slug string } `json:"playbooks"`
	}](t, c.do("GET", "/api/playbooks", nil).want(t, http.StatusOK))
	if len(shelf.Playbooks) != 1 || shelf.Playbooks[0].Slug != flagship {
		t.Fatalf("shelf %+v", shelf)
	}
	one := c.getAs("/api/playbooks/"+flagship, "text/markdown").want(t, http.StatusOK)
	all := c.getAs("/api/playbooks", "text/markdown").want(t, http.StatusOK)
	for _, r := range []response{one, all} {
		if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "text/markdown") || !strings.HasPrefix(r.header.Get("Content-Disposition"), "attachment; filename=") {
			t.Errorf("the Markdown export is %q, %q", ct, r.header.Get("Content-Disposition"))
		}
		if md := string(r.body); !strings.Contains(md, "# "+d.Title) || !strings.Contains(md, "TL;DR") || !strings.Contains(md, d.Playbook.Steps[0].Action[:30]) {
			t.Errorf("the Markdown export lacks the title, TL;DR or first step:\n%s", md)
		}
	}
}
