package desktop

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/assets"
	"github.com/sightline-game/sightline/assets/glyphs"
	"github.com/sightline-game/sightline/game/desktop/text"
)

// A face is one of the bitmap fonts (package assets, fonts/): its metrics
// and each glyph's image, a sub-image of the one atlas texture, so that a
// line of text draws in one batch.
type face struct {
	metrics *glyphs.Face
	images  []*ebiten.Image // by glyph index; nil for a glyph without ink
}

// fonts are the text faces of the HUD and overlay, from the Go fonts.
type fonts struct {
	small, normal, big, huge *face // Go Regular 13 and 16, Go Bold 22 and 40
	mono                     *face // Go Mono 13, for the overlay's numbers
}

func mustFace(name string) *face {
	m, atlas, err := assets.Font(name)
	if err != nil {
		panic("desktop: bundled font: " + err.Error())
	}
	tex := ebiten.NewImageFromImage(atlas)
	f := &face{metrics: m, images: make([]*ebiten.Image, len(m.Glyphs))}
	for i, g := range m.Glyphs {
		if g.W > 0 && g.H > 0 {
			f.images[i] = tex.SubImage(image.Rect(g.X, g.Y, g.X+g.W, g.Y+g.H)).(*ebiten.Image)
		}
	}
	return f
}

func newFonts() *fonts { return loadFonts(func() {}) }

// loadFonts loads every face, calling pace after each.
func loadFonts(pace func()) *fonts {
	f := &fonts{}
	for _, face := range []struct {
		to   **face
		name string
	}{
		{&f.small, glyphs.Regular13}, {&f.normal, glyphs.Regular16}, {&f.big, glyphs.Bold22},
		{&f.huge, glyphs.Bold40}, {&f.mono, glyphs.Mono13},
	} {
		*face.to = mustFace(face.name)
		pace()
	}
	return f
}

// drawText draws s with its top-left (align start), centre or right edge at
// (x, y), in c, with a one-pixel dark shadow so it reads over the map. Lines
// after a '\n' go two pixels more than the face's height apart.
func drawText(dst *ebiten.Image, s string, f *face, x, y float64, align text.Align, c color.Color) {
	spacing := text.Ascent(f.metrics) + text.Descent(f.metrics) + 2
	_, _, _, a := c.RGBA()
	var op ebiten.DrawImageOptions
	op.ColorScale.ScaleWithColor(color.RGBA{0, 0, 0, uint8(0xc0 * a / 0xffff)})
	f.draw(dst, s, x+1, y+1, align, spacing, &op)
	op.ColorScale.Reset()
	op.ColorScale.ScaleWithColor(c)
	f.draw(dst, s, x, y, align, spacing, &op)
}

// draw draws the glyphs of s as text.Layout places them, with op's colour.
func (f *face) draw(dst *ebiten.Image, s string, x, y float64, align text.Align, spacing float64, op *ebiten.DrawImageOptions) {
	for p := range text.Layout(s, f.metrics, x, y, align, spacing) {
		op.GeoM.Reset()
		op.GeoM.Translate(float64(p.X), float64(p.Y))
		dst.DrawImage(f.images[p.Index], op)
	}
}

// textWidth returns the advance of s.
func textWidth(s string, f *face) float64 { return text.Advance(s, f.metrics) }
