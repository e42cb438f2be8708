package workspace

import (
	"strings"
	"testing"
)

func TestCleanPathAcceptsRepositoryPaths(t *testing.T) {
	for _, p := range []string{"README.md", "src/locks/job-lock.js", "a/b/c.d.e", ".eslintrc", "src/..hidden"} {
		if got, err := CleanPath(p); err != nil || got != p {
			t.Errorf("CleanPath(%q) = %q, %v; want it unchanged", p, got, err)
		}
	}
}

func TestCleanPathRejectsEscapesAndOddForms(t *testing.T) {
	for p, why := range map[string]string{
		"":                                  "required",
		"/etc/passwd":                       "absolute",
		"../secret":                         `".."`,
		"src/../../x":                       `".."`,
		"src/..":                            `".."`,
		"src//x.js":                         "not clean",
		"src/./x.js":                        "not clean",
		"src/":                              "not clean",
		".":                                 "not clean",
		`src\x.js`:                          "backslash",
		"src/x\x00.js":                      "NUL",
		"src/\xff.js":                       "UTF-8",
		strings.Repeat("a", maxPathBytes+1): "longer",
	} {
		_, err := CleanPath(p)
		e := wantCode(t, err, EINVALID)
		if !strings.Contains(e.Message, why) {
			t.Errorf("CleanPath(%q): message %q does not say %q", p, e.Message, why)
		}
	}
}

func TestCheckContent(t *testing.T) {
	if err := CheckContent("a.js", "const x = 'é';\n"); err != nil {
		t.Fatalf("UTF-8 text refused: %v", err)
	}
	wantCode(t, CheckContent("a.js", strings.Repeat("x", MaxFileBytes+1)), ETOOLARGE)
	wantCode(t, CheckContent("a.js", "bad \xff byte"), EINVALID)
	wantCode(t, CheckContent("a.js", "nul \x00 byte"), EINVALID)
	if err := CheckContent("a.js", strings.Repeat("x", MaxFileBytes)); err != nil {
		t.Fatalf("a file of exactly the cap refused: %v", err)
	}
}
