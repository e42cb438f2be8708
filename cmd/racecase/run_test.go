package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"testing/fstest"
)

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, func(string) string { return "" }, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestUsageAndUnknownCommand(t *testing.T) {
	if code, out, _ := runCLI(t); code != exitOK || !strings.Contains(out, "validate") {
		t.Fatalf("no arguments: code %d, output %q", code, out)
	}
	code, _, errOut := runCLI(t, "frobnicate")
	if code != exitUsage || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Fatalf("unknown command: code %d, stderr %q", code, errOut)
	}
}

func TestBadFlagsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"validate", "--runs", "0"},
		{"validate", "--format", "yaml"},
		{"check", "job-lock-double-send"},
		{"check", "--suite", "secret", "job-lock-double-send", "."},
		{"images", "extra"},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: code %d, want %d", args, code, exitUsage)
		}
	}
}

func TestCheckRejectsUnknownDossierAndMissingDirectory(t *testing.T) {
	code, _, errOut := runCLI(t, "check", "no-such-dossier", t.TempDir())
	if code != exitUsage || !strings.Contains(errOut, "no-such-dossier") {
		t.Fatalf("unknown slug: code %d, stderr %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "check", "job-lock-double-send", t.TempDir()+"/missing")
	if code != exitUsage || !strings.Contains(errOut, "reading workspace") {
		t.Fatalf("missing dir: code %d, stderr %q", code, errOut)
	}
}

func TestBrokenDossierNamesFileAndField(t *testing.T) {
	fsys := fstest.MapFS{
		"broken/dossier.yaml": {Data: []byte("format: 1\nslug: broken\ntitle: Broken\n")},
	}
	_, err := loadDossiers(fsys, []string{"broken"})
	if err == nil {
		t.Fatal("a dossier missing most fields loaded")
	}
	for _, want := range []string{"broken/dossier.yaml", "summary", "hints", "broken/repo"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not mention %q:\n%v", want, err)
		}
	}
}

func TestReorderFlags(t *testing.T) {
	got := reorderFlags([]string{"slug", "dir", "--suite", "visible", "--format=json"})
	want := []string{"--suite", "visible", "--format=json", "slug", "dir"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestShortenKeepsOneLine(t *testing.T) {
	if got := shorten("a\nb   c", 10); got != "a b c" {
		t.Fatalf("got %q", got)
	}
	if got := shorten("abcdefghijkl", 5); got != "abcd…" {
		t.Fatalf("got %q", got)
	}
}
