package runnerimage

import (
	"io"
	"os"
	"path/filepath"
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
