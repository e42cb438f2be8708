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
	path    string // the cache file; "" for none
	entries cacheEntries
	changed bool
}

// cacheEntries is what the cache file holds.
type cacheEntries struct {
	// Digests holds content digests by host path.
	Digests map[string]cachedDigest `json:"digests"`
	// Libraries holds what ldd listed for an executable, by its host path:
	// running ldd loads the whole binary, as long as hashing it.
	Libraries map[string]cachedLibraries `json:"libraries"`
}

// cachedDigest is a file's digest and the identity it was computed for.
type cachedDigest struct {
	Identity string `json:"identity"`
	SHA256   []byte `json:"sha256"`
}

// cachedLibraries is the shared libraries an executable links, and the
// identity of the executable they were listed for.
type cachedLibraries struct {
	Identity string   `json:"identity"`
	Paths    []string `json:"paths"`
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
	c := &digestCache{}
	if path, err := digestCacheFile(); err == nil {
		c.path = path
		if raw, err := os.ReadFile(path); err == nil && json.Unmarshal(raw, &c.entries) != nil {
			c.entries = cacheEntries{} // a damaged cache is recomputed
		}
	}
	if c.entries.Digests == nil {
		c.entries.Digests = map[string]cachedDigest{}
	}
	if c.entries.Libraries == nil {
		c.entries.Libraries = map[string]cachedLibraries{}
	}
	return c
}

// digest returns f's content digest, from the cache when f's identity is
// unchanged since it was computed.
func (c *digestCache) digest(f file) ([]byte, error) {
	if f.host == "" || f.identity == "" {
		return contentDigest(f)
	}
	if e, ok := c.entries.Digests[f.host]; ok && e.Identity == f.identity {
		return e.SHA256, nil
	}
	sum, err := contentDigest(f)
	if err != nil {
		return nil, err
	}
	c.entries.Digests[f.host] = cachedDigest{Identity: f.identity, SHA256: sum}
	c.changed = true
	return sum, nil
}

// libraries returns the libraries cached for the executable at bin with
// the given identity.
func (c *digestCache) libraries(bin, identity string) ([]string, bool) {
	e, ok := c.entries.Libraries[bin]
	if !ok || identity == "" || e.Identity != identity {
		return nil, false
	}
	return e.Paths, true
}

// setLibraries caches the libraries of the executable at bin.
func (c *digestCache) setLibraries(bin, identity string, libs []string) {
	if identity == "" {
		return
	}
	c.entries.Libraries[bin] = cachedLibraries{Identity: identity, Paths: libs}
	c.changed = true
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
