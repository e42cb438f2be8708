package runner

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Suite names which tests the supervisor runs; the payload carries it.
type Suite string

const (
	// SuiteVisible is the learner's own reproduction check.
	SuiteVisible Suite = "visible"
	// SuiteHidden is the hidden concurrency suite passed in Job.Secret.
	SuiteHidden Suite = "hidden"
)

// Job is one run: a suite of an image against a workspace, within limits.
type Job struct {
	// Image is the runner image to start, e.g. "racecase-runner-node:0123456789ab".
	Image string
	// Suite is passed to the supervisor in the payload.
	Suite Suite
	// Files is the learner's workspace, keyed by relative slash-separated path.
	Files map[string][]byte
	// Secret holds the hidden suite's files; nil for visible runs.
	Secret map[string][]byte
	// Limits bounds the run; zero fields take DefaultLimits values.
	Limits Limits
	// Labels are extra container labels; they cannot replace the runner's own.
	// A Pool serves a job only from a warm container made with the same
	// image, limits and labels.
	Labels map[string]string
	// RunLabels are extra labels that describe this run alone (its dossier,
	// suite, run id). A container made for the job carries them; a Pool's
	// warm container, made before its run was known, does not.
	RunLabels map[string]string
}

// validate reports a Job the runner must not start.
func (j Job) validate() error {
	if j.Image == "" {
		return errors.New("runner: job has no image")
	}
	if j.Suite != SuiteVisible && j.Suite != SuiteHidden {
		return fmt.Errorf("runner: unknown suite %q", j.Suite)
	}
	var total int64
	for _, files := range []map[string][]byte{j.Files, j.Secret} {
		for name, data := range files {
			if err := checkRelPath(name); err != nil {
				return err
			}
			total += int64(len(data))
		}
	}
	if total > j.Limits.TmpfsBytes {
		return fmt.Errorf("runner: the job's files hold %d bytes, more than the %d bytes of the container's /work", total, j.Limits.TmpfsBytes)
	}
	return nil
}

// checkRelPath accepts only clean, relative, slash-separated paths that stay
// inside the directory they are written to.
func checkRelPath(name string) error {
	if name == "" || name == "." || name == ".." || strings.HasPrefix(name, "/") ||
		strings.HasPrefix(name, "../") || strings.ContainsAny(name, "\\\x00") || path.Clean(name) != name {
		return fmt.Errorf("runner: bad file path %q: want a clean relative path", name)
	}
	return nil
}
