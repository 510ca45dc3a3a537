package desktop

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/sightline-game/sightline/assets/sheet"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/camera"
)

// chunkSize is the side of one cached piece of the map, in px. The 4096 px
// map is drawn once into 4x4 such images: each is small enough for any GPU,
// and a frame draws at most four of them.
const chunkSize = 1024

const chunks = arena.WorldSize / chunkSize

// mapLayer is the static map (floor and wall tiles, the walls' shadows),
// drawn into offscreen chunks the first time each is on screen.
type mapLayer struct {
	m      *arena.Map
	tiles  *sprites
	chunks [chunks][chunks]*ebiten.Image
}

func newMapLayer(m *arena.Map, tiles *sprites) *mapLayer { return &mapLayer{m: m, tiles: tiles} }

// mapOrigin returns the whole screen px where the world's (0, 0) corner is
// drawn: every chunk is drawn at it plus its offset, so tiles line up
// across chunks.
func mapOrigin(cam *camera.Camera) [2]float64 {
	x, y := cam.ToScreen(0, 0)
	return [2]float64{math.Floor(x), math.Floor(y)}
}

// draw draws the part of the map the camera sees and returns how many
// draw calls that took.
func (l *mapLayer) draw(dst *ebiten.Image, cam *camera.Camera) int {
	x0, y0 := max(int(cam.X)/chunkSize, 0), max(int(cam.Y)/chunkSize, 0)
	x1, y1 := min(int(cam.X+cam.W)/chunkSize, chunks-1), min(int(cam.Y+cam.H)/chunkSize, chunks-1)
	o := mapOrigin(cam)
	n := 0
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			img := l.chunk(cx, cy)
			op := &ebiten.DrawImageOptions{}
			op.GeoM.Translate(o[0]+float64(cx*chunkSize), o[1]+float64(cy*chunkSize))
			dst.DrawImage(img, op)
			n++
		}
	}
	return n
}

// chunk returns the chunk at (cx, cy), drawing it the first time.
func (l *mapLayer) chunk(cx, cy int) *ebiten.Image {
	if img := l.chunks[cy][cx]; img != nil {
		return img
	}
	img := ebiten.NewImageWithOptions(rect(chunkSize, chunkSize), &ebiten.NewImageOptions{Unmanaged: true})
	l.paint(img, cx*chunkSize, cy*chunkSize)
	l.chunks[cy][cx] = img
	return img
}

// floorKind picks tile (tx, ty)'s floor: mostly plain plates, now and
// then a worn, vented or cracked one, the same every time.
func floorKind(tx, ty int) int {
	h := uint32(tx)*0x9e3779b1 ^ uint32(ty)*0x85ebca77
	h ^= h >> 15
	h *= 0x2c1b3c6d
	h ^= h >> 12
	switch v := h % 100; {
	case v < 78:
		return 0
	case v < 92:
		return 1
	case v < 96:
		return 2
	}
	return 3
}

// paint draws the map's tiles that fall in the chunk whose world origin is
// (ox, oy): floor tiles, the shadows walls cast down and right, then each
// wall tile chosen by which of its neighbours are walls, so that blocks
// show their edges only where they face open floor.
func (l *mapLayer) paint(img *ebiten.Image, ox, oy int) {
	const t = arena.Tile
	tx0, ty0 := ox/t, oy/t
	n := chunkSize / t
	op := &ebiten.DrawImageOptions{}
	put := func(tile *ebiten.Image, tx, ty int) {
		op.GeoM.Reset()
		op.GeoM.Translate(float64(tx*t-ox), float64(ty*t-oy))
		img.DrawImage(tile, op)
	}
	for ty := ty0; ty < ty0+n; ty++ {
		for tx := tx0; tx < tx0+n; tx++ {
			if !l.m.Wall(tx, ty) {
				put(l.tiles.floor[floorKind(tx, ty)], tx, ty)
			}
		}
	}
	const sh = 10
	for ty := ty0 - 1; ty < ty0+n; ty++ {
		for tx := tx0 - 1; tx < tx0+n; tx++ {
			if !l.m.Wall(tx, ty) {
				continue
			}
			x, y := float32(tx*t-ox), float32(ty*t-oy)
			if !l.m.Wall(tx, ty+1) {
				vector.DrawFilledRect(img, x+sh, y+t, t, sh, colWallShadow, false)
			}
			if !l.m.Wall(tx+1, ty) {
				vector.DrawFilledRect(img, x+t, y+sh, sh, t-sh, colWallShadow, false)
			}
		}
	}
	for ty := ty0; ty < ty0+n; ty++ {
		for tx := tx0; tx < tx0+n; tx++ {
			if l.m.Wall(tx, ty) {
				mask := sheet.WallMask(l.m.Wall(tx, ty-1), l.m.Wall(tx+1, ty), l.m.Wall(tx, ty+1), l.m.Wall(tx-1, ty))
				put(l.tiles.walls[mask], tx, ty)
			}
		}
	}
}

// drawVoid darkens what the camera shows past the world's edge.
func drawVoid(dst *ebiten.Image, cam *camera.Camera) {
	for _, r := range cam.Outside() {
		if r[2] > 0 && r[3] > 0 {
			box(dst, r[0], r[1], r[2], r[3], colVoid)
		}
	}
}
