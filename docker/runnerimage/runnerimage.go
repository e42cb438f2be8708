// Package runnerimage builds the runner image, offline, from the host's
// Node.js and the test harness: a FROM scratch image holding node, the shared
// libraries it links, and the harness under /opt/racecase/. The image is tagged
// with a hash of everything that goes into it, so a changed recipe, harness or
// Node.js gets a new tag and is built once.
package runnerimage

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"io/fs"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/build"
	"github.com/docker/docker/api/types/image"
	"github.com/docker/docker/client"
)

// Repository is the image name; the tag is a content hash.
const Repository = "racecase-runner-node"

// recipe is the Dockerfile of the generated build context.
//
//go:embed Dockerfile.scratch
var recipe []byte

// Engine is the part of the Docker client that Ensure uses; *client.Client
// and client.APIClient satisfy it.
type Engine interface {
	ImageInspect(ctx context.Context, image string, opts ...client.ImageInspectOption) (image.InspectResponse, error)
	ImageBuild(ctx context.Context, buildContext io.Reader, options build.ImageBuildOptions) (build.ImageBuildResponse, error)
}

// Tag returns the image reference, Repository:<12 hex digits>, that the
// given harness and this host's Node.js build to.
func Tag(harness fs.FS) (string, error) {
	files, err := inputs(harness)
	if err != nil {
		return "", err
	}
	return tagOf(files)
}

// Ensure makes sure the runner image for harness exists on the engine,
// building it when its tag is missing, and returns the tag. Build output goes
// to log, which may be nil.
func Ensure(ctx context.Context, engine Engine, harness fs.FS, log io.Writer) (tag string, built bool, err error) {
	files, err := inputs(harness)
	if err != nil {
		return "", false, err
	}
	tag, err = tagOf(files)
	if err != nil {
		return "", false, err
	}
	_, err = engine.ImageInspect(ctx, tag)
	switch {
	case err == nil:
		return tag, false, nil
	case !cerrdefs.IsNotFound(err):
		return "", false, fmt.Errorf("runnerimage: inspect %s: %w", tag, err)
	}
	if log == nil {
		log = io.Discard
	}
	if err := buildImage(ctx, engine, files, tag, log); err != nil {
		return "", false, err
	}
	return tag, true, nil
}
