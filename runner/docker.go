package runner

import (
	"context"
	"fmt"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"
)

// cleanupTimeout bounds removing a container once its run is over.
const cleanupTimeout = 30 * time.Second

// Docker is the Runner backed by a Docker engine, reached through the
// environment (DOCKER_HOST and friends) with API version negotiation.
// It is safe for concurrent use.
type Docker struct {
	cli client.APIClient
	// cpus is how many CPUs the engine's machine has (0 when unknown): a
	// container may not be given more.
	cpus int
}

var _ Runner = (*Docker)(nil)

// NewDocker connects to the engine and checks that it answers.
func NewDocker(ctx context.Context) (*Docker, error) {
	return NewDockerAt(ctx, "")
}

// NewDockerAt connects to the Docker engine at host (e.g.
// "unix:///var/run/docker.sock" or "tcp://10.0.0.5:2376"; "" means the
// environment's, as NewDocker) and checks that it answers.
func NewDockerAt(ctx context.Context, host string) (*Docker, error) {
	opts := []client.Opt{client.FromEnv, client.WithAPIVersionNegotiation()}
	if host != "" {
		opts = append(opts, client.WithHost(host))
	}
	cli, err := client.NewClientWithOpts(opts...)
	if err != nil {
		return nil, fmt.Errorf("runner: docker client: %w", err)
	}
	d := &Docker{cli: cli}
	if err := d.Ping(ctx); err != nil {
		cli.Close()
		return nil, err
	}
	if info, err := cli.Info(ctx); err == nil {
		d.cpus = info.NCPU
	}
	return d, nil
}

// Ping checks that the engine answers.
func (d *Docker) Ping(ctx context.Context) error {
	if _, err := d.cli.Ping(ctx); err != nil {
		return fmt.Errorf("runner: docker engine: %w", err)
	}
	return nil
}

// Engine returns the underlying client, e.g. to build the runner image with
// runnerimage.Ensure over the same connection.
func (d *Docker) Engine() client.APIClient { return d.cli }

// Close releases the connection to the engine.
func (d *Docker) Close() error { return d.cli.Close() }

// kill sends SIGKILL. An error is ignored: the container may have exited
// already, and the wait reports its end either way.
func (d *Docker) kill(ctx context.Context, id string) {
	_ = d.cli.ContainerKill(ctx, id, "KILL")
}

// remove force-removes a container on a context of its own that survives the
// cancellation of ctx.
func (d *Docker) remove(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	err := d.cli.ContainerRemove(ctx, id, container.RemoveOptions{Force: true, RemoveVolumes: true})
	if err != nil && !gone(err) {
		return fmt.Errorf("runner: remove container %s: %w", id, err)
	}
	return nil
}

// gone reports a removal error that means the container is going anyway: it
// does not exist, or another client (a reaper) is already removing it.
func gone(err error) bool {
	return cerrdefs.IsNotFound(err) || (cerrdefs.IsConflict(err) && strings.Contains(err.Error(), "already in progress"))
}
