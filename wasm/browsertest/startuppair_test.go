package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// startupPairEnv names the two builds BenchmarkStartupPair compares:
// "THEN,NOW", each a folder with the build's server and web/ (game.wasm,
// wasm_exec.js and their .br and .gz), as scripts/startuppair.sh makes
// them.
const startupPairEnv = "SIGHTLINE_STARTUP_PAIR"

// startupPairVisits is how many first visits BenchmarkStartupPair makes of
// each build in one round (SIGHTLINE_STARTUP_VISITS overrides it).
const startupPairVisits = 6

// BenchmarkStartupPair measures the start-up of two builds side by side, as
// `make startup-pair` asks: first visits (a fresh browser each, nothing
// cached) to each build's own server, alternately, so that both see the
// same machine. It logs every visit's phases and each phase's median, and
// reports the medians of the first frame with the world shown
// (then-frame-ms, now-frame-ms) and their difference (now-minus-then-ms).
// The VM's speed drifts, so only the two sides of one run compare. Run it
// once a round (-benchtime 1x); without SIGHTLINE_STARTUP_PAIR it has
// nothing to compare and stops.
func BenchmarkStartupPair(b *testing.B) {
	pair := os.Getenv(startupPairEnv)
	if pair == "" {
		b.Skip("nothing to compare: `make startup-pair` builds the two sides (" + startupPairEnv + "=THEN,NOW)")
	}
	sides := strings.Split(pair, ",")
	if len(sides) != 2 {
		b.Fatalf("%s=%q: want THEN,NOW", startupPairEnv, pair)
	}
	visits := startupPairVisits
	if v := os.Getenv("SIGHTLINE_STARTUP_VISITS"); v != "" {
		if _, err := fmt.Sscan(v, &visits); err != nil || visits < 1 {
			b.Fatalf("SIGHTLINE_STARTUP_VISITS=%q: want a count", v)
		}
	}
	chromium := requireChromium(b)
	names := []string{"then", "now"}
	var bases [2]string
	for i, dir := range sides {
		bases[i] = startServer(b, filepath.Join(dir, "server"), filepath.Join(dir, "web"))
	}
	fields := []struct {
		name string
		ms   func(p phases) float64
	}{
		{"goMainMs", func(p phases) float64 { return p.GoMainMs }},
		{"connectedMs", func(p phases) float64 { return p.ConnectedMs }},
		{"gameLoopMs", func(p phases) float64 { return p.GameLoopMs }},
		{"firstSnapshotMs", func(p phases) float64 { return p.FirstSnapshotMs }},
		{"firstWorldDrawMs", func(p phases) float64 { return p.FirstWorldDrawMs }},
		{"firstWorldFrameMs", func(p phases) float64 { return p.FirstWorldFrameMs }},
	}
	var got [2][]phases
	for b.Loop() {
		for v := range visits {
			for i, base := range bases {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
				browser := startBrowser(b, ctx, chromium)
				p := loadStartup(b, newTab(b, browser, fmt.Sprintf("%s-%d", names[i], v)), base+"/?name=pair", true)
				cancel()
				if p.FirstWorldFrameMs <= 0 {
					b.Fatalf("%s, visit %d: no frame with the world", names[i], v)
				}
				var row strings.Builder
				for _, f := range fields {
					fmt.Fprintf(&row, " %s %.0f", f.name, f.ms(p))
				}
				b.Logf("%s, visit %d:%s", names[i], len(got[i])+1, row.String())
				got[i] = append(got[i], p)
			}
		}
	}
	b.Logf("medians of %d first visits each (ms from navigation):", len(got[0]))
	b.Logf("| phase | then (%s) | now (%s) | now - then |", sides[0], sides[1])
	var frame [2]float64
	for _, f := range fields {
		var med [2]float64
		for i := range got {
			var ms []float64
			for _, p := range got[i] {
				ms = append(ms, f.ms(p))
			}
			med[i] = median(ms)
		}
		b.Logf("| %s | %.0f | %.0f | %+.0f |", f.name, med[0], med[1], med[1]-med[0])
		if f.name == "firstWorldFrameMs" {
			frame = med
		}
	}
	b.ReportMetric(frame[0], "then-frame-ms")
	b.ReportMetric(frame[1], "now-frame-ms")
	b.ReportMetric(frame[1]-frame[0], "now-minus-then-ms")
}

// median returns the median of ms (the mean of the middle two for an even
// count).
func median(ms []float64) float64 {
	s := slices.Sorted(slices.Values(ms))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
