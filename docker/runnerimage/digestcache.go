package runnerimage

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// digestCache remembers the SHA-256 of host files (the Node.js binary and
// its libraries, about 100 MB) by their identity, so that computing the tag
// reads them only when they change. It lives in the user's cache directory;
// without one, every digest is computed.
type digestCache struct {
	path    string                  // the cache file; "" for none
	entries map[string]cachedDigest // by host path
	changed bool
}

// cachedDigest is a file's digest and the identity it was computed for.
type cachedDigest struct {
	Identity string `json:"identity"`
	SHA256   []byte `json:"sha256"`
}

// digestCacheFile returns the cache file's path; tests replace it.
var digestCacheFile = func() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "racecase", "runnerimage-digests.json"), nil
}

// loadDigestCache reads the cache; a missing or unreadable one is empty.
func loadDigestCache() *digestCache {
	c := &digestCache{entries: map[string]cachedDigest{}}
	path, err := digestCacheFile()
	if err != nil {
		return c
	}
	c.path = path
	if raw, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(raw, &c.entries) // a damaged cache is recomputed
	}
	return c
}

// digest returns f's content digest, from the cache when f's identity is
// unchanged since it was computed.
func (c *digestCache) digest(f file) ([]byte, error) {
	if f.host == "" || f.identity == "" {
		return contentDigest(f)
	}
	if e, ok := c.entries[f.host]; ok && e.Identity == f.identity {
		return e.SHA256, nil
	}
	sum, err := contentDigest(f)
	if err != nil {
		return nil, err
	}
	c.entries[f.host] = cachedDigest{Identity: f.identity, SHA256: sum}
	c.changed = true
	return sum, nil
}

// save writes the cache back when it changed, atomically; failing to is
// not an error: the digests are computed again next time.
func (c *digestCache) save() {
	if !c.changed || c.path == "" {
		return
	}
	raw, err := json.Marshal(c.entries)
	if err != nil || os.MkdirAll(filepath.Dir(c.path), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.path), ".digests-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(raw)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), c.path) != nil {
		os.Remove(tmp.Name())
	}
}

// contentDigest reads f and returns the SHA-256 of its content.
func contentDigest(f file) ([]byte, error) {
	h := sha256.New()
	if f.open != nil {
		if err := copyFrom(h, f); err != nil {
			return nil, err
		}
	}
	return h.Sum(nil), nil
}

// fileIdentity names a host file's version without reading it: its size,
// modification and change times, inode and device. Replacing or rewriting
// the file changes its change time even when the modification time is set
// back, so a cached digest is never taken for a file that changed.
func fileIdentity(info os.FileInfo) string {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return "" // not on this platform: always read
	}
	return fmt.Sprintf("%d %d %d.%d %d %d", info.Size(), info.ModTime().UnixNano(), st.Ctim.Sec, st.Ctim.Nsec, st.Ino, st.Dev)
}
