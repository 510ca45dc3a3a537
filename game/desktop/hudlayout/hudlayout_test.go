package hudlayout

import (
	"testing"

	"github.com/sightline-game/sightline/assets"
	"github.com/sightline-game/sightline/assets/glyphs"
	"github.com/sightline-game/sightline/game/desktop/text"
	"github.com/sightline-game/sightline/game/desktop/touch"
)

func face(t *testing.T, name string) *glyphs.Face {
	t.Helper()
	f, _, err := assets.Font(name)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The HUD's hint and a host's status, as the game draws them.
const (
	hint   = "WASD move · mouse aim · click fire · Shift dash · Enter chat · Tab scores · F3 network · M mute · Esc menu"
	status = "hosting: others join with -join http://192.168.1.23:8080"
)

// TestBottomLinesClearTheBars lays out the bottom-right lines on a
// landscape window and on a portrait phone (390x844, an iPhone 12's
// points, before its first touch: the keyboard hint shows), with and
// without the power-up's bar: no line's panel reaches over the bottom-left
// row of bars (health, weapon, power-up), every line is inside the screen,
// whole on its panel, and the lines do not cover each other.
func TestBottomLinesClearTheBars(t *testing.T) {
	f := face(t, glyphs.Regular13)
	for _, tc := range []struct {
		name      string
		outW      int
		outH      int
		power     bool
		status    string
		hint      string
		wantLines int
		atBottom  bool // the lowest line at the screen's bottom, not above the bars
	}{
		{"desktop window", 1280, 720, false, status, hint, 2, true},
		{"desktop window, powered up", 1280, 720, true, status, hint, 3, true},
		{"portrait phone", 390, 844, false, status, hint, 2, false},
		{"portrait phone, powered up", 390, 844, true, status, hint, 2, false},
		{"portrait phone, touched: no hint", 390, 844, false, "playing at http://127.0.0.1:37091", "", 1, true},
		{"landscape phone", 844, 390, false, status, hint, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, h := touch.Screen(tc.outW, tc.outH)
			sw, sh := float64(w), float64(h)
			row := BottomRow(sh, tc.power)
			if bar := HealthBar(sw, sh); !row.Overlaps(bar) || bar.X < row.X || bar.Y < row.Y {
				t.Errorf("the row %+v does not hold the health bar %+v", row, bar)
			}
			lines := BottomRight(sw, sh, f, tc.power, tc.status, tc.hint)
			if len(lines) != tc.wantLines {
				t.Fatalf("%d lines, want %d: %+v", len(lines), tc.wantLines, lines)
			}
			if bottom := lines[0].TextY == sh-24; bottom != tc.atBottom {
				t.Errorf("the lowest line's text at y %v on a %v px screen: at the bottom %v, want %v", lines[0].TextY, sh, bottom, tc.atBottom)
			}
			for i, l := range lines {
				if l.Box.Overlaps(row) {
					t.Errorf("line %q's panel %+v overlaps the bars %+v", l.Text, l.Box, row)
				}
				if l.Box.X < 0 || l.Box.X+l.Box.W > sw || l.Box.Y < 0 || l.Box.Y+l.Box.H > sh {
					t.Errorf("line %q's panel %+v leaves the %vx%v screen", l.Text, l.Box, sw, sh)
				}
				if tw := text.Advance(l.Text, f); tw > l.Box.W || l.TextX-tw < l.Box.X || l.TextX > l.Box.X+l.Box.W {
					t.Errorf("line %q (%v px, ending at %v) is not on its panel %+v", l.Text, tw, l.TextX, l.Box)
				}
				for _, o := range lines[i+1:] {
					if l.Box.Overlaps(o.Box) {
						t.Errorf("lines %q and %q overlap", l.Text, o.Text)
					}
				}
			}
		})
	}
	// The hint on one line at the bottom, as the game drew it before: on
	// the portrait phone it reaches over the health bar.
	sw, sh := 720.0, 1280.0
	w := text.Advance(hint, f)
	old := Rect{sw - 14 - w, sh - 24, w, 18}
	if !old.Overlaps(HealthBar(sw, sh)) {
		t.Errorf("the one-line hint (%v px) clears the health bar on a 720 px screen: the test shows nothing", w)
	}
}

// TestPanelWidthFitsTheRows sizes the network overlay's panel to its
// widest row in Go Mono 13: the packet row is wider than the panel's old
// fixed 372 px less its margins.
func TestPanelWidthFitsTheRows(t *testing.T) {
	f := face(t, glyphs.Mono13)
	rows := []string{
		"tick 123456   60 fps  60 tps  input rtt 120 ms",
		"packet 1180 B  full 1180 B  (mean 1000 / 1180, -15 %)",
	}
	const least, pad = 372, 12
	if w := text.Advance(rows[1], f); w+2*pad <= least {
		t.Fatalf("the packet row is %v px: it fits the old panel, the test shows nothing", w)
	}
	got := PanelWidth(rows, f, least, pad)
	for _, r := range rows {
		if text.Advance(r, f)+2*pad > got {
			t.Errorf("row %q (%v px) does not fit a %v px panel", r, text.Advance(r, f), got)
		}
	}
	if want := text.Advance(rows[1], f) + 2*pad; got != want {
		t.Errorf("PanelWidth = %v, want the widest row and its margins, %v", got, want)
	}
	if got := PanelWidth([]string{"short"}, f, least, pad); got != least {
		t.Errorf("PanelWidth of a short row = %v, want the least, %v", got, least)
	}
}
