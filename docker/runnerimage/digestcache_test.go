package runnerimage

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestTagReadsAHostFileOnlyWhenItChanged(t *testing.T) {
	dir := t.TempDir()
	cacheFile := filepath.Join(dir, "cache", "digests.json")
	saved := digestCacheFile
	digestCacheFile = func() (string, error) { return cacheFile, nil }
	t.Cleanup(func() { digestCacheFile = saved })

	bin := filepath.Join(dir, "node")
	if err := os.WriteFile(bin, []byte("version one"), 0o755); err != nil {
		t.Fatal(err)
	}
	reads := 0
	hostFiles := func() []file {
		f, err := hostFile(bin, nodeInImage)
		if err != nil {
			t.Fatal(err)
		}
		open := f.open
		f.open = func() (io.ReadCloser, error) { reads++; return open() }
		return []file{f}
	}

	first, err := tagOf(hostFiles())
	if err != nil || reads != 1 {
		t.Fatalf("first tag %q, %v after %d reads; want 1 read", first, err, reads)
	}
	if again, err := tagOf(hostFiles()); err != nil || again != first || reads != 1 {
		t.Fatalf("second tag %q, %v after %d reads; want %q from the cache", again, err, reads, first)
	}

	// Same size, same modification time, other content: still noticed.
	info, err := os.Stat(bin)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // a change time the file system can tell apart
	if err := os.WriteFile(bin, []byte("version two"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(bin, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	changed, err := tagOf(hostFiles())
	if err != nil || changed == first || reads != 2 {
		t.Fatalf("tag after the change %q, %v after %d reads; want a new tag from a second read", changed, err, reads)
	}

	// A damaged cache is recomputed, not trusted.
	if err := os.WriteFile(cacheFile, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if again, err := tagOf(hostFiles()); err != nil || again != changed || reads != 3 {
		t.Fatalf("tag over a damaged cache %q, %v after %d reads; want %q from a third read", again, err, reads, changed)
	}
}

func TestNodeFilesAsksLddOnlyWhenNodeChanged(t *testing.T) {
	bin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	saved := digestCacheFile
	digestCacheFile = func() (string, error) { return filepath.Join(dir, "digests.json"), nil }
	t.Cleanup(func() { digestCacheFile = saved })
	names := func(files []file) []string {
		var out []string
		for _, f := range files {
			out = append(out, f.host)
		}
		return out
	}

	fromLdd, err := nodeFiles()
	if err != nil {
		t.Fatal(err)
	}
	node, err := hostFile(bin, nodeInImage)
	if err != nil {
		t.Fatal(err)
	}
	// A list in the cache for this very node is taken as it is: ldd is not asked.
	stand := filepath.Join(dir, "libstand-in.so")
	if err := os.WriteFile(stand, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := loadDigestCache()
	c.setLibraries(node.host, node.identity, []string{stand})
	c.save()
	if got, err := nodeFiles(); err != nil || !slices.Equal(names(got), []string{node.host, stand}) {
		t.Fatalf("with a cached list: %v, %v", names(got), err)
	}
	// A cached library that is gone sends it back to ldd.
	if err := os.Remove(stand); err != nil {
		t.Fatal(err)
	}
	if got, err := nodeFiles(); err != nil || !slices.Equal(names(got), names(fromLdd)) {
		t.Fatalf("with a library gone: %v, %v; want %v", names(got), err, names(fromLdd))
	}
}
