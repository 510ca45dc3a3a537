package glyphs

import (
	"bytes"
	"testing"
)

func sample() *Face {
	return &Face{
		Ascent: 15 * 64, Descent: 3 * 64, Height: 19 * 64, AtlasW: 64, AtlasH: 32,
		Glyphs: []Glyph{
			{Rune: ' ', Advance: 4 * 64},
			{Rune: 'A', X: 1, Y: 1, W: 10, H: 11, OffX: 0, OffY: -11, Advance: 10*64 + 40},
			{Rune: 'é', X: 12, Y: 1, W: 7, H: 13, OffX: 1, OffY: -13, Advance: 9 * 64},
			{Rune: '→', X: 20, Y: 1, W: 12, H: 7, OffX: 1, OffY: -9, Advance: 14 * 64},
			{Rune: Fallback, X: 33, Y: 1, W: 8, H: 12, OffX: 1, OffY: -12, Advance: 10 * 64},
		},
	}
}

func TestMarshalParseRoundTrip(t *testing.T) {
	f := sample()
	b, err := f.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != headerSize+5*glyphSize {
		t.Errorf("%d bytes, want %d", len(b), headerSize+5*glyphSize)
	}
	g, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if g.Ascent != f.Ascent || g.Descent != f.Descent || g.Height != f.Height || g.AtlasW != 64 || g.AtlasH != 32 {
		t.Errorf("metrics %+v, want those of %+v", g, f)
	}
	for i := range f.Glyphs {
		if g.Glyphs[i] != f.Glyphs[i] {
			t.Errorf("glyph %d: %+v, want %+v", i, g.Glyphs[i], f.Glyphs[i])
		}
	}
	again, _ := g.Marshal()
	if !bytes.Equal(again, b) {
		t.Error("marshalling the parsed face gives other bytes")
	}
}

func TestIndexFallsBack(t *testing.T) {
	f := sample()
	if err := f.Validate(); err != nil {
		t.Fatal(err)
	}
	for r, want := range map[rune]int{' ': 0, 'A': 1, 'é': 2, '→': 3, Fallback: 4, 'B': 4, '你': 4, -1: 4, 0x10ffff: 4} {
		if got := f.Index(r); got != want {
			t.Errorf("Index(%U) = %d, want %d", r, got, want)
		}
	}
	if !f.Has('é') || f.Has('B') {
		t.Error("Has is wrong about é or B")
	}
}

func TestBadFacesAreRefused(t *testing.T) {
	for name, spoil := range map[string]func(*Face){
		"unsorted":     func(f *Face) { f.Glyphs[1], f.Glyphs[2] = f.Glyphs[2], f.Glyphs[1] },
		"duplicate":    func(f *Face) { f.Glyphs[2].Rune = 'A' },
		"no fallback":  func(f *Face) { f.Glyphs = f.Glyphs[:4] },
		"off atlas":    func(f *Face) { f.Glyphs[3].X = 60 },
		"big offset":   func(f *Face) { f.Glyphs[1].OffY = -200 },
		"no ascent":    func(f *Face) { f.Ascent = 0 },
		"no atlas":     func(f *Face) { f.AtlasW = 0 },
		"huge advance": func(f *Face) { f.Glyphs[0].Advance = 1 << 16 },
	} {
		f := sample()
		spoil(f)
		if _, err := f.Marshal(); err == nil {
			t.Errorf("%s: marshals", name)
		}
	}
	good, _ := sample().Marshal()
	for name, b := range map[string][]byte{
		"empty":       nil,
		"magic":       append([]byte("XLGF"), good[4:]...),
		"version":     append(append([]byte("SLGF"), 9), good[5:]...),
		"short":       good[:len(good)-1],
		"long":        append(append([]byte(nil), good...), 0),
		"unsorted":    swapGlyphs(good, 1, 2),
		"header only": good[:headerSize],
	} {
		if _, err := Parse(b); err == nil {
			t.Errorf("%s: parses", name)
		}
	}
}

func swapGlyphs(b []byte, i, j int) []byte {
	out := append([]byte(nil), b...)
	gi, gj := out[headerSize+i*glyphSize:][:glyphSize], out[headerSize+j*glyphSize:][:glyphSize]
	tmp := append([]byte(nil), gi...)
	copy(gi, gj)
	copy(gj, tmp)
	return out
}
