package authoring

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
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

// SuiteFindings is what checking a hidden suite found.
type SuiteFindings struct {
	// Problems keep the suite from running as written, or its count budgets
	// from deciding before the CPU-time limit.
	Problems challenges.Problems
	// Gaps are the parts of the dossier's fault model that the suite's
	// scenarios do not explore, or explore beyond it (see suiteGaps). They are
	// reported but do not yet fail lint.
	Gaps challenges.Problems
}

// SuiteProblems checks a hidden suite without Docker, as a hidden run would load
// it: the syntax of each of its files (`node --check`), every field and name
// in it, and that the subject module of repo exports the factory, that the
// factory starts and that what it returns has the method deliveries call.
// files are the suite's files by name (hiddentests.SourcesFrom), dir the
// folder an author opens them in; problems name the file with the line. When
// cpu (the dossier's CPU-time limit) is set, it must cover the scenarios' work
// budgets. When model (the dossier's fault model) is set, a suite that
// exports a function receives it, and the scenarios are held against it
// (Gaps). Node.js must be on PATH; an error means the check itself could not run.
func SuiteProblems(ctx context.Context, dir string, files map[string][]byte, repo map[string][]byte, cpu time.Duration, model *challenges.FaultModel) (SuiteFindings, error) {
	file := path.Join(dir, hiddentests.SuiteFile)
	node, err := exec.LookPath("node")
	if err != nil {
		return SuiteFindings{Problems: challenges.Problems{{File: file, Message: "the suite was not checked: Node.js is not on PATH",
			Fix: "install Node.js 20 to check hidden suites without Docker"}}}, nil
	}
	bundled, err := hiddentests.Bundle(files)
	if err != nil {
		return SuiteFindings{Problems: challenges.Problems{{File: file, Message: err.Error(),
			Fix: "a suite is suite.mjs and the files beside it that it imports as './name.mjs'"}}}, nil
	}
	work, err := os.MkdirTemp("", "racecase-suite-lint-")
	if err != nil {
		return SuiteFindings{}, err
	}
	defer os.RemoveAll(work)
	// Each file is checked for syntax where it has its own name and lines; the
	// rest is checked on the one module a run carries, alone in its folder.
	sourcesDir := filepath.Join(work, "sources")
	suiteDir := filepath.Join(work, "suite")
	repoDir := filepath.Join(work, "repo")
	secret := map[string][]byte{hiddentests.SuiteFile: bundled}
	if model != nil {
		data, err := json.Marshal(model.ForSuite())
		if err != nil {
			return SuiteFindings{}, err
		}
		secret[challenges.FaultModelFile] = data
	}
	if err := writeTree(filepath.Join(work, "harness"), hiddentests.Harness()); err != nil {
		return SuiteFindings{}, err
	}
	if err := writeFiles(repoDir, repo); err != nil {
		return SuiteFindings{}, err
	}
	if err := writeFiles(suiteDir, secret); err != nil {
		return SuiteFindings{}, err
	}
	if err := writeFiles(sourcesDir, files); err != nil {
		return SuiteFindings{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, suiteCheckTimeout)
	defer cancel()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if p, ok := syntaxProblem(ctx, node, filepath.Join(sourcesDir, name), path.Join(dir, name)); ok {
			return SuiteFindings{Problems: challenges.Problems{p}}, nil
		}
	}
	args := []string{filepath.Join(suiteDir, hiddentests.SuiteFile), repoDir}
	if model != nil {
		args = append(args, filepath.Join(suiteDir, challenges.FaultModelFile))
	}
	out, err := checkSemantics(ctx, node, work, args, file)
	if err != nil {
		return SuiteFindings{}, err
	}
	if p, over := workProblem(file, out.work, cpu); over {
		out.problems = append(out.problems, p)
	}
	findings := SuiteFindings{Problems: out.problems}
	if model != nil {
		findings.Gaps = suiteGaps(file, *model, out.worlds)
	}
	return findings, nil
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

// semantics is what lint-suite.mjs reports: the suite's problems, its
// scenarios' work budgets added up and what each scenario explores (both
// empty when the suite has problems).
type semantics struct {
	problems challenges.Problems
	work     int
	worlds   []scenarioWorld
}

// checkSemantics runs the harness's lint-suite.mjs with args under Node's
// permission model.
func checkSemantics(ctx context.Context, node, dir string, args []string, file string) (semantics, error) {
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, node, append([]string{"--experimental-vm-modules", "--no-warnings",
		"--experimental-permission", "--allow-fs-read=" + dir + "/*",
		filepath.Join(dir, "harness", "lint-suite.mjs")}, args...)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return semantics{}, fmt.Errorf("checking %s: %v: %s", file, err, strings.TrimSpace(stderr.String()))
	}
	var out struct {
		Problems []struct {
			Field   string `json:"field"`
			Message string `json:"message"`
			Fix     string `json:"fix"`
			Line    int    `json:"line"`
		} `json:"problems"`
		Work   int             `json:"work"`
		Worlds []scenarioWorld `json:"worlds"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		return semantics{}, fmt.Errorf("checking %s: unreadable report: %v", file, err)
	}
	s := semantics{work: out.Work, worlds: out.Worlds}
	for _, p := range out.Problems {
		s.problems = append(s.problems, challenges.Problem{File: file, Line: p.Line, Field: p.Field, Message: p.Message, Fix: p.Fix})
	}
	return s, nil
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
