package challenges

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// searchIndex indexes the built-in dossiers.
func searchIndex(t *testing.T) *Index {
	t.Helper()
	ds, err := LoadAll(FS)
	if err != nil {
		t.Fatal(err)
	}
	return NewIndex(ds)
}

// TestSeedPhrasingsFindTheOutreachDossierFirst searches with the variant
// phrasings of the on-call seed the outreach dossier follows (which the
// dossier words differently) and with typos in them.
func TestSeedPhrasingsFindTheOutreachDossierFirst(t *testing.T) {
	ix := searchIndex(t)
	for _, q := range []string{
		"SQS visibility timeout expired mid-batch and the message got redelivered to another consumer",
		"two workers processed the same queue shard",
		"Redis lock expired before the batch finished",
		"duplicate outreach after worker restart",
		"visibility timeout expired mid-batch",
		"visiblity timout expird mid batch",
		"reddis lokc expird befor the bach finished",
		"two agents emailed the same candidate list",
	} {
		hits := ix.Search(q)
		if len(hits) == 0 || hits[0].Slug != "outreach-lease-expiry" {
			t.Errorf("%q: first hit %v, want outreach-lease-expiry", q, slugsOf(hits))
			continue
		}
		if m := hits[0].Match; m.Text == "" || len(m.Words) == 0 || !strings.Contains(m.Text, m.Words[0]) {
			t.Errorf("%q: match %+v does not show the phrase and its matching words", q, m)
		}
	}
}

// TestEveryVariantPhrasingFindsItsDossierFirst holds for every dossier: its
// own phrasings lead to it, not to a look-alike.
func TestEveryVariantPhrasingFindsItsDossierFirst(t *testing.T) {
	ds, err := LoadAll(FS)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex(ds)
	for _, d := range ds {
		for _, q := range append([]string{d.Title}, d.Playbook.VariantPhrasings...) {
			if hits := ix.Search(q); len(hits) == 0 || hits[0].Slug != d.Slug {
				t.Errorf("%q: hits %v, want %s first", q, slugsOf(hits), d.Slug)
			}
		}
	}
}

func TestSearchByOtherSymptoms(t *testing.T) {
	ix := searchIndex(t)
	for q, want := range map[string]string{
		"customer charged twice":          "payments-double-capture",
		"deadl":                           "transfers-deadlock",
		"oversold flash sale":             "inventory-lost-update",
		"one queue job two notifications": "job-lock-double-send",
		"gateway 504 transfer hangs":      "transfers-deadlock",
		"invoice short after gc pause":    "usage-rollup-stale-write",
	} {
		if hits := ix.Search(q); len(hits) == 0 || hits[0].Slug != want {
			t.Errorf("%q: hits %v, want %s first", q, slugsOf(hits), want)
		}
	}
}

func TestSearchMatchesNothingWithoutWords(t *testing.T) {
	ix := searchIndex(t)
	for _, q := range []string{"", "   ", "the and of", "--", "zzqx"} {
		if hits := ix.Search(q); len(hits) != 0 {
			t.Errorf("%q: hits %v, want none", q, slugsOf(hits))
		}
	}
}

// TestSearchSeesOnlyPublicText searches with secret playbook and answer text
// of the fixture, which must not match.
func TestSearchSeesOnlyPublicText(t *testing.T) {
	d, err := Load(os.DirFS("testdata"), fixture)
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndex([]*Dossier{d})
	for _, q := range []string{"PLAYBOOK", "SECRET-EXPLANATION", "HINT-TEXT", "double publish"} {
		if hits := ix.Search(q); len(hits) != 0 {
			t.Errorf("%q matched %+v", q, hits[0].Match)
		}
	}
	if hits := ix.Search("counter bumped twice"); len(hits) != 1 || hits[0].Match.Kind != PhraseVariant {
		t.Errorf("a variant phrasing is not found: %+v", hits)
	}
}

func TestStems(t *testing.T) {
	for _, group := range [][]string{
		{"expired", "expires", "expire"},
		{"workers", "worker"},
		{"batches", "batch"},
		{"retries", "retried", "retry"},
		{"processed", "processes", "process", "processing"},
		{"dropped", "drop"},
		{"e-mail", "email"},
	} {
		for _, w := range group[1:] {
			if a, b := words(group[0])[0].stem, words(w)[0].stem; a != b {
				t.Errorf("stem(%q) = %q, stem(%q) = %q", group[0], a, w, b)
			}
		}
	}
}

func TestSentences(t *testing.T) {
	got := sentences("Wait 1.5 s, e.g. here. Then go!  Done? yes")
	want := []string{"Wait 1.5 s, e.g. here.", "Then go!", "Done? yes"}
	if !slices.Equal(got, want) {
		t.Errorf("sentences = %q, want %q", got, want)
	}
}

// slugsOf lists the hits' slugs.
func slugsOf(hits []Hit) []string {
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Slug)
	}
	return out
}
