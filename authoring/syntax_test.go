package authoring

import (
	"context"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

func TestCheckSyntaxParsesWithNode(t *testing.T) {
	got, err := CheckSyntax(context.Background(), []challenges.SourceFile{
		{Path: "src/ok.js", Source: "import x from './x.js';\nexport async function f() { return await x(); }\n"},
		{Path: "src/continue.js", Source: "export function f() { continue; }\n"},
		{Path: "src/await.js", Source: "export function f() { await g(); }\n"},
		{Path: "src/ok.cjs", Source: "module.exports = () => 1;\nreturn;\n"},
		{Path: "src/broken.cjs", Source: "module.exports = (;\n"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || got[0] != "" || got[3] != "" {
		t.Fatalf("valid sources reported: %q", got)
	}
	for _, i := range []int{1, 2, 4} {
		if got[i] == "" {
			t.Errorf("source %d parsed, want a syntax error", i)
		}
	}
	if !strings.Contains(got[1], "continue") {
		t.Errorf("the error does not say what is wrong: %q", got[1])
	}
}
