package text

import (
	"slices"
	"testing"

	"github.com/sightline-game/sightline/assets"
	"github.com/sightline-game/sightline/assets/glyphs"
)

// A face of three glyphs with round numbers: 'a' 8 px wide advancing 10,
// 'b' 6 px advancing 7.5, a space advancing 4, the fallback box advancing 9.
func tiny(t *testing.T) *glyphs.Face {
	t.Helper()
	f := &glyphs.Face{
		Ascent: 12 * 64, Descent: 4 * 64, Height: 18 * 64, AtlasW: 32, AtlasH: 16,
		Glyphs: []glyphs.Glyph{
			{Rune: ' ', Advance: 4 * 64},
			{Rune: 'a', X: 1, Y: 1, W: 8, H: 8, OffX: 1, OffY: -8, Advance: 10 * 64},
			{Rune: 'b', X: 10, Y: 1, W: 6, H: 11, OffX: 0, OffY: -11, Advance: 7*64 + 32},
			{Rune: glyphs.Fallback, X: 17, Y: 1, W: 7, H: 10, OffX: 1, OffY: -10, Advance: 9 * 64},
		},
	}
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestAdvance(t *testing.T) {
	f := tiny(t)
	for s, want := range map[string]float64{
		"":          0,
		"a":         10,
		"ab":        17.5,
		"a b":       21.5,
		"é":         9, // the fallback box
		"ab\na":     17.5,
		"a\nbbbb\n": 30,
	} {
		if got := Advance(s, f); got != want {
			t.Errorf("Advance(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestLayoutAlignsEachLine(t *testing.T) {
	f := tiny(t)
	type tc struct {
		s     string
		x, y  float64
		align Align
		want  []Placed
	}
	for _, c := range []tc{
		// Baseline at 20+12; 'a' at pen 100 (+1), 'b' at 110, 'a' after a
		// space at 117.5+4 = 121.5, rounded to 122.
		{"ab a", 100, 20, AlignStart, []Placed{{1, 101, 24}, {2, 110, 21}, {1, 123, 24}}},
		// 31.5 wide: centred on 100 the pen starts at 84.25; ending at 100,
		// at 68.5 (halves round up).
		{"ab a", 100, 20, AlignCenter, []Placed{{1, 85, 24}, {2, 94, 21}, {1, 107, 24}}},
		{"ab a", 100, 20, AlignEnd, []Placed{{1, 70, 24}, {2, 79, 21}, {1, 91, 24}}},
		// Each line is aligned on its own; the second baseline is
		// floor(12 + 18.5) = 30 below y; the fallback for the unknown rune.
		{"ab\nb", 50, 0, AlignEnd, []Placed{{1, 34, 4}, {2, 43, 1}, {2, 43, 19}}},
		{"你", 0, 0.4, AlignStart, []Placed{{3, 1, 2}}},
		{"  ", 0, 0, AlignStart, nil},
	} {
		got := slices.Collect(Layout(c.s, f, c.x, c.y, c.align, 18.5))
		if !slices.Equal(got, c.want) {
			t.Errorf("Layout(%q, %v, %v, %v) = %v, want %v", c.s, c.x, c.y, c.align, got, c.want)
		}
	}
}

func TestLayoutStopsWhenAsked(t *testing.T) {
	n := 0
	for range Layout("aaaa", tiny(t), 0, 0, AlignStart, 10) {
		n++
		if n == 2 {
			break
		}
	}
	if n != 2 {
		t.Errorf("%d glyphs after break", n)
	}
}

// With the game's own faces: the Go fonts' advances, as text/v2 measured
// them, and every glyph inside its line.
func TestTheGameFaces(t *testing.T) {
	f, _, err := assets.Font(glyphs.Regular16)
	if err != nil {
		t.Fatal(err)
	}
	if got := Advance("hello world", f); got != 78.71875 {
		t.Errorf("hello world is %v px wide in Go Regular 16, want 78.71875", got)
	}
	if a, d := Ascent(f), Descent(f); a != 15.125 || d != 3.375 {
		t.Errorf("ascent %v, descent %v, want 15.125 and 3.375", a, d)
	}
	s := "Ürsula · Łukasz — ŒUVRE…"
	n := 0
	for p := range Layout(s, f, 0, 0, AlignStart, 20) {
		g := f.Glyphs[p.Index]
		if g.Rune == glyphs.Fallback || p.Y < -1 || p.Y+g.H > 20 || p.X < 0 || float64(p.X) > Advance(s, f) {
			t.Errorf("%c placed at %d,%d (%dx%d)", g.Rune, p.X, p.Y, g.W, g.H)
		}
		n++
	}
	if n != 20 {
		t.Errorf("%d glyphs drawn, want 20", n)
	}
}
