package authoring

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

// suiteCheckTimeout bounds the Node.js processes that check one suite.
const suiteCheckTimeout = time.Minute

// checkLine is the first line `node --check` prints for a syntax error: the file and line.
var checkLine = regexp.MustCompile(`^(.+):(\d+)$`)

// SuiteProblems checks a hidden suite without Docker, as a hidden run would load
// it: its syntax (`node --check`), every field and name in it, and that the
// subject module of repo exports the factory, that the factory starts and that
// what it returns has the method deliveries call. Problems name the suite as
// file (a path for the author to open) with the line. When cpu (the dossier's
// CPU-time limit) is set, it must cover the scenarios' work budgets. Node.js
// must be on PATH; an error means the check itself could not run.
func SuiteProblems(ctx context.Context, file string, suite []byte, repo map[string][]byte, cpu time.Duration) (challenges.Problems, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return challenges.Problems{{File: file, Message: "the suite was not checked: Node.js is not on PATH",
			Fix: "install Node.js 20 to check hidden suites without Docker"}}, nil
	}
	dir, err := os.MkdirTemp("", "racecase-suite-lint-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	suitePath := filepath.Join(dir, "suite", hiddentests.SuiteFile)
	repoDir := filepath.Join(dir, "repo")
	if err := writeTree(filepath.Join(dir, "harness"), hiddentests.Harness()); err != nil {
		return nil, err
	}
	if err := writeFiles(repoDir, repo); err != nil {
		return nil, err
	}
	if err := writeFiles(filepath.Dir(suitePath), map[string][]byte{hiddentests.SuiteFile: suite}); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, suiteCheckTimeout)
	defer cancel()
	if p, ok := syntaxProblem(ctx, node, suitePath, file); ok {
		return challenges.Problems{p}, nil
	}
	ps, work, err := checkSemantics(ctx, node, dir, suitePath, repoDir, file)
	if p, over := workProblem(file, work, cpu); over {
		ps = append(ps, p)
	}
	return ps, err
}

// syntaxProblem runs `node --check` on the suite and turns a syntax error into a problem.
func syntaxProblem(ctx context.Context, node, suitePath, file string) (challenges.Problem, bool) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, "--check", suitePath)
	cmd.Stderr = &stderr
	if cmd.Run() == nil {
		return challenges.Problem{}, false
	}
	p := challenges.Problem{File: file, Message: "the suite does not parse", Fix: "fix the syntax at this line"}
	for i, line := range strings.Split(stderr.String(), "\n") {
		if m := checkLine.FindStringSubmatch(line); i == 0 && m != nil {
			p.Line, _ = strconv.Atoi(m[2])
		}
		if strings.HasPrefix(line, "SyntaxError:") {
			p.Message = line
		}
	}
	return p, true
}

// checkSemantics runs the harness's lint-suite.mjs under Node's permission
// model; work is the scenarios' work budgets added up (0 when the suite has
// problems).
func checkSemantics(ctx context.Context, node, dir, suitePath, repoDir, file string) (challenges.Problems, int, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, "--experimental-vm-modules", "--no-warnings",
		"--experimental-permission", "--allow-fs-read="+dir+"/*",
		filepath.Join(dir, "harness", "lint-suite.mjs"), suitePath, repoDir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, 0, fmt.Errorf("checking %s: %v: %s", file, err, strings.TrimSpace(stderr.String()))
	}
	var out struct {
		Problems []struct {
			Field   string `json:"field"`
			Message string `json:"message"`
			Fix     string `json:"fix"`
			Line    int    `json:"line"`
		} `json:"problems"`
		Work int `json:"work"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return nil, 0, fmt.Errorf("checking %s: unreadable report: %v", file, err)
	}
	var ps challenges.Problems
	for _, p := range out.Problems {
		ps = append(ps, challenges.Problem{File: file, Line: p.Line, Field: p.Field, Message: p.Message, Fix: p.Fix})
	}
	return ps, out.Work, nil
}

// writeTree copies every file of fsys under dir.
func writeTree(dir string, fsys fs.FS) error {
	return fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		return writeFiles(dir, map[string][]byte{name: data})
	})
}

// writeFiles writes files (slash paths) under dir.
func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		target := filepath.Join(dir, filepath.FromSlash(name))
		if !strings.HasPrefix(target, filepath.Clean(dir)+string(filepath.Separator)) {
			return errors.New("authoring: file outside its folder: " + name)
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
