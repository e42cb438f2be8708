package runnerimage

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
)

// nodeInImage is where the node binary goes in the image.
const nodeInImage = "usr/local/bin/node"

// file is one entry of the build context.
type file struct {
	name string      // slash-separated path inside the build context
	mode fs.FileMode // permission bits, fs.ModeSticky, and fs.ModeDir for directories
	size int64
	open func() (io.ReadCloser, error) // nil for directories
	// host and identity name a host file and its version (fileIdentity),
	// under which its digest is cached; empty for generated content.
	host, identity string
}

// inputs lists every entry of the build context: the recipe, Node.js with
// its libraries, the empty directories and the harness.
func inputs(harness fs.FS) ([]file, error) {
	files := []file{
		{name: "Dockerfile", mode: 0o644, size: int64(len(recipe)), open: bytesOpener(recipe)},
		{name: "node/work", mode: fs.ModeDir | fs.ModeSticky | 0o777},
		{name: "node/tmp", mode: fs.ModeDir | fs.ModeSticky | 0o777},
	}
	node, err := nodeFiles()
	if err != nil {
		return nil, err
	}
	files = append(files, node...)
	h, err := harnessFiles(harness)
	if err != nil {
		return nil, err
	}
	return append(files, h...), nil
}

// nodeFiles returns the host's node binary and the shared libraries it links,
// each at the path the dynamic loader will look for it.
func nodeFiles() ([]file, error) {
	bin, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("runnerimage: node is not installed: %w", err)
	}
	node, err := hostFile(bin, nodeInImage)
	if err != nil {
		return nil, err
	}
	cache := loadDigestCache()
	defer cache.save()
	if libs, ok := cache.libraries(node.host, node.identity); ok {
		if files, err := withLibraries(node, libs); err == nil {
			return files, nil
		}
		// A library moved: ask ldd again.
	}
	libs, err := ldd(bin)
	if err != nil {
		return nil, err
	}
	cache.setLibraries(node.host, node.identity, libs)
	return withLibraries(node, libs)
}

// ldd returns the shared libraries the executable at bin links, the
// dynamic loader included.
func ldd(bin string) ([]string, error) {
	out, err := exec.Command("ldd", bin).CombinedOutput()
	if err != nil && !bytes.Contains(out, []byte("not a dynamic executable")) {
		return nil, fmt.Errorf("runnerimage: ldd %s: %w: %s", bin, err, out)
	}
	return parseLdd(string(out))
}

// withLibraries returns node followed by the host files of libs.
func withLibraries(node file, libs []string) ([]file, error) {
	files := make([]file, 0, len(libs)+1)
	files = append(files, node)
	for _, lib := range libs {
		f, err := hostFile(lib, strings.TrimPrefix(lib, "/"))
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// parseLdd returns the absolute library paths in ldd's output, the dynamic
// loader included, in order and without duplicates.
func parseLdd(out string) ([]string, error) {
	var libs []string
	seen := map[string]bool{}
	for _, line := range strings.Split(out, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		candidate := fields[0]
		if i := indexOf(fields, "=>"); i >= 0 {
			if i+1 >= len(fields) || fields[i+1] == "not" {
				return nil, fmt.Errorf("runnerimage: library %s not found", fields[0])
			}
			candidate = fields[i+1]
		}
		if !strings.HasPrefix(candidate, "/") || seen[candidate] {
			continue
		}
		seen[candidate] = true
		libs = append(libs, candidate)
	}
	return libs, nil
}

// indexOf returns the index of s in list, or -1.
func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

// hostFile returns the host file at hostPath, symlinks resolved, as the
// context entry node/<inImage>.
func hostFile(hostPath, inImage string) (file, error) {
	real, err := filepath.EvalSymlinks(hostPath)
	if err != nil {
		return file{}, fmt.Errorf("runnerimage: %w", err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return file{}, fmt.Errorf("runnerimage: %w", err)
	}
	if !info.Mode().IsRegular() {
		return file{}, fmt.Errorf("runnerimage: %s is not a regular file", real)
	}
	return file{
		name:     "node/" + inImage,
		mode:     info.Mode().Perm(),
		size:     info.Size(),
		open:     func() (io.ReadCloser, error) { return os.Open(real) },
		host:     real,
		identity: fileIdentity(info),
	}, nil
}

// harnessFiles returns the harness files under harness/, leaving out
// documentation, tests and hidden entries. The harness must hold
// supervisor.mjs at its root.
func harnessFiles(harness fs.FS) ([]file, error) {
	if _, err := fs.Stat(harness, "supervisor.mjs"); err != nil {
		return nil, fmt.Errorf("runnerimage: harness has no supervisor.mjs: %w", err)
	}
	var files []file
	err := fs.WalkDir(harness, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || name == "." {
			return err
		}
		if skipHarnessEntry(d) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			files = append(files, file{name: "harness/" + name, mode: fs.ModeDir | 0o755})
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return fmt.Errorf("runnerimage: harness entry %s is not a regular file", name)
		}
		files = append(files, file{
			name: "harness/" + name,
			mode: 0o644,
			size: info.Size(),
			open: func() (io.ReadCloser, error) { return harness.Open(name) },
		})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("runnerimage: read harness: %w", err)
	}
	return files, nil
}

// skipHarnessEntry reports harness entries that do not belong in the image.
func skipHarnessEntry(d fs.DirEntry) bool {
	name := d.Name()
	if strings.HasPrefix(name, ".") {
		return true
	}
	if d.IsDir() {
		switch name {
		case "test", "tests", "testdata", "__tests__":
			return true
		}
		return false
	}
	stem := strings.TrimSuffix(name, path.Ext(name))
	return path.Ext(name) == ".md" || strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, ".test")
}

// bytesOpener returns an opener for in-memory content.
func bytesOpener(b []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
}
