package runnerimage

import (
	"archive/tar"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// tagHexDigits is how many hex digits of the content hash the tag keeps.
const tagHexDigits = 12

// epoch is every entry's modification time, so equal inputs give equal layers.
var epoch = time.Unix(0, 0).UTC()

// sortedFiles returns files ordered by name.
func sortedFiles(files []file) []file {
	s := slices.Clone(files)
	slices.SortFunc(s, func(a, b file) int { return strings.Compare(a.name, b.name) })
	return s
}

// tagOf returns Repository:<hash>, the hash covering every entry's name, mode
// and content (the recipe is the Dockerfile entry).
func tagOf(files []file) (string, error) {
	sum := sha256.New()
	cache := loadDigestCache()
	defer cache.save()
	for _, f := range sortedFiles(files) {
		content, err := cache.digest(f)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(sum, "%q %o %x\n", f.name, tarMode(f.mode), content)
	}
	return fmt.Sprintf("%s:%x", Repository, sum.Sum(nil))[:len(Repository)+1+tagHexDigits], nil
}

// writeContext writes files as a tar build context, adding every parent
// directory an entry needs.
func writeContext(w io.Writer, files []file) error {
	tw := tar.NewWriter(w)
	written := map[string]bool{}
	for _, f := range sortedFiles(files) {
		if err := writeParents(tw, f.name, written); err != nil {
			return err
		}
		hdr := &tar.Header{Name: f.name, Mode: tarMode(f.mode), ModTime: epoch, Format: tar.FormatPAX}
		if f.mode.IsDir() {
			hdr.Typeflag, hdr.Name = tar.TypeDir, f.name+"/"
			written[f.name] = true
		} else {
			hdr.Typeflag, hdr.Size = tar.TypeReg, f.size
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("runnerimage: build context: %w", err)
		}
		if f.open != nil {
			if err := copyFrom(tw, f); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("runnerimage: build context: %w", err)
	}
	return nil
}

// writeParents writes a 0755 directory entry for each missing parent of name.
func writeParents(tw *tar.Writer, name string, written map[string]bool) error {
	var missing []string
	for dir := path.Dir(name); dir != "." && !written[dir]; dir = path.Dir(dir) {
		missing = append(missing, dir)
	}
	for _, dir := range slices.Backward(missing) {
		hdr := &tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: epoch, Format: tar.FormatPAX}
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("runnerimage: build context: %w", err)
		}
		written[dir] = true
	}
	return nil
}

// copyFrom copies f's content to w.
func copyFrom(w io.Writer, f file) error {
	r, err := f.open()
	if err != nil {
		return fmt.Errorf("runnerimage: open %s: %w", f.name, err)
	}
	defer r.Close()
	if _, err := io.Copy(w, r); err != nil {
		return fmt.Errorf("runnerimage: read %s: %w", f.name, err)
	}
	return nil
}

// tarMode returns the tar header mode bits for m.
func tarMode(m fs.FileMode) int64 {
	mode := int64(m.Perm())
	if m&fs.ModeSticky != 0 {
		mode |= 0o1000
	}
	return mode
}
