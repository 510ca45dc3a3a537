package desktop

import (
	"image"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/protocol"
)

// The minimap: 3 px per tile in the top-right corner.
const (
	miniTile   = 3
	miniSize   = arena.Tiles * miniTile // 192 px
	miniMargin = 12
	miniY      = miniMargin
	miniScale  = float64(miniSize) / arena.WorldSize
)

// minimap is the whole map small, drawn once, with dots drawn over it each
// frame for what the player can see.
type minimap struct {
	img *ebiten.Image
	x   int // left edge on screen: miniMargin from the right, set by draw
}

func newMinimap(m *arena.Map) *minimap {
	img := ebiten.NewImage(miniSize, miniSize)
	img.Fill(color.RGBA{0x10, 0x13, 0x1a, 0xff})
	for ty := range arena.Tiles {
		for tx := range arena.Tiles {
			if m.Wall(tx, ty) {
				vector.DrawFilledRect(img, float32(tx*miniTile), float32(ty*miniTile), miniTile, miniTile, colWall, false)
			}
		}
	}
	return &minimap{img: img}
}

func (mm *minimap) toMini(x, y float64) (float64, float64) {
	return float64(mm.x) + x*miniScale, miniY + y*miniScale
}

// draw draws the minimap with the view circle, the camera's rectangle and a
// dot for every entity this frame drew (the server sends only those within
// protocol.ViewRadius).
func (mm *minimap) draw(dst *ebiten.Image, g *Game, now time.Time) {
	mm.x = dst.Bounds().Dx() - miniSize - miniMargin
	miniX := float64(mm.x)
	box(dst, miniX-3, miniY-3, miniSize+6, miniSize+6, colPanelEdge)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(miniX, miniY)
	op.ColorScale.ScaleAlpha(0.92)
	dst.DrawImage(mm.img, op)
	// What goes over the map stays inside its frame (the view circle of a
	// player near the edge would reach past it).
	dst = dst.SubImage(image.Rect(mm.x, miniY, mm.x+miniSize, miniY+miniSize)).(*ebiten.Image)

	x0, y0, x1, y1 := g.cam.InWorld()
	cx, cy := mm.toMini(x0, y0)
	vector.StrokeRect(dst, float32(cx), float32(cy), float32((x1-x0)*miniScale), float32((y1-y0)*miniScale), 1, fade(colText, 0.5), false)
	if g.self.ok {
		sx, sy := mm.toMini(g.self.x, g.self.y)
		ring(dst, sx, sy, protocol.ViewRadius*miniScale, 1, fade(colSelf, 0.35))
	}
	for i := range g.ents {
		e := &g.ents[i]
		x, y := mm.toMini(e.X, e.Y)
		switch {
		case e.Kind == protocol.KindCreature:
			box(dst, x-1, y-1, 2, 2, colCreature)
		case e.State&protocol.StateDead != 0:
			box(dst, x-1.5, y-1.5, 3, 3, fade(playerColor(e.id.Index), 0.4))
		default:
			circle(dst, x, y, 2.5, playerColor(e.id.Index))
		}
	}
	for _, p := range g.records.pickups {
		px, py := mm.toMini(float64(p.X), float64(p.Y))
		_, c := pickupLook(p.Kind)
		box(dst, px-1.5, py-1.5, 3, 3, c)
	}
	if g.self.ok {
		sx, sy := mm.toMini(g.self.x, g.self.y)
		circle(dst, sx, sy, 3.5, colSelfRing)
		circle(dst, sx, sy, 2.5, colSelf)
	}
}
