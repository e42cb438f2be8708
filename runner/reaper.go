package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
)

// Leftover is a managed container as a reaper sees it.
type Leftover struct {
	// ID is the engine's container id.
	ID string
	// Owner is the LabelOwner label: the racecase process that started it;
	// empty when it has none.
	Owner string
	// Created is when the engine created it.
	Created time.Time
}

// Reap force-removes every container labelled LabelManaged=true, running or
// not, and reports how many it removed. Call it at start-up, before any run:
// it also removes the runs of any other runner sharing the engine. Each extra
// "key=value" label narrows it to containers that carry that label too.
func (d *Docker) Reap(ctx context.Context, labels ...string) (removed int, err error) {
	return d.reap(ctx, labels, func(Leftover) bool { return true })
}

// ReapStale force-removes managed containers created more than age ago: no run
// lasts that long, so they are leftovers of a process that was killed. Unlike
// Reap it leaves the runs of other processes sharing the engine alone.
func (d *Docker) ReapStale(ctx context.Context, age time.Duration) (removed int, err error) {
	cutoff := time.Now().Add(-age)
	return d.reap(ctx, nil, func(l Leftover) bool { return l.Created.Before(cutoff) })
}

// ReapWhere force-removes the managed containers for which dead reports
// true, running or not, and reports how many it removed.
func (d *Docker) ReapWhere(ctx context.Context, dead func(Leftover) bool) (removed int, err error) {
	return d.reap(ctx, nil, dead)
}

// reap removes the managed containers that carry every label and that pick
// chooses.
func (d *Docker) reap(ctx context.Context, labels []string, pick func(Leftover) bool) (removed int, err error) {
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
		if !pick(Leftover{ID: c.ID, Owner: c.Labels[LabelOwner], Created: time.Unix(c.Created, 0)}) {
			continue
		}
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
