package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/racecase/racecase/docker/runnerimage"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

func images(ctx context.Context, args []string, _ func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: racecase images")
		return exitUsage
	}
	engine, tag, err := engineWithImage(ctx, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "racecase images: %v\n", err)
		return exitTrouble
	}
	defer engine.Close()
	fmt.Fprintln(stdout, tag)
	return exitOK
}

// staleAfter is the age past which a racecase container can only be a leftover
// of a killed process: far beyond any run's wall-clock limit.
const staleAfter = 10 * time.Minute

// engineWithImage connects to the Docker engine, removes stale containers left
// over by a killed process (never the live runs of another racecase process),
// and makes sure the runner image exists (building it from this host's Node.js
// when it does not). Progress goes to log.
func engineWithImage(ctx context.Context, log io.Writer) (*runner.Docker, string, error) {
	engine, err := runner.NewDocker(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("no Docker engine answers (%v); start one, e.g. with .ci/docker-engine", err)
	}
	if removed, err := engine.ReapStale(ctx, staleAfter); err != nil {
		engine.Close()
		return nil, "", fmt.Errorf("removing leftover containers: %w", err)
	} else if removed > 0 {
		fmt.Fprintf(log, "removed %d leftover racecase container(s)\n", removed)
	}
	tag, err := ensureImage(ctx, engine, log)
	if err != nil {
		engine.Close()
		return nil, "", err
	}
	return engine, tag, nil
}

// ensureImage makes sure the runner image exists on engine, building it from
// this host's Node.js when it does not, and returns its tag.
func ensureImage(ctx context.Context, engine *runner.Docker, log io.Writer) (string, error) {
	tag, built, err := runnerimage.Ensure(ctx, engine.Engine(), hiddentests.Harness(), log)
	if err != nil {
		return "", fmt.Errorf("runner image: %w", err)
	}
	if built {
		fmt.Fprintf(log, "built runner image %s\n", tag)
	}
	return tag, nil
}
