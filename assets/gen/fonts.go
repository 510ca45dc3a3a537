package gen

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"slices"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/sightline-game/sightline/assets/glyphs"
)

// A fontFace is one face to render: its name (fonts/NAME.png and
// fonts/NAME.glyphs), the TrueType font and the size in pixels.
type fontFace struct {
	name string
	ttf  []byte
	size float64
}

// fontFaces are the faces the game draws text with (game/desktop/fonts.go).
func fontFaces() []fontFace {
	return []fontFace{
		{glyphs.Regular13, goregular.TTF, 13},
		{glyphs.Regular16, goregular.TTF, 16},
		{glyphs.Bold22, gobold.TTF, 22},
		{glyphs.Bold40, gobold.TTF, 40},
		{glyphs.Mono13, gomono.TTF, 13},
	}
}

// uiRunes are the runes beyond Latin-1 that the game's own strings use
// (dashes, ellipsis, arrows) or that chat commonly holds (quotes, bullet,
// euro, math).
const uiRunes = "–—‘’‚“”„†•…‰‹›€™←↑→↓−√∞≈≠≤≥"

// fontRunes returns the runes every face has a glyph for, sorted: printable
// ASCII, Latin-1 Supplement, Latin Extended-A, uiRunes and the Fallback.
func fontRunes() []rune {
	var rs []rune
	for r := rune(0x20); r <= 0x7e; r++ {
		rs = append(rs, r)
	}
	for r := rune(0xa0); r <= 0x17f; r++ {
		rs = append(rs, r)
	}
	rs = append(rs, []rune(uiRunes)...)
	rs = append(rs, glyphs.Fallback)
	slices.Sort(rs)
	return slices.Compact(rs)
}

// fonts renders every face's atlas and glyph file into add.
func fonts(add func(path string, data []byte)) error {
	for _, ff := range fontFaces() {
		atlas, face, err := renderFace(ff.ttf, ff.size, fontRunes())
		if err != nil {
			return fmt.Errorf("gen: font %s: %w", ff.name, err)
		}
		png, err := encodePNG(atlas)
		if err != nil {
			return fmt.Errorf("gen: font %s: %w", ff.name, err)
		}
		meta, err := face.Marshal()
		if err != nil {
			return fmt.Errorf("gen: font %s: %w", ff.name, err)
		}
		add("fonts/"+ff.name+".png", png)
		add("fonts/"+ff.name+".glyphs", meta)
	}
	return nil
}

// alphaLevels is how many opacities an atlas has: 32 look the same as 256
// on glyph edges and compress a quarter smaller. Full coverage stays fully
// opaque, so a tinted glyph's inside is exactly the tint.
const alphaLevels = 32

// alphaPalette is white at alphaLevels opacities, from transparent (index
// 0) to opaque, so an atlas is white glyphs on transparent in one byte a
// pixel.
func alphaPalette() color.Palette {
	p := make(color.Palette, alphaLevels)
	for i := range p {
		p[i] = color.NRGBA{0xff, 0xff, 0xff, uint8((i*255 + (alphaLevels-1)/2) / (alphaLevels - 1))}
	}
	return p
}

// alphaIndex is the palette index of the opacity nearest to coverage c.
func alphaIndex(c uint8) uint8 {
	return uint8((int(c)*(alphaLevels-1) + 127) / 255)
}

// renderFace rasterizes runes from the TrueType font ttf at size pixels,
// antialiased and unhinted with the pen on whole pixels, and packs them
// into an atlas. A rune the font lacks fails, except the Fallback, which
// is the font's missing-glyph box.
func renderFace(ttf []byte, size float64, runes []rune) (*image.Paletted, *glyphs.Face, error) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return nil, nil, err
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, nil, err
	}
	defer face.Close()
	var buf sfnt.Buffer
	type rendered struct {
		g    glyphs.Glyph
		mask *image.Alpha // the glyph's coverage, bounds from (0, 0)
	}
	all := make([]rendered, 0, len(runes))
	for _, r := range runes {
		if idx, err := f.GlyphIndex(&buf, r); err != nil || (idx == 0 && r != glyphs.Fallback) {
			return nil, nil, fmt.Errorf("no glyph for %U (%v)", r, err)
		}
		dr, mask, mp, adv, _ := face.Glyph(fixed.Point26_6{}, r)
		if mask == nil || adv < 0 {
			return nil, nil, fmt.Errorf("%U does not render", r)
		}
		// Copy the coverage out: the face reuses its mask for the next glyph.
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		for y := range dr.Dy() {
			for x := range dr.Dx() {
				_, _, _, c := mask.At(mp.X+x, mp.Y+y).RGBA()
				a.Pix[y*a.Stride+x] = uint8(c >> 8)
			}
		}
		a, off := trim(a)
		all = append(all, rendered{
			g: glyphs.Glyph{
				Rune: r, W: a.Rect.Dx(), H: a.Rect.Dy(),
				OffX: dr.Min.X + off.X, OffY: dr.Min.Y + off.Y,
				Advance: int(adv),
			},
			mask: a,
		})
	}

	// Shelf packing, tallest first, one pixel apart so that no glyph bleeds
	// into its neighbour when drawn scaled.
	const pad = 1
	width := 256
	if size > 16 {
		width = 512
	}
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmp.Or(cmp.Compare(all[j].g.H, all[i].g.H), cmp.Compare(all[i].g.Rune, all[j].g.Rune))
	})
	x, y, shelf := pad, pad, 0
	for _, i := range order {
		g := &all[i].g
		if g.W == 0 || g.H == 0 {
			g.W, g.H = 0, 0
			continue
		}
		if x+g.W+pad > width {
			x, y, shelf = pad, y+shelf+pad, 0
		}
		g.X, g.Y = x, y
		x += g.W + pad
		shelf = max(shelf, g.H)
	}
	height := (y + shelf + pad + 3) &^ 3
	atlas := image.NewPaletted(image.Rect(0, 0, width, height), alphaPalette())
	out := &glyphs.Face{
		AtlasW: width, AtlasH: height,
		Ascent:  int(face.Metrics().Ascent),
		Descent: int(face.Metrics().Descent),
		Height:  int(face.Metrics().Height),
	}
	for _, rd := range all {
		g := rd.g
		for yy := range g.H {
			row := atlas.Pix[(g.Y+yy)*atlas.Stride+g.X:][:g.W]
			for xx, c := range rd.mask.Pix[yy*rd.mask.Stride:][:g.W] {
				row[xx] = alphaIndex(c)
			}
		}
		out.Glyphs = append(out.Glyphs, g)
	}
	if err := out.Validate(); err != nil {
		return nil, nil, err
	}
	return atlas, out, nil
}

// trim cuts the fully transparent rows and columns off a's edges and
// returns what is left (from (0, 0)) and where it began in a.
func trim(a *image.Alpha) (*image.Alpha, image.Point) {
	b := a.Rect
	x0, y0, x1, y1 := b.Max.X, b.Max.Y, b.Min.X, b.Min.Y
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if a.AlphaAt(x, y).A != 0 {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x+1), max(y1, y+1)
			}
		}
	}
	if x0 >= x1 {
		return image.NewAlpha(image.Rectangle{}), image.Point{}
	}
	t := image.NewAlpha(image.Rect(0, 0, x1-x0, y1-y0))
	for y := y0; y < y1; y++ {
		copy(t.Pix[(y-y0)*t.Stride:][:x1-x0], a.Pix[y*a.Stride+x0:][:x1-x0])
	}
	return t, image.Pt(x0, y0)
}
