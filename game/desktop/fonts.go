package desktop

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// fonts are the text faces of the HUD and overlay, from the Go fonts. They
// are drawn from golang.org/x/image's OpenType rasterizer (text.GoXFace)
// rather than text/v2's shaping engine (text.GoTextFace, go-text's
// HarfBuzz): the Go fonts need no shaping for the text the game shows, and
// the shaper would add 3.3 MB to the browser build (about 0.5 MB brotli).
type fonts struct {
	small, normal, big, huge text.Face // Go Regular and Go Bold
	mono                     text.Face // Go Mono, for the overlay's numbers
}

// mustParse parses a bundled font.
func mustParse(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic("desktop: bundled Go font: " + err.Error())
	}
	return f
}

// face returns a face of f at size pixels.
func face(f *opentype.Font, size float64) text.Face {
	xf, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72})
	if err != nil {
		panic("desktop: bundled Go font: " + err.Error())
	}
	return text.NewGoXFace(xf)
}

func newFonts() *fonts {
	regular, bold, mono := mustParse(goregular.TTF), mustParse(gobold.TTF), mustParse(gomono.TTF)
	return &fonts{
		small:  face(regular, 13),
		normal: face(regular, 16),
		big:    face(bold, 22),
		huge:   face(bold, 40),
		mono:   face(mono, 13),
	}
}

// drawText draws s with its top-left (align start), centre or right edge at
// (x, y), in c, with a one-pixel dark shadow so it reads over the map.
func drawText(dst *ebiten.Image, s string, face text.Face, x, y float64, align text.Align, c color.Color) {
	op := &text.DrawOptions{}
	op.PrimaryAlign = align
	op.LineSpacing = face.Metrics().HAscent + face.Metrics().HDescent + 2
	op.GeoM.Translate(x+1, y+1)
	_, _, _, a := c.RGBA()
	op.ColorScale.ScaleWithColor(color.RGBA{0, 0, 0, uint8(0xc0 * a / 0xffff)})
	text.Draw(dst, s, face, op)
	op.GeoM.Translate(-1, -1)
	op.ColorScale.Reset()
	op.ColorScale.ScaleWithColor(c)
	text.Draw(dst, s, face, op)
}

// textWidth returns the advance of s.
func textWidth(s string, face text.Face) float64 { return text.Advance(s, face) }
