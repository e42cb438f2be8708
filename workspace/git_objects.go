package workspace

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// Objects is a workspace repository's stored objects in memory, to which a
// push adds the objects of its pack before the service checks them.
type Objects struct {
	*memory.Storage
	stored map[plumbing.Hash]bool
}

// Stored reports whether the object was in the database when the objects
// were loaded, as opposed to added since (by a push's pack).
func (o *Objects) Stored(h plumbing.Hash) bool { return o.stored[h] }

// loadObjects reads every stored object of a workspace.
func loadObjects(ctx context.Context, q store.Queries, wsID string) (*Objects, error) {
	rows, err := q.ListGitObjects(ctx, wsID)
	if err != nil {
		return nil, wrap(err, "list git objects")
	}
	objs := &Objects{Storage: memory.NewStorage(), stored: make(map[plumbing.Hash]bool, len(rows))}
	for _, r := range rows {
		o, err := decodeObject(r.Type, r.Data)
		if err != nil {
			return nil, wrap(err, "decode git object "+r.Hash)
		}
		if o.Hash().String() != r.Hash {
			return nil, wrap(fmt.Errorf("content hashes to %s", o.Hash()), "git object "+r.Hash)
		}
		if _, err := objs.SetEncodedObject(o); err != nil {
			return nil, wrap(err, "load git object "+r.Hash)
		}
		objs.stored[o.Hash()] = true
	}
	return objs, nil
}

// decodeObject inflates a stored object.
func decodeObject(typ string, data []byte) (plumbing.EncodedObject, error) {
	t, err := plumbing.ParseObjectType(typ)
	if err != nil {
		return nil, err
	}
	zr, err := zlib.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	content, err := io.ReadAll(zr)
	if err != nil {
		return nil, err
	}
	return newObject(t, content), nil
}

// newObject returns an object of type t holding content.
func newObject(t plumbing.ObjectType, content []byte) plumbing.EncodedObject {
	o := &plumbing.MemoryObject{}
	o.SetType(t)
	_, _ = o.Write(content) // a MemoryObject's writes do not fail
	return o
}

// storeObjects adds objects the workspace does not hold yet.
func storeObjects(ctx context.Context, q store.Queries, wsID string, objs []plumbing.EncodedObject) error {
	for _, o := range objs {
		hash := o.Hash().String()
		n, err := q.HasGitObject(ctx, db.HasGitObjectParams{WorkspaceID: wsID, Hash: hash})
		if err != nil {
			return wrap(err, "look up git object "+hash)
		}
		if n > 0 {
			continue
		}
		data, err := compressObject(o)
		if err != nil {
			return wrap(err, "compress git object "+hash)
		}
		if err := q.InsertGitObject(ctx, db.InsertGitObjectParams{WorkspaceID: wsID, Hash: hash, Type: o.Type().String(), Data: data}); err != nil {
			return wrap(err, "store git object "+hash)
		}
	}
	return nil
}

// compressObject deflates an object's content as git does for loose objects.
func compressObject(o plumbing.EncodedObject) ([]byte, error) {
	r, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	if _, err := io.Copy(zw, r); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// treeOf builds the tree objects of files (content by slash path) and
// returns the root tree's hash with every tree and blob.
func treeOf(files map[string]string) (plumbing.Hash, []plumbing.EncodedObject, error) {
	root := &treeNode{}
	var objs []plumbing.EncodedObject
	for p, content := range files {
		blob := newObject(plumbing.BlobObject, []byte(content))
		objs = append(objs, blob)
		root.add(strings.Split(p, "/"), blob.Hash())
	}
	h, err := root.encode(&objs)
	return h, objs, err
}

// treeNode is one directory while a tree is built.
type treeNode struct {
	files map[string]plumbing.Hash
	dirs  map[string]*treeNode
}

// add places a blob at the path given by its segments.
func (n *treeNode) add(segments []string, blob plumbing.Hash) {
	if len(segments) == 1 {
		if n.files == nil {
			n.files = map[string]plumbing.Hash{}
		}
		n.files[segments[0]] = blob
		return
	}
	if n.dirs == nil {
		n.dirs = map[string]*treeNode{}
	}
	sub := n.dirs[segments[0]]
	if sub == nil {
		sub = &treeNode{}
		n.dirs[segments[0]] = sub
	}
	sub.add(segments[1:], blob)
}

// encode encodes the directory and its subdirectories, appending each tree
// to objs, and returns the directory's hash.
func (n *treeNode) encode(objs *[]plumbing.EncodedObject) (plumbing.Hash, error) {
	var entries []object.TreeEntry
	for _, name := range slices.Sorted(maps.Keys(n.dirs)) {
		h, err := n.dirs[name].encode(objs)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
	}
	for name, h := range n.files {
		entries = append(entries, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h})
	}
	sort.Sort(object.TreeEntrySorter(entries))
	o := &plumbing.MemoryObject{}
	if err := (&object.Tree{Entries: entries}).Encode(o); err != nil {
		return plumbing.ZeroHash, err
	}
	*objs = append(*objs, o)
	return o.Hash(), nil
}

// commitObject encodes a commit by racecase of tree on parent (none when
// parent is the zero hash).
func commitObject(tree, parent plumbing.Hash, message string, when time.Time) (plumbing.EncodedObject, error) {
	sig := object.Signature{Name: "racecase", Email: "racecase@racecase.invalid", When: when.UTC()}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: tree}
	if !parent.IsZero() {
		c.ParentHashes = []plumbing.Hash{parent}
	}
	o := &plumbing.MemoryObject{}
	if err := c.Encode(o); err != nil {
		return nil, err
	}
	return o, nil
}
