package workspace

import (
	"strings"
	"testing"
)

func TestUnifiedPatch(t *testing.T) {
	original := map[string]string{
		"README.md":        "# demo\n",
		"src/lock.js":      "export function acquire() {\n  return get();\n}\n",
		"src/unchanged.js": "x\n",
	}
	current := map[string]string{
		"README.md":        "# demo\n",
		"src/lock.js":      "export function acquire() {\n  return setIfAbsent();\n}\n",
		"src/unchanged.js": "x\n",
	}
	patch, files, err := unifiedPatch(original, current)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || files[0] != "src/lock.js" {
		t.Fatalf("changed files %v", files)
	}
	for _, want := range []string{"diff --git a/src/lock.js b/src/lock.js", "--- a/src/lock.js", "+++ b/src/lock.js",
		"-  return get();", "+  return setIfAbsent();", "@@ "} {
		if !strings.Contains(patch, want) {
			t.Errorf("patch lacks %q:\n%s", want, patch)
		}
	}
	if strings.Contains(patch, "unchanged.js") || strings.Contains(patch, "README.md") {
		t.Errorf("patch mentions unchanged files:\n%s", patch)
	}

	patch, files, err = unifiedPatch(original, original)
	if err != nil || patch != "" || len(files) != 0 {
		t.Fatalf("no change: patch %q, files %v, err %v", patch, files, err)
	}
}
