package workspace

import (
	"strings"
	"unicode/utf8"
)

// maxPathBytes bounds a file path.
const maxPathBytes = 512

// CleanPath checks a file path taken from a request and returns it as
// workspaces store it: relative, slash-separated and clean. It rejects empty,
// absolute, backslashed, non-UTF-8 and overlong paths, and any path with an
// empty, "." or ".." segment, each with an EINVALID error that says why.
func CleanPath(p string) (string, error) {
	switch {
	case p == "":
		return "", Errorf(EINVALID, "A file path is required.")
	case len(p) > maxPathBytes:
		return "", Errorf(EINVALID, "The file path is longer than %d bytes.", maxPathBytes)
	case !utf8.ValidString(p):
		return "", Errorf(EINVALID, "The file path is not valid UTF-8.")
	case strings.ContainsAny(p, "\\\x00"):
		return "", Errorf(EINVALID, "The file path %q holds a backslash or a NUL character; use forward slashes.", p)
	case strings.HasPrefix(p, "/"):
		return "", Errorf(EINVALID, "The file path %q is absolute; paths are relative to the repository root.", p)
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "..":
			return "", Errorf(EINVALID, "The file path %q contains \"..\"; only files inside the repository can be named.", p)
		case "", ".":
			return "", Errorf(EINVALID, "The file path %q is not clean: it has an empty or \".\" segment.", p)
		}
	}
	return p, nil
}

// repoFile checks that p (already clean) names a file of d's repository.
func (d *dossier) repoFile(p string) error {
	if _, ok := d.files[p]; !ok {
		return Errorf(ENOTFOUND, "There is no file %q in this workspace; a workspace holds the files of the dossier's repository.", p)
	}
	return nil
}

// writable checks that p names a repository file the learner may change.
func (d *dossier) writable(p string) error {
	if err := d.repoFile(p); err != nil {
		return err
	}
	if d.readonly[p] {
		return Errorf(EFORBIDDEN, "The file %q is read-only in this dossier; change the code instead.", p)
	}
	return nil
}

// CheckContent checks a file's new content: UTF-8 text without NUL
// characters, at most MaxFileBytes.
func CheckContent(p, content string) error {
	if err := checkFileSize(p, int64(len(content))); err != nil {
		return err
	}
	switch {
	case !utf8.ValidString(content):
		return Errorf(EINVALID, "The content of %q is not valid UTF-8; only text files can be saved.", p)
	case strings.ContainsRune(content, 0):
		return Errorf(EINVALID, "The content of %q holds a NUL character; only text files can be saved.", p)
	}
	return nil
}

// checkFileSize refuses a file of more than MaxFileBytes.
func checkFileSize(p string, size int64) error {
	if size <= MaxFileBytes {
		return nil
	}
	return &Error{Code: ETOOLARGE,
		Message: "The file " + quote(p) + " would be " + FormatSize(size) + "; one file may hold at most " + FormatSize(MaxFileBytes) + ".",
		Data:    map[string]any{"limit_bytes": MaxFileBytes, "size_bytes": size}}
}
