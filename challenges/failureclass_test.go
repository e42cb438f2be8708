package challenges

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestFailureClassesMatchTheSchema keeps the classes dossier.yaml may name and
// the classes the catalog knows the same, in the same order.
func TestFailureClassesMatchTheSchema(t *testing.T) {
	var doc struct {
		Properties struct {
			FailureClass struct {
				Enum []string `json:"enum"`
			} `json:"failure_class"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(SchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range FailureClasses {
		ids = append(ids, c.ID)
		if c.Label == "" {
			t.Errorf("class %s has no label", c.ID)
		}
	}
	if !slices.Equal(doc.Properties.FailureClass.Enum, ids) {
		t.Errorf("schema enum %v, FailureClasses %v", doc.Properties.FailureClass.Enum, ids)
	}
}

// TestCompareApproachability lists easy before hard, and the quicker of two
// dossiers of one difficulty first.
func TestCompareApproachability(t *testing.T) {
	ds := []*Dossier{
		{Slug: "a-hard", Difficulty: "hard", EstimateMinutes: 10},
		{Slug: "b-medium-long", Difficulty: "medium", EstimateMinutes: 60},
		{Slug: "c-easy", Difficulty: "easy", EstimateMinutes: 90},
		{Slug: "d-medium-short", Difficulty: "medium", EstimateMinutes: 30},
	}
	slices.SortFunc(ds, CompareApproachability)
	var got []string
	for _, d := range ds {
		got = append(got, d.Slug)
	}
	want := []string{"c-easy", "d-medium-short", "b-medium-long", "a-hard"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
