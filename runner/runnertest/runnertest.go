// Package runnertest gives tests the real Docker runner. Without a Docker engine
// the test is skipped, unless REQUIRE_DOCKER=1 (as in CI) makes that a failure:
// a skipped container test is not a passed one.
package runnertest

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/racecase/racecase/docker/runnerimage"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

// Engine returns a runner on the local engine, closed when the test ends.
func Engine(t testing.TB) *runner.Docker {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := runner.NewDocker(ctx)
	if err != nil {
		if os.Getenv("REQUIRE_DOCKER") == "1" {
			t.Fatalf("REQUIRE_DOCKER=1 but the Docker engine does not answer: %v", err)
		}
		t.Skipf("no Docker engine (%v); set REQUIRE_DOCKER=1 to make this a failure", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// ExpectNoLeftovers fails the test if, when it ends, any managed container
// carrying every one of the "key=value" labels is still on the engine.
func ExpectNoLeftovers(t testing.TB, d *runner.Docker, labels ...string) {
	t.Helper()
	t.Cleanup(func() {
		args := filters.NewArgs(filters.Arg("label", runner.LabelManaged+"=true"))
		for _, l := range labels {
			args.Add("label", l)
		}
		list, err := d.Engine().ContainerList(context.Background(), container.ListOptions{All: true, Filters: args})
		if err != nil {
			t.Errorf("listing containers: %v", err)
		} else if len(list) > 0 {
			t.Errorf("%d racecase container(s) left behind", len(list))
		}
	})
}

var (
	imageOnce sync.Once
	imageTag  string
	imageErr  error
)

// Image returns the tag of the real runner image (the embedded harness),
// building it on d's engine the first time a test of this process asks.
func Image(t testing.TB, d *runner.Docker) string {
	t.Helper()
	imageOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		imageTag, _, imageErr = runnerimage.Ensure(ctx, d.Engine(), hiddentests.Harness(), nil)
	})
	if imageErr != nil {
		t.Fatalf("runner image: %v", imageErr)
	}
	return imageTag
}
