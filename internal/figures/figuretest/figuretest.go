// Package figuretest lets a seeded test hold a figure the documentation
// quotes, so that the figure cannot go stale: Hold logs the figure as the
// figures command collects it (`make figures FIGURES=seeded`), and fails
// the test when docs/figures.md holds another content for it. Change the
// code, and the test names the figure to measure again.
package figuretest

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/internal/figures"
)

// MeasuringEnv is the environment variable the figures command sets while
// it runs the tests for their figures: then Hold only logs.
const MeasuringEnv = "SIGHTLINE_FIGURES_MEASURING"

// prefix starts the log line of a held figure.
const prefix = "held figure "

// line matches a held figure's log line in `go test -v` output: its name
// and its content.
var line = regexp.MustCompile(prefix + `([a-z0-9-]+): (.*)$`)

// Hold logs figure name with content (one line) and fails t unless
// docs/figures.md holds exactly that content for it, or the figures
// command is measuring.
func Hold(t testing.TB, name, content string) {
	t.Helper()
	if !figures.ValidName(name) || strings.ContainsAny(content, "\r\n") {
		t.Fatalf("figure %q: a name of lower case, digits and dashes and one line of content, got %q", name, content)
	}
	t.Logf("%s%s: %s", prefix, name, content)
	if os.Getenv(MeasuringEnv) != "" {
		return
	}
	if err := check(name, content); err != nil {
		t.Errorf("%v; `make figures FIGURES=seeded` measures it again", err)
	}
}

// check compares content with figure name in the module's figures file.
func check(name, content string) error {
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := figures.ModuleRoot(wd)
	if err != nil {
		return err
	}
	figs, err := figures.Load(root)
	if err != nil {
		return err
	}
	f, ok := figures.Index(figs)[name]
	if !ok {
		return fmt.Errorf("figure %s: %w", name, figures.ErrUnknown)
	}
	if f.Content != content {
		return fmt.Errorf("figure %s: %w: it says %q, the test measured %q", name, figures.ErrStale, f.Content, content)
	}
	return nil
}

// Parse returns the figures held in the output of `go test -v`, by name.
func Parse(out string) map[string]string {
	held := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if m := line.FindStringSubmatch(strings.TrimRight(l, " ")); m != nil {
			held[m[1]] = m[2]
		}
	}
	return held
}
