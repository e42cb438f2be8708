package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// Reap force-removes every container labelled LabelManaged=true, running or
// not, and reports how many it removed. Call it at start-up, before any run:
// it also removes the runs of any other runner sharing the engine. Each extra
// "key=value" label narrows it to containers that carry that label too.
func (d *Docker) Reap(ctx context.Context, labels ...string) (removed int, err error) {
	args := filters.NewArgs(filters.Arg("label", LabelManaged+"=true"))
	for _, l := range labels {
		args.Add("label", l)
	}
	list, err := d.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: args})
	if err != nil {
		return 0, fmt.Errorf("runner: list managed containers: %w", err)
	}
	var errs []error
	for _, c := range list {
		err := d.cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
		switch {
		case err == nil:
			removed++
		case gone(err):
			// removed already, or being removed by someone else
		default:
			errs = append(errs, fmt.Errorf("runner: reap container %s: %w", c.ID, err))
		}
	}
	return removed, errors.Join(errs...)
}
