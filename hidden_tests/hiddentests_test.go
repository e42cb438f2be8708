package hiddentests

import (
	"errors"
	"testing"
	"testing/fstest"
)

func TestSuiteFrom(t *testing.T) {
	fsys := fstest.MapFS{"tiny/suite.mjs": {Data: []byte("export default {}")}}
	files, err := SuiteFrom(fsys, "tiny")
	if err != nil || string(files[SuiteFile]) != "export default {}" {
		t.Fatalf("SuiteFrom(tiny) = %q, %v", files, err)
	}
	for _, slug := range []string{"missing", "", "../tiny", "a/b"} {
		if _, err := SuiteFrom(fsys, slug); !errors.Is(err, ErrNoSuite) {
			t.Errorf("SuiteFrom(%q): err %v, want ErrNoSuite", slug, err)
		}
	}
}

func TestEveryEmbeddedSuiteIsFound(t *testing.T) {
	for _, slug := range []string{"job-lock-double-send", "transfers-deadlock"} {
		if _, err := Suite(slug); err != nil {
			t.Errorf("Suite(%q): %v", slug, err)
		}
	}
}
