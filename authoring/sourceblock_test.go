package authoring

import (
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

func TestWithSource(t *testing.T) {
	src := challenges.Source{URL: "https://git.example.com/a b.git", Ref: "v1: the incident", Commit: strings.Repeat("ab", 20)}
	block := "source:\n  url: https://git.example.com/a b.git\n  ref: 'v1: the incident'\n  commit: " + strings.Repeat("ab", 20) + "\n"
	for _, tc := range []struct{ name, in, want string }{{
		name: "appended",
		in:   "# a comment\nformat: 1\nslug: x # why\n",
		want: "# a comment\nformat: 1\nslug: x # why\n" + block,
	}, {
		name: "appended after a last line without newline",
		in:   "format: 1",
		want: "format: 1\n" + block,
	}, {
		name: "replaced in the middle, the next field's comments kept",
		in:   "format: 1\n# where from\nsource:\n  url: old\n  commit: " + strings.Repeat("0", 40) + "\n  path: a/b\n\n# the answer\nsecret: x\n",
		want: "format: 1\n# where from\n" + block + "\n# the answer\nsecret: x\n",
	}, {
		name: "replaced at the end",
		in:   "format: 1\nsource: {url: old, commit: x}\n",
		want: "format: 1\n" + block,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := withSource([]byte(tc.in), src)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
	if _, err := withSource([]byte("- a list\n"), src); err == nil {
		t.Error("withSource accepted a dossier.yaml that is not a mapping")
	}
}
