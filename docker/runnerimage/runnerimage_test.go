package runnerimage

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

func TestParseLdd(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    []string
		wantErr bool
	}{
		{
			name: "debian node",
			out: "\tlinux-vdso.so.1 (0x00007ffd)\n" +
				"\tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f42)\n" +
				"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f42)\n" +
				"\t/lib64/ld-linux-x86-64.so.2 (0x00007f42)\n",
			want: []string{"/lib/x86_64-linux-gnu/libdl.so.2", "/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2"},
		},
		{
			name: "duplicates kept once",
			out:  "\tlibc.so.6 => /lib/libc.so.6 (0x1)\n\tlibc.so.6 => /lib/libc.so.6 (0x1)\n",
			want: []string{"/lib/libc.so.6"},
		},
		{name: "static binary", out: "\tnot a dynamic executable\n", want: nil},
		{name: "missing library", out: "\tlibfoo.so.1 => not found\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseLdd(tt.out)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHarnessFilesLeavesOutDocsAndTests(t *testing.T) {
	harness := fstest.MapFS{
		"supervisor.mjs":         {Data: []byte("x")},
		"lib/explore.mjs":        {Data: []byte("x")},
		"lib/explore_test.mjs":   {Data: []byte("x")},
		"lib/explore.test.mjs":   {Data: []byte("x")},
		"PROTOCOL.md":            {Data: []byte("x")},
		"test/supervisor.mjs":    {Data: []byte("x")},
		"testdata/fixture.json":  {Data: []byte("x")},
		".eslintrc.json":         {Data: []byte("x")},
		"vendor/.hidden/x.mjs":   {Data: []byte("x")},
		"vendor/acorn/index.mjs": {Data: []byte("x")},
	}
	files, err := harnessFiles(harness)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.name)
	}
	want := []string{"harness/lib", "harness/lib/explore.mjs", "harness/supervisor.mjs",
		"harness/vendor", "harness/vendor/acorn", "harness/vendor/acorn/index.mjs"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestHarnessFilesNeedsSupervisor(t *testing.T) {
	_, err := harnessFiles(fstest.MapFS{"lib/x.mjs": {Data: []byte("x")}})
	if err == nil || !strings.Contains(err.Error(), "supervisor.mjs") {
		t.Fatalf("err = %v, want one naming supervisor.mjs", err)
	}
}

func TestWriteContext(t *testing.T) {
	files := []file{
		{name: "Dockerfile", mode: 0o644, size: 4, open: bytesOpener([]byte("FROM"))},
		{name: "node/usr/local/bin/node", mode: 0o755, size: 3, open: bytesOpener([]byte("ELF"))},
		{name: "node/tmp", mode: fs.ModeDir | fs.ModeSticky | 0o777},
		{name: "harness/supervisor.mjs", mode: 0o644, size: 2, open: bytesOpener([]byte("//"))},
	}
	var buf bytes.Buffer
	if err := writeContext(&buf, files); err != nil {
		t.Fatal(err)
	}
	type entry struct {
		name    string
		mode    int64
		content string
	}
	var got []entry
	tr := tar.NewReader(&buf)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		got = append(got, entry{hdr.Name, hdr.Mode, string(b)})
	}
	want := []entry{
		{"Dockerfile", 0o644, "FROM"},
		{"harness/", 0o755, ""},
		{"harness/supervisor.mjs", 0o644, "//"},
		{"node/", 0o755, ""},
		{"node/tmp/", 0o1777, ""},
		{"node/usr/", 0o755, ""},
		{"node/usr/local/", 0o755, ""},
		{"node/usr/local/bin/", 0o755, ""},
		{"node/usr/local/bin/node", 0o755, "ELF"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestTagOfCoversNameModeAndContent(t *testing.T) {
	base := []file{{name: "a", mode: 0o644, open: bytesOpener([]byte("x"))}}
	variants := map[string][]file{
		"content": {{name: "a", mode: 0o644, open: bytesOpener([]byte("y"))}},
		"mode":    {{name: "a", mode: 0o755, open: bytesOpener([]byte("x"))}},
		"name":    {{name: "b", mode: 0o644, open: bytesOpener([]byte("x"))}},
		"extra":   append(base[:1:1], file{name: "c", mode: fs.ModeDir | 0o755}),
	}
	tag, err := tagOf(base)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tag, Repository+":") || len(tag) != len(Repository)+1+tagHexDigits {
		t.Fatalf("tag %q, want %s:<%d hex>", tag, Repository, tagHexDigits)
	}
	if again, _ := tagOf(base); again != tag {
		t.Errorf("tag not stable: %s then %s", tag, again)
	}
	for name, files := range variants {
		if other, _ := tagOf(files); other == tag {
			t.Errorf("changing the %s kept tag %s", name, tag)
		}
	}
}

func TestTagFollowsHarness(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	a, err := Tag(fstest.MapFS{"supervisor.mjs": {Data: []byte("// a")}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Tag(fstest.MapFS{"supervisor.mjs": {Data: []byte("// b")}})
	if err != nil {
		t.Fatal(err)
	}
	docs, err := Tag(fstest.MapFS{"supervisor.mjs": {Data: []byte("// a")}, "NOTES.md": {Data: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	if a == b {
		t.Errorf("different harnesses share tag %s", a)
	}
	if a != docs {
		t.Errorf("a markdown file changed the tag: %s vs %s", a, docs)
	}
}
