package challenges

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestPublicHasNoWrongTurns(t *testing.T) {
	data, err := json.Marshal(tinyLock(t).Public())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"WRONG-TURN", "wrong_turns"} {
		if strings.Contains(string(data), s) {
			t.Errorf("Public() JSON contains %q: wrong turns come only with a failed submission", s)
		}
	}
}

func TestWrongTurnsForFailedAndPassedTests(t *testing.T) {
	d := tinyLock(t)
	d.WrongTurns = append(d.WrongTurns,
		WrongTurn{LooksLike: "two tests", WhyItFails: "w", LookAt: "l", Tests: []string{"exactly once", "released"}},
		WrongTurn{LooksLike: "close to the fix", WhyItFails: "w", LookAt: "l", Tests: []string{"released"}, Passes: []string{"exactly once"}})
	first := d.WrongTurns[0].LooksLike
	for _, tc := range []struct {
		failed, passed []string
		want           []string
	}{
		{nil, nil, nil},
		{[]string{"released"}, nil, nil},
		{[]string{"released"}, []string{"exactly once"}, []string{"close to the fix"}},
		{[]string{"exactly once"}, []string{"released"}, []string{first}},
		{[]string{"released", "exactly once"}, nil, []string{first, "two tests"}},
	} {
		var got []string
		for _, w := range d.WrongTurnsFor(tc.failed, tc.passed) {
			got = append(got, w.LooksLike)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("WrongTurnsFor(failed %q, passed %q) = %q, want %q", tc.failed, tc.passed, got, tc.want)
		}
	}
	shown := d.WrongTurnsFor([]string{"exactly once"}, nil)
	shown[0].Tests[0] = "changed"
	if d.WrongTurns[0].Tests[0] == "changed" {
		t.Error("WrongTurnsFor shares its tests with the dossier")
	}
}
