package runnerimage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/docker/docker/api/types/build"
)

// buildMessage is one line of the engine's JSON build stream.
type buildMessage struct {
	Stream      string `json:"stream"`
	Error       string `json:"error"`
	ErrorDetail *struct {
		Message string `json:"message"`
	} `json:"errorDetail"`
}

// buildImage streams the build context to the engine's classic builder and
// copies its output to log.
func buildImage(ctx context.Context, engine Engine, files []file, tag string, log io.Writer) error {
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(writeContext(pw, files)) }()
	defer pr.Close() // stops the writer if the engine gave up early
	resp, err := engine.ImageBuild(ctx, pr, build.ImageBuildOptions{
		Tags:        []string{tag},
		Dockerfile:  "Dockerfile",
		Remove:      true,
		ForceRemove: true,
		NetworkMode: "none",
		Labels:      map[string]string{"racecase.image": "runner-node"},
		Version:     build.BuilderV1,
	})
	if err != nil {
		return fmt.Errorf("runnerimage: build %s: %w", tag, err)
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var m buildMessage
		err := dec.Decode(&m)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("runnerimage: build %s: reading engine output: %w", tag, err)
		}
		if m.ErrorDetail != nil && m.ErrorDetail.Message != "" {
			return fmt.Errorf("runnerimage: build %s: %s", tag, m.ErrorDetail.Message)
		}
		if m.Error != "" {
			return fmt.Errorf("runnerimage: build %s: %s", tag, m.Error)
		}
		io.WriteString(log, m.Stream)
	}
}
