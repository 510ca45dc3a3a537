// Package glyphs describes the game's bitmap fonts: for each face, the
// metrics of the face and of every glyph in its atlas (an image of white
// glyphs on transparent, made at generation time by package assets/gen),
// and the small binary file that stores them next to the atlas.
//
// Nothing here rasterizes or draws: the generator renders the glyphs and
// writes the files, the game looks glyphs up and places them (package
// game/desktop/text) and draws the atlas's sub-images.
package glyphs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// The faces, by name: the atlas is fonts/NAME.png, the metrics
// fonts/NAME.glyphs. Go Regular, Go Bold and Go Mono at the pixel sizes the
// names say.
const (
	Regular13 = "regular13"
	Regular16 = "regular16"
	Bold22    = "bold22"
	Bold40    = "bold40"
	Mono13    = "mono13"
)

// Fallback is the rune whose glyph stands in for any rune the face lacks:
// every face has it (the font's "missing glyph" box).
const Fallback = '\uFFFD'

// A Glyph is one rune's image in the atlas and how to place it. Lengths
// are in pixels, except Advance in 1/64 pixel.
type Glyph struct {
	Rune rune
	// X, Y, W and H are the glyph's rectangle in the atlas; W or H is 0
	// for a glyph that draws nothing (a space).
	X, Y, W, H int
	// OffX and OffY place the rectangle's top-left corner relative to the
	// pen on the baseline: OffY is negative above the baseline.
	OffX, OffY int
	// Advance is how far the pen moves after the glyph, in 1/64 pixel.
	Advance int
}

// A Face is one font at one size: its vertical metrics (in 1/64 pixel)
// and its glyphs, sorted by rune.
type Face struct {
	// Ascent and Descent are the distances from the baseline to the top
	// and bottom of a line (both positive), and Height the distance
	// between two baselines the font recommends.
	Ascent, Descent, Height int
	// AtlasW and AtlasH are the atlas image's size.
	AtlasW, AtlasH int
	// Glyphs are sorted by Rune, without duplicates, and include Fallback.
	Glyphs []Glyph

	ascii    [128]int16 // index in Glyphs of each ASCII rune, -1 if none
	fallback int
}

// Index returns the index in f.Glyphs of r's glyph, or of the Fallback
// glyph when the face lacks r.
func (f *Face) Index(r rune) int {
	if r >= 0 && r < 128 {
		if i := f.ascii[r]; i >= 0 {
			return int(i)
		}
		return f.fallback
	}
	i, ok := slices.BinarySearchFunc(f.Glyphs, r, func(g Glyph, r rune) int { return int(g.Rune - r) })
	if !ok {
		return f.fallback
	}
	return i
}

// Has reports whether the face has a glyph of its own for r.
func (f *Face) Has(r rune) bool {
	_, ok := slices.BinarySearchFunc(f.Glyphs, r, func(g Glyph, r rune) int { return int(g.Rune - r) })
	return ok
}

// The file: "SLGF", a version byte, then little-endian uint16 atlas width
// and height, int32 ascent, descent and height (1/64 px), uint16 glyph
// count, and per glyph: uint32 rune, uint16 x, y, uint8 w, h, int8 offX,
// offY, uint16 advance (1/64 px).
const (
	magic      = "SLGF"
	version    = 1
	headerSize = len(magic) + 1 + 2*2 + 3*4 + 2
	glyphSize  = 4 + 2*2 + 2 + 2 + 2
)

// Marshal encodes f as the glyph file. It fails when a value does not fit
// the file's fields or the glyphs are not sorted, unique and inside the
// atlas, or lack the Fallback glyph.
func (f *Face) Marshal() ([]byte, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	b := make([]byte, 0, headerSize+glyphSize*len(f.Glyphs))
	b = append(b, magic...)
	b = append(b, version)
	b = binary.LittleEndian.AppendUint16(b, uint16(f.AtlasW))
	b = binary.LittleEndian.AppendUint16(b, uint16(f.AtlasH))
	for _, v := range []int{f.Ascent, f.Descent, f.Height} {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(f.Glyphs)))
	for _, g := range f.Glyphs {
		b = binary.LittleEndian.AppendUint32(b, uint32(g.Rune))
		b = binary.LittleEndian.AppendUint16(b, uint16(g.X))
		b = binary.LittleEndian.AppendUint16(b, uint16(g.Y))
		b = append(b, uint8(g.W), uint8(g.H), uint8(int8(g.OffX)), uint8(int8(g.OffY)))
		b = binary.LittleEndian.AppendUint16(b, uint16(g.Advance))
	}
	return b, nil
}

// Parse decodes a glyph file made by Marshal.
func Parse(b []byte) (*Face, error) {
	if len(b) < headerSize || string(b[:4]) != magic {
		return nil, errors.New("glyphs: not a glyph file")
	}
	if b[4] != version {
		return nil, fmt.Errorf("glyphs: version %d, want %d", b[4], version)
	}
	le := binary.LittleEndian
	f := &Face{
		AtlasW:  int(le.Uint16(b[5:])),
		AtlasH:  int(le.Uint16(b[7:])),
		Ascent:  int(int32(le.Uint32(b[9:]))),
		Descent: int(int32(le.Uint32(b[13:]))),
		Height:  int(int32(le.Uint32(b[17:]))),
	}
	n := int(le.Uint16(b[21:]))
	b = b[headerSize:]
	if len(b) != n*glyphSize {
		return nil, fmt.Errorf("glyphs: %d bytes of glyphs, want %d for %d glyphs", len(b), n*glyphSize, n)
	}
	f.Glyphs = make([]Glyph, n)
	for i := range f.Glyphs {
		p := b[i*glyphSize:]
		f.Glyphs[i] = Glyph{
			Rune: rune(le.Uint32(p)),
			X:    int(le.Uint16(p[4:])), Y: int(le.Uint16(p[6:])),
			W: int(p[8]), H: int(p[9]),
			OffX: int(int8(p[10])), OffY: int(int8(p[11])),
			Advance: int(le.Uint16(p[12:])),
		}
	}
	if err := f.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// Validate checks f and readies its lookups: Index works on a Face from
// Parse, or on one built by hand once Validate returned nil.
func (f *Face) Validate() error {
	if f.AtlasW <= 0 || f.AtlasH <= 0 || f.AtlasW > 0xffff || f.AtlasH > 0xffff {
		return fmt.Errorf("glyphs: atlas %dx%d", f.AtlasW, f.AtlasH)
	}
	if f.Ascent <= 0 || f.Descent < 0 || f.Height <= 0 {
		return fmt.Errorf("glyphs: ascent %d, descent %d, height %d", f.Ascent, f.Descent, f.Height)
	}
	if len(f.Glyphs) > 0xffff {
		return fmt.Errorf("glyphs: %d glyphs", len(f.Glyphs))
	}
	for i := range f.ascii {
		f.ascii[i] = -1
	}
	f.fallback = -1
	for i, g := range f.Glyphs {
		switch {
		case i > 0 && g.Rune <= f.Glyphs[i-1].Rune:
			return fmt.Errorf("glyphs: %U after %U: not sorted", g.Rune, f.Glyphs[i-1].Rune)
		case g.Rune < 0:
			return fmt.Errorf("glyphs: rune %d", g.Rune)
		case g.W < 0 || g.H < 0 || g.W > 0xff || g.H > 0xff || g.X < 0 || g.Y < 0 || g.X+g.W > f.AtlasW || g.Y+g.H > f.AtlasH:
			return fmt.Errorf("glyphs: %U: rectangle %d,%d %dx%d outside the %dx%d atlas", g.Rune, g.X, g.Y, g.W, g.H, f.AtlasW, f.AtlasH)
		case g.OffX < -128 || g.OffX > 127 || g.OffY < -128 || g.OffY > 127:
			return fmt.Errorf("glyphs: %U: offset %d,%d", g.Rune, g.OffX, g.OffY)
		case g.Advance < 0 || g.Advance > 0xffff:
			return fmt.Errorf("glyphs: %U: advance %d", g.Rune, g.Advance)
		}
		if g.Rune < 128 {
			f.ascii[g.Rune] = int16(i)
		}
		if g.Rune == Fallback {
			f.fallback = i
		}
	}
	if f.fallback < 0 {
		return fmt.Errorf("glyphs: no fallback glyph %U", Fallback)
	}
	return nil
}
