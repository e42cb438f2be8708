package instructor

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
	"slices"
)

// versionOf returns a short digest of a dossier's files (its folder in fsys)
// and its hidden suite: two validations of the same version proved the
// same thing.
func versionOf(fsys fs.FS, slug string, hidden map[string][]byte) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(fsys, slug, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", p, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("read %s: %w", slug, err)
	}
	names := make([]string, 0, len(hidden))
	for name := range hidden {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		fmt.Fprintf(h, "%s\x00%d\x00", path.Join("hidden", name), len(hidden[name]))
		h.Write(hidden[name])
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}
