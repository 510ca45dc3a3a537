package figuretest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/sightline-game/sightline/internal/figures"
)

// A held figure's log line, as `go test -v` prints it, is found again by
// name, with its content whole.
func TestParseFindsHeldFigures(t *testing.T) {
	out := "=== RUN   TestX\n" +
		"    x_test.go:12: " + prefix + "diff-last-sent: 384 of 488 ticks wrong: a colon, | and all \n" +
		"    x_test.go:13: held figure Bad_Name: not a figure\n" +
		"    x_test.go:14: figure start-up, first visit: not held\n" +
		"--- PASS: TestX (0.01s)\n"
	got := Parse(out)
	if len(got) != 1 || got["diff-last-sent"] != "384 of 488 ticks wrong: a colon, | and all" {
		t.Errorf("parsed %q", got)
	}
}

// check passes a figure as docs/figures.md holds it and names what is
// stale or missing.
func TestCheckComparesWithTheFiguresFile(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, err := figures.ModuleRoot(wd)
	if err != nil {
		t.Fatal(err)
	}
	figs, err := figures.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	f := figs[0]
	if err := check(f.Name, f.Content); err != nil {
		t.Errorf("%s as the file holds it: %v", f.Name, err)
	}
	if err := check(f.Name, f.Content+" and more"); !errors.Is(err, figures.ErrStale) {
		t.Errorf("%s with another content: %v, want %v", f.Name, err, figures.ErrStale)
	}
	if err := check("no-such-figure", "x"); !errors.Is(err, figures.ErrUnknown) {
		t.Errorf("an unknown figure: %v, want %v", err, figures.ErrUnknown)
	}
	if _, err := os.Stat(filepath.Join(root, figures.Path)); err != nil {
		t.Fatal(err)
	}
}
