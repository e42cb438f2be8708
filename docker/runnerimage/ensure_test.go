package runnerimage_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/client"
	"github.com/docker/docker/pkg/stdcopy"
	"github.com/racecase/racecase/docker/runnerimage"
	"github.com/racecase/racecase/runner/runnertest"
)

// engine returns a client for the local Docker engine (runnertest skips the
// test when none answers, unless REQUIRE_DOCKER=1 makes that a failure).
func engine(t *testing.T) client.APIClient {
	t.Helper()
	return runnertest.Engine(t).Engine()
}

func TestEnsureBuildsARunnableImageOnce(t *testing.T) {
	cli := engine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	harness := os.DirFS("testdata/harness")

	var log bytes.Buffer
	start := time.Now()
	tag, built, err := runnerimage.Ensure(ctx, cli, harness, &log)
	if err != nil {
		t.Fatalf("Ensure: %v\n%s", err, log.String())
	}
	t.Logf("Ensure %s: built=%v in %s", tag, built, time.Since(start).Round(time.Millisecond))
	want, err := runnerimage.Tag(harness)
	if err != nil || tag != want {
		t.Fatalf("Tag = %q, %v; Ensure built %q", want, err, tag)
	}
	if _, again, err := runnerimage.Ensure(ctx, cli, harness, nil); err != nil || again {
		t.Fatalf("second Ensure: built=%v err=%v, want no rebuild", again, err)
	}

	img, err := cli.ImageInspect(ctx, tag)
	if err != nil {
		t.Fatal(err)
	}
	if img.Config.User != "1000:1000" || img.Config.WorkingDir != "/work" ||
		!reflect.DeepEqual(img.Config.Entrypoint, []string{"/usr/local/bin/node", "/opt/racecase/supervisor.mjs"}) {
		t.Errorf("image config: user %q, workdir %q, entrypoint %q", img.Config.User, img.Config.WorkingDir, img.Config.Entrypoint)
	}

	out := runOnce(ctx, t, cli, tag)
	var got struct {
		Greeting, Suite, Cwd, Home, TmpMode string
		UID                                 int
		Harness                             []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("container printed %q: %v", out, err)
	}
	if got.Greeting != "hello from the harness" || got.Suite != "visible" || got.UID != 1000 ||
		got.Cwd != "/work" || got.Home != "/tmp" || got.TmpMode != "1777" ||
		!reflect.DeepEqual(got.Harness, []string{"lib", "supervisor.mjs"}) {
		t.Errorf("inside the image: %+v", got)
	}
}

// runOnce runs the image with argument "visible" and returns its stdout.
func runOnce(ctx context.Context, t *testing.T, cli client.APIClient, image string) []byte {
	t.Helper()
	c, err := cli.ContainerCreate(ctx, &container.Config{Image: image, Cmd: []string{"visible"}},
		&container.HostConfig{NetworkMode: "none"}, nil, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	defer cli.ContainerRemove(context.WithoutCancel(ctx), c.ID, container.RemoveOptions{Force: true})
	exited, waitErr := cli.ContainerWait(ctx, c.ID, container.WaitConditionNextExit)
	if err := cli.ContainerStart(ctx, c.ID, container.StartOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-waitErr:
		t.Fatal(err)
	case st := <-exited:
		if st.StatusCode != 0 {
			t.Errorf("exit code %d", st.StatusCode)
		}
	}
	logs, err := cli.ContainerLogs(ctx, c.ID, container.LogsOptions{ShowStdout: true, ShowStderr: true})
	if err != nil {
		t.Fatal(err)
	}
	defer logs.Close()
	var stdout, stderr bytes.Buffer
	if _, err := stdcopy.StdCopy(&stdout, &stderr, logs); err != nil {
		t.Fatal(err)
	}
	if stderr.Len() > 0 {
		t.Logf("stderr: %s", stderr.String())
	}
	return stdout.Bytes()
}
