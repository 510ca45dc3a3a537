package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sightline-game/sightline/internal/figures"
	"github.com/sightline-game/sightline/internal/figures/figuretest"
)

// Both bandwidth tables are seeded, so docs/figures.md must hold them as
// this code prints them: a change to the format, the model or the game
// that moves a byte must come with `make figures FIGURES=bytes`. The
// command is built without the race detector and both tables run at once:
// about 75 s of two cores, almost all of it the arena's table.
func TestTablesAsInFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs both tables (about 75 s)")
	}
	t.Parallel() // beside TestReplaySizeAsInFigures: the model's table leaves a core free
	root, err := figures.ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	figs, err := figures.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	byName := figures.Index(figs)
	exe := netbenchBinary(t)
	cases := []struct {
		name string
		args []string
		out  bytes.Buffer
		err  error
	}{
		{name: figures.BandwidthModel, args: []string{"-table"}},
		{name: figures.BandwidthArena, args: []string{"-traffic", "arena", "-table"}},
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i := range cases {
		c := &cases[i]
		wg.Go(func() {
			cmd := exec.Command(exe, c.args...)
			cmd.Stdout, cmd.Stderr = &c.out, os.Stderr
			c.err = cmd.Run()
		})
	}
	wg.Wait()
	t.Logf("both tables in %v", time.Since(start).Round(100*time.Millisecond))
	for _, c := range cases {
		if c.err != nil {
			t.Errorf("netbench %s: %v", strings.Join(c.args, " "), c.err)
			continue
		}
		got := strings.TrimRight(c.out.String(), "\n")
		f, ok := byName[c.name]
		switch {
		case !ok:
			t.Errorf("%s has no figure %s: run `make figures FIGURES=bytes`", figures.Path, c.name)
		case f.Content != got:
			t.Errorf("figure %s in %s (measured %s) is stale: run `make figures FIGURES=bytes`\n--- in the file\n%s\n--- netbench %s\n%s",
				c.name, figures.Path, f.Measured, f.Content, strings.Join(c.args, " "), got)
		}
	}
}

// A replay of the first arena row's match is seeded too: its size a minute
// (broadcast.Recorder's file: whole fragments, no parts) beside what the
// players were sent, which the documents quote.
func TestReplaySizeAsInFigures(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 2-minute match of 32 bots (about 25 s)")
	}
	t.Parallel()
	cmd := exec.Command(netbenchBinary(t), "-traffic", "arena", "-seconds", "120", "-replay", "-json")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var r arenaResult
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	rp := r.Replay
	if rp == nil || rp.Mismatched != 0 || rp.Ticks != uint64(r.Ticks) {
		t.Fatalf("replay %+v of %d ticks", rp, r.Ticks)
	}
	figuretest.Hold(t, "replay-size", fmt.Sprintf("a %.0f-minute match of %d players and %d creatures takes %s bytes a minute as a replay, %s ticks played back with %d mismatched, against the %s bytes a minute its players were sent: %.2fx",
		r.Seconds/60, r.Players, r.Creatures, figures.Thousands(int(math.Round(rp.BytesPerMin))), figures.Thousands(int(rp.Ticks)), rp.Mismatched,
		figures.Thousands(int(math.Round(rp.PlayersPerMin))), rp.BytesPerMin/rp.PlayersPerMin))
}
