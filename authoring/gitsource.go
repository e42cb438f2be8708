package authoring

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/racecase/racecase/challenges"
)

// ErrBadSource reports a git source that cannot give the repository asked
// for: unreachable, not a repository, an unknown ref, a missing folder, or
// files a learner's workspace cannot hold.
var ErrBadSource = errors.New("git source")

// snapshot is the files of one folder of one commit.
type snapshot struct {
	commit string            // the commit's full hash
	files  map[string][]byte // slash path inside the folder → content
}

// readSource reads the folder sub (the root when empty) of the commit that
// ref names (HEAD when empty) in the git repository at from. A URL is cloned
// into memory; a local path (or file:// URL) is read in place. No git binary
// is needed and nothing is written.
func readSource(ctx context.Context, from, ref, sub string) (*snapshot, error) {
	repo, err := openSource(ctx, from)
	if err != nil {
		return nil, err
	}
	if ref == "" {
		ref = string(plumbing.HEAD)
	}
	hash, err := repo.ResolveRevision(plumbing.Revision(ref))
	if err != nil {
		return nil, fmt.Errorf("%w: %s has no commit, branch or tag %q%s", ErrBadSource, from, ref, knownRefs(repo))
	}
	commit, err := repo.CommitObject(*hash)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %q is not a commit: %v", ErrBadSource, from, ref, err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: reading commit %s: %v", ErrBadSource, from, hash, err)
	}
	if sub != "" {
		top := topFolders(tree)
		if tree, err = tree.Tree(sub); err != nil {
			return nil, fmt.Errorf("%w: commit %s of %s has no folder %q (top-level folders: %s)",
				ErrBadSource, short(hash.String()), from, sub, strings.Join(top, ", "))
		}
	}
	files, err := treeFiles(repo, tree)
	if err != nil {
		return nil, fmt.Errorf("%w: commit %s of %s: %v", ErrBadSource, short(hash.String()), from, err)
	}
	return &snapshot{commit: hash.String(), files: files}, nil
}

// openSource opens a local repository in place or clones a remote one into
// memory, with every branch and tag.
func openSource(ctx context.Context, from string) (*git.Repository, error) {
	ep, err := transport.NewEndpoint(from)
	if err != nil {
		return nil, fmt.Errorf("%w: %q is neither a git URL nor a path: %v", ErrBadSource, from, err)
	}
	if ep.Protocol != "file" {
		repo, err := git.CloneContext(ctx, memory.NewStorage(), nil, &git.CloneOptions{URL: from, Mirror: true})
		if err != nil {
			return nil, fmt.Errorf("%w: cannot clone %s: %v", ErrBadSource, from, err)
		}
		return repo, nil
	}
	if _, err := os.Stat(ep.Path); err != nil {
		return nil, fmt.Errorf("%w: cannot read %s: %v", ErrBadSource, from, err)
	}
	repo, err := git.PlainOpen(ep.Path)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a git repository: %v", ErrBadSource, from, err)
	}
	return repo, nil
}

// treeFiles reads every file of tree, refusing what a learner's workspace
// cannot hold: links, submodules, node_modules, binary or oversized files.
func treeFiles(repo *git.Repository, tree *object.Tree) (map[string][]byte, error) {
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	files := map[string][]byte{}
	total := 0
	for {
		name, entry, err := walker.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch entry.Mode {
		case filemode.Dir:
			if entry.Name == "node_modules" {
				return nil, fmt.Errorf("%s: installed packages are committed; a learner's repository runs on Node.js alone", name)
			}
			continue
		case filemode.Regular, filemode.Executable, filemode.Deprecated:
		case filemode.Symlink:
			return nil, fmt.Errorf("%s: a symbolic link; a learner's repository holds plain files only", name)
		case filemode.Submodule:
			return nil, fmt.Errorf("%s: a git submodule; copy its files into the repository, or import it with --path", name)
		default:
			return nil, fmt.Errorf("%s: unsupported git file mode %s", name, entry.Mode)
		}
		data, err := blobData(repo, entry.Hash)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		total += len(data)
		switch {
		case len(data) > challenges.MaxFileBytes:
			return nil, fmt.Errorf("%s: %d bytes, over the %d-byte limit of one workspace file", name, len(data), challenges.MaxFileBytes)
		case !utf8.Valid(data):
			return nil, fmt.Errorf("%s: not UTF-8 text; a learner's workspace holds text files only", name)
		case total > challenges.MaxWorkspaceBytes:
			return nil, fmt.Errorf("more than the %d bytes a workspace holds; import a smaller folder with --path", challenges.MaxWorkspaceBytes)
		}
		files[name] = data
	}
	if len(files) == 0 {
		return nil, errors.New("the folder holds no files")
	}
	return files, nil
}

// blobData reads a blob, at most one byte over the workspace file limit.
func blobData(repo *git.Repository, hash plumbing.Hash) ([]byte, error) {
	blob, err := repo.BlobObject(hash)
	if err != nil {
		return nil, err
	}
	r, err := blob.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, challenges.MaxFileBytes+1))
}

// knownRefs lists the repository's branches and tags for an error message.
func knownRefs(repo *git.Repository) string {
	refs, err := repo.References()
	if err != nil {
		return ""
	}
	var names []string
	_ = refs.ForEach(func(r *plumbing.Reference) error {
		if n := r.Name(); n.IsBranch() || n.IsTag() {
			names = append(names, n.Short())
		}
		return nil
	})
	if len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	return " (branches and tags: " + strings.Join(names, ", ") + ")"
}

// topFolders lists the folders at the top of tree, for an error message.
func topFolders(tree *object.Tree) []string {
	var dirs []string
	for _, e := range tree.Entries {
		if e.Mode == filemode.Dir {
			dirs = append(dirs, e.Name)
		}
	}
	return dirs
}

// short abbreviates a commit hash for messages.
func short(hash string) string {
	return hash[:min(len(hash), 12)]
}

// cleanSubfolder checks a --path value and returns it as a clean slash path
// ("" for the repository's root).
func cleanSubfolder(sub string) (string, error) {
	sub = strings.Trim(strings.ReplaceAll(sub, `\`, "/"), "/")
	if sub == "" || sub == "." {
		return "", nil
	}
	if clean := path.Clean(sub); clean != sub || strings.HasPrefix(clean, "../") || clean == ".." {
		return "", fmt.Errorf("%w: folder %q is not a clean path inside the repository", ErrBadSource, sub)
	}
	return sub, nil
}
