// Package runner runs one test suite against a learner's workspace in a fresh,
// locked-down container and turns what happened into Results.
//
// It knows nothing about dossiers: a Job names an image, a suite, the files to
// test and the limits to enforce. The container side of the conversation is
// described in hidden_tests/harness/PROTOCOL.md.
package runner

import "context"

// Runner runs jobs. Run returns an error only for infrastructure failures (the
// engine is down, the image is missing, the caller cancelled); anything the
// learner's code does is reported as a Verdict in the Results.
type Runner interface {
	Run(ctx context.Context, job Job) (*Results, error)
}
