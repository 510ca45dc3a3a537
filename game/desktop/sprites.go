package desktop

import (
	"fmt"
	"image"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/sightline-game/sightline/assets"
	"github.com/sightline-game/sightline/assets/sheet"
)

// sprites are the game's art (package assets, laid out as assets/sheet
// says) as Ebitengine images: each sheet is one image, each frame a
// sub-image of it. Ebitengine packs the sheets into one texture atlas, so
// a frame's sprites are drawn in a few batched draw calls however many
// there are.
type sprites struct {
	player   [sheet.PlayerCols]*ebiten.Image   // light grey, tinted per player
	creature [sheet.CreatureCols]*ebiten.Image // walk, hurt, death
	bolt     [sheet.BoltCols]*ebiten.Image
	flash    [sheet.FlashFrames]*ebiten.Image
	sparks   [sheet.SparksFrames]*ebiten.Image
	burst    [sheet.BurstFrames]*ebiten.Image
	pickups  [sheet.PickupKinds][sheet.PickupFrames]*ebiten.Image
	marks    [sheet.MarkCols]*ebiten.Image
	floor    [sheet.FloorKinds]*ebiten.Image
	walls    [16]*ebiten.Image // by sheet.WallMask
}

// loadSprites loads every sheet and cuts it into frames, calling pace
// after each sheet.
func loadSprites(pace func()) (*sprites, error) {
	s := &sprites{}
	for _, c := range []struct {
		name   string
		w, h   int
		frames []*ebiten.Image
	}{
		{sheet.Player, sheet.PlayerCell, sheet.PlayerCell, s.player[:]},
		{sheet.Creature, sheet.CreatureCell, sheet.CreatureCell, s.creature[:]},
		{sheet.Bolt, sheet.BoltW, sheet.BoltH, s.bolt[:]},
		{sheet.Flash, sheet.FlashCell, sheet.FlashCell, s.flash[:]},
		{sheet.Sparks, sheet.SparksCell, sheet.SparksCell, s.sparks[:]},
		{sheet.Burst, sheet.BurstCell, sheet.BurstCell, s.burst[:]},
		{sheet.Marks, sheet.MarkCell, sheet.MarkCell, s.marks[:]},
		{sheet.Floor, sheet.Tile, sheet.Tile, s.floor[:]},
		{sheet.Walls, sheet.Tile, sheet.Tile, s.walls[:]},
	} {
		if err := cutSheet(c.name, c.w, c.h, c.frames); err != nil {
			return nil, err
		}
		pace()
	}
	var pick [sheet.PickupKinds * sheet.PickupFrames]*ebiten.Image
	if err := cutSheet(sheet.Pickups, sheet.PickupCell, sheet.PickupCell, pick[:]); err != nil {
		return nil, err
	}
	for k := range s.pickups {
		copy(s.pickups[k][:], pick[k*sheet.PickupFrames:])
	}
	return s, nil
}

// cutSheet loads images/name.png and fills frames with its cells of w by h,
// left to right and top to bottom.
func cutSheet(name string, w, h int, frames []*ebiten.Image) error {
	src, err := assets.Image(name)
	if err != nil {
		return fmt.Errorf("desktop: sprites: %w", err)
	}
	b := src.Bounds()
	cols := b.Dx() / w
	if cols == 0 || cols*(b.Dy()/h) < len(frames) {
		return fmt.Errorf("desktop: sprites: %s is %dx%d, too small for %d frames of %dx%d", name, b.Dx(), b.Dy(), len(frames), w, h)
	}
	img := ebiten.NewImageFromImage(src)
	for i := range frames {
		x, y := i%cols*w, i/cols*h
		frames[i] = img.SubImage(image.Rect(x, y, x+w, y+h)).(*ebiten.Image)
	}
	return nil
}

// spriteDraw says how to draw one sprite: centred at screen (X, Y) (or at
// its pivot, OX and OY px from its top-left corner, when Pivot is set),
// turned by Angle, scaled by Scale (0: 1), multiplied by Tint (nil: as is)
// and faded by Alpha (0: opaque).
type spriteDraw struct {
	X, Y, Angle, Scale, Alpha float64
	Pivot                     bool
	OX, OY                    float64
	Tint                      *ebiten.ColorScale
}

// drawSprite draws img as d says, and counts the draw.
func (g *Game) drawSprite(dst, img *ebiten.Image, d spriteDraw) {
	b := img.Bounds()
	op := &g.spriteOp
	op.GeoM.Reset()
	op.ColorScale.Reset()
	op.Filter = ebiten.FilterLinear
	if d.Pivot {
		op.GeoM.Translate(-d.OX, -d.OY)
	} else {
		op.GeoM.Translate(-float64(b.Dx())/2, -float64(b.Dy())/2)
	}
	if d.Scale != 0 && d.Scale != 1 {
		op.GeoM.Scale(d.Scale, d.Scale)
	}
	if d.Angle != 0 {
		op.GeoM.Rotate(d.Angle)
	}
	op.GeoM.Translate(d.X, d.Y)
	if d.Tint != nil {
		op.ColorScale = *d.Tint
	}
	if d.Alpha > 0 && d.Alpha < 1 {
		op.ColorScale.ScaleAlpha(float32(d.Alpha))
	}
	dst.DrawImage(img, op)
	g.drawn.Draws++
}
