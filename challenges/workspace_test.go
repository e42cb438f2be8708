package challenges

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadWorkspace(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"package.json": "{}", "src/a.js": "export {};", ".git/HEAD": "ref", "node_modules/x/index.js": "x",
	})
	files, err := ReadWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || string(files["src/a.js"]) != "export {};" {
		t.Errorf("files %v, want package.json and src/a.js only", files)
	}
}

// A file far larger than memory is refused from its size alone: reading it
// first would not finish.
func TestReadWorkspaceMeasuresBeforeReading(t *testing.T) {
	dir := writeFiles(t, map[string]string{"package.json": "{}"})
	f, err := os.Create(filepath.Join(dir, "huge.js"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 40); err != nil { // a sparse terabyte
		t.Skipf("this file system cannot hold a sparse terabyte: %v", err)
	}
	f.Close()
	_, err = ReadWorkspace(dir)
	if err == nil || !strings.Contains(err.Error(), "huge.js: 1099511627776 bytes, over the 262144-byte limit") {
		t.Errorf("error %v, want huge.js refused by its size", err)
	}
}

func TestReadWorkspaceRefusesTooMuchInTotal(t *testing.T) {
	files := map[string]string{}
	for i := range 9 {
		files[filepath.Join("src", string(rune('a'+i))+".js")] = strings.Repeat("x", MaxFileBytes-1)
	}
	_, err := ReadWorkspace(writeFiles(t, files))
	if err == nil || !strings.Contains(err.Error(), "the workspace would hold over 2097152 bytes") {
		t.Errorf("error %v, want the total refused", err)
	}
}

func TestReadWorkspaceRefusesLinksAndBinaries(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a.js": "x"})
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link.js")); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadWorkspace(dir); err == nil || !strings.Contains(err.Error(), "link.js: not a regular file") {
		t.Errorf("symbolic link: %v", err)
	}
	dir = writeFiles(t, map[string]string{"a.bin": "\xff\xfe"})
	if _, err := ReadWorkspace(dir); err == nil || !strings.Contains(err.Error(), "a.bin: not UTF-8 text") {
		t.Errorf("binary: %v", err)
	}
}
