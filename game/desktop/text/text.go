// Package text lays out the game's text in its bitmap fonts (package
// assets/glyphs): it measures strings and places every glyph of a string on
// whole pixels, aligned at its start, centre or end, line under line. It
// draws nothing and needs no display; the desktop client draws the glyphs
// it places as sub-images of the face's atlas (game/desktop/fonts.go).
//
// There is no shaping: each rune is one glyph, advancing by the glyph's own
// advance (the Go fonts have neither kerning nor ligatures), and a rune the
// face lacks takes the face's fallback box.
package text

import (
	"iter"
	"math"
	"strings"

	"github.com/sightline-game/sightline/assets/glyphs"
)

// Align says which point of each line the x of Layout is.
type Align int

// The alignments: x is the start (left edge), the centre or the end (right
// edge) of every line.
const (
	AlignStart Align = iota
	AlignCenter
	AlignEnd
)

// Placed is one glyph to draw: its index in the face's Glyphs and the
// pixel where the top-left corner of its atlas rectangle goes.
type Placed struct {
	Index int
	X, Y  int
}

// Advance returns how wide s is in f, in pixels: the width of its widest
// line.
func Advance(s string, f *glyphs.Face) float64 {
	w := 0
	for line := range strings.SplitSeq(s, "\n") {
		w = max(w, lineAdvance(line, f))
	}
	return float64(w) / 64
}

// lineAdvance is the advance of one line, in 1/64 pixel.
func lineAdvance(line string, f *glyphs.Face) int {
	w := 0
	for _, r := range line {
		w += f.Glyphs[f.Index(r)].Advance
	}
	return w
}

// Ascent returns the face's ascent in pixels: how far the first line's
// baseline lies below the y of Layout.
func Ascent(f *glyphs.Face) float64 { return float64(f.Ascent) / 64 }

// Descent returns the face's descent in pixels.
func Descent(f *glyphs.Face) float64 { return float64(f.Descent) / 64 }

// Layout places the glyphs of s in f: y is the top of the first line,
// whose baseline lies the face's ascent below it, and each further line
// (after a '\n') lies lineSpacing pixels lower; x is where each line
// starts, has its centre or ends, as align says. Glyphs without an image
// (spaces) are left out. The pen keeps fractions of a pixel; each glyph
// lands on the pixel nearest to it.
func Layout(s string, f *glyphs.Face, x, y float64, align Align, lineSpacing float64) iter.Seq[Placed] {
	return func(yield func(Placed) bool) {
		top := math.Round(y)
		i := 0
		for line := range strings.SplitSeq(s, "\n") {
			baseline := top + math.Floor(float64(i)*lineSpacing+Ascent(f))
			i++
			pen := x
			switch align {
			case AlignCenter:
				pen -= float64(lineAdvance(line, f)) / 64 / 2
			case AlignEnd:
				pen -= float64(lineAdvance(line, f)) / 64
			}
			for _, r := range line {
				gi := f.Index(r)
				g := &f.Glyphs[gi]
				if g.W > 0 && g.H > 0 {
					p := Placed{Index: gi, X: int(math.Floor(pen+0.5)) + g.OffX, Y: int(baseline) + g.OffY}
					if !yield(p) {
						return
					}
				}
				pen += float64(g.Advance) / 64
			}
		}
	}
}
