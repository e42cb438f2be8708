// Package runnertest gives tests the real Docker runner. Without a Docker engine
// the test is skipped, unless REQUIRE_DOCKER=1 (as in CI) makes that a failure:
// a skipped container test is not a passed one.
package runnertest

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
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
