package runner

import (
	"context"
	"errors"
	"fmt"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// Reap force-removes every container labelled LabelManaged=true, running or
// not, and reports how many it removed. Call it at start-up, before any run:
// it also removes the runs of any other runner sharing the engine.
func (d *Docker) Reap(ctx context.Context) (removed int, err error) {
	list, err := d.cli.ContainerList(ctx, container.ListOptions{
		All:     true,
		Filters: filters.NewArgs(filters.Arg("label", LabelManaged+"=true")),
	})
	if err != nil {
		return 0, fmt.Errorf("runner: list managed containers: %w", err)
	}
	var errs []error
	for _, c := range list {
		err := d.cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
		switch {
		case err == nil:
			removed++
		case cerrdefs.IsNotFound(err):
			// gone already
		default:
			errs = append(errs, fmt.Errorf("runner: reap container %s: %w", c.ID, err))
		}
	}
	return removed, errors.Join(errs...)
}
