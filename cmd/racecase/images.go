package main

import (
	"context"
	"fmt"
	"io"

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

// engineWithImage connects to the Docker engine, removes containers left over by
// an earlier process, and makes sure the runner image exists (building it from
// this host's Node.js when it does not). Progress goes to log.
func engineWithImage(ctx context.Context, log io.Writer) (*runner.Docker, string, error) {
	engine, err := runner.NewDocker(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("no Docker engine answers (%v); start one, e.g. with .ci/docker-engine", err)
	}
	if removed, err := engine.Reap(ctx); err != nil {
		engine.Close()
		return nil, "", fmt.Errorf("removing leftover containers: %w", err)
	} else if removed > 0 {
		fmt.Fprintf(log, "removed %d leftover racecase container(s)\n", removed)
	}
	tag, built, err := runnerimage.Ensure(ctx, engine.Engine(), hiddentests.Harness(), log)
	if err != nil {
		engine.Close()
		return nil, "", fmt.Errorf("runner image: %w", err)
	}
	if built {
		fmt.Fprintf(log, "built runner image %s\n", tag)
	}
	return engine, tag, nil
}
