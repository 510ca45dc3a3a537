package gen

import (
	"image"
	"testing"

	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"

	"github.com/sightline-game/sightline/assets/glyphs"
)

// The faces have every rune the game needs, at the Go fonts' own metrics:
// the advances add up to what the Go font measures (text/v2 measured
// "hello world" in Go Regular 16 as 78.71875 px), the ascent is the font's.
func TestFacesMatchTheGoFonts(t *testing.T) {
	atlas, face, err := renderFace(goregular.TTF, 16, fontRunes())
	if err != nil {
		t.Fatal(err)
	}
	if face.Ascent != 968 || face.Descent != 216 { // 15.125 and 3.375 px
		t.Errorf("ascent %d, descent %d (1/64 px), want 968 and 216", face.Ascent, face.Descent)
	}
	adv := 0
	for _, r := range "hello world" {
		adv += face.Glyphs[face.Index(r)].Advance
	}
	if adv != 5038 { // 78.71875 px
		t.Errorf("hello world advances %d/64 px, want 5038", adv)
	}
	for _, r := range "…—–·×°↑↓←→ÄéßŁőžŸ" {
		if !face.Has(r) {
			t.Errorf("no glyph for %c", r)
		}
	}
	if n := len(face.Glyphs); n < 95+96+128 {
		t.Errorf("%d glyphs", n)
	}
	if face.Index('你') != face.Index(glyphs.Fallback) || face.Index('?') == face.Index(glyphs.Fallback) {
		t.Error("a rune the face lacks does not draw as the fallback box")
	}

	// 'I' is a solid bar: its middle is opaque; one pixel around every
	// glyph is clear.
	opaque := uint8(alphaLevels - 1)
	g := face.Glyphs[face.Index('I')]
	if g.W < 1 || g.H < 10 || g.OffY > -10 {
		t.Fatalf("I is %+v", g)
	}
	if c := atlas.ColorIndexAt(g.X+g.W/2, g.Y+g.H/2); c != opaque {
		t.Errorf("the middle of I has opacity index %d, want %d", c, opaque)
	}
	for _, g := range face.Glyphs {
		if g.W == 0 {
			continue
		}
		r := image.Rect(g.X-1, g.Y-1, g.X+g.W+1, g.Y+g.H+1)
		for x := r.Min.X; x < r.Max.X; x++ {
			if atlas.ColorIndexAt(x, r.Min.Y) != 0 || atlas.ColorIndexAt(x, r.Max.Y-1) != 0 {
				t.Fatalf("%c touches another glyph", g.Rune)
			}
		}
		for y := r.Min.Y; y < r.Max.Y; y++ {
			if atlas.ColorIndexAt(r.Min.X, y) != 0 || atlas.ColorIndexAt(r.Max.X-1, y) != 0 {
				t.Fatalf("%c touches another glyph", g.Rune)
			}
		}
	}
	if sp := face.Glyphs[face.Index(' ')]; sp.W != 0 || sp.Advance == 0 {
		t.Errorf("space is %+v", sp)
	}
}

// Go Mono is monospaced: every glyph advances the same.
func TestMonoIsMonospaced(t *testing.T) {
	_, face, err := renderFace(gomono.TTF, 13, fontRunes())
	if err != nil {
		t.Fatal(err)
	}
	want := face.Glyphs[face.Index('0')].Advance
	for _, g := range face.Glyphs {
		if g.Advance != want {
			t.Errorf("%c advances %d, 0 advances %d", g.Rune, g.Advance, want)
		}
	}
}

// A rune the font lacks fails the generator instead of drawing a box.
func TestMissingRuneFails(t *testing.T) {
	if _, _, err := renderFace(goregular.TTF, 13, []rune{'a', '你', glyphs.Fallback}); err == nil {
		t.Error("a face with 你 renders from Go Regular")
	}
}
