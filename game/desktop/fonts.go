package desktop

import (
	"bytes"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

// fonts are the text faces of the HUD and overlay, from the Go fonts.
type fonts struct {
	small, normal, big, huge *text.GoTextFace // Go Regular and Go Bold
	mono                     *text.GoTextFace // Go Mono, for the overlay's numbers
}

func mustSource(ttf []byte) *text.GoTextFaceSource {
	s, err := text.NewGoTextFaceSource(bytes.NewReader(ttf))
	if err != nil {
		panic("desktop: bundled Go font: " + err.Error())
	}
	return s
}

func newFonts() *fonts {
	regular, bold, mono := mustSource(goregular.TTF), mustSource(gobold.TTF), mustSource(gomono.TTF)
	return &fonts{
		small:  &text.GoTextFace{Source: regular, Size: 13},
		normal: &text.GoTextFace{Source: regular, Size: 16},
		big:    &text.GoTextFace{Source: bold, Size: 22},
		huge:   &text.GoTextFace{Source: bold, Size: 40},
		mono:   &text.GoTextFace{Source: mono, Size: 13},
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
