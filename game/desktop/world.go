package desktop

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/desktop/camera"
)

// chunkSize is the side of one cached piece of the map, in px. The 4096 px
// map is drawn once into 4x4 such images: each is small enough for any GPU,
// and a frame draws at most four of them.
const chunkSize = 1024

const chunks = arena.WorldSize / chunkSize

// mapLayer is the static map (floor, grid and walls), drawn into offscreen
// chunks the first time each is on screen.
type mapLayer struct {
	m      *arena.Map
	chunks [chunks][chunks]*ebiten.Image
}

func newMapLayer(m *arena.Map) *mapLayer { return &mapLayer{m: m} }

// draw draws the part of the map the camera sees.
func (l *mapLayer) draw(dst *ebiten.Image, cam *camera.Camera) {
	x0, y0 := max(int(cam.X)/chunkSize, 0), max(int(cam.Y)/chunkSize, 0)
	x1, y1 := min(int(cam.X+cam.W)/chunkSize, chunks-1), min(int(cam.Y+cam.H)/chunkSize, chunks-1)
	for cy := y0; cy <= y1; cy++ {
		for cx := x0; cx <= x1; cx++ {
			img := l.chunk(cx, cy)
			op := &ebiten.DrawImageOptions{}
			sx, sy := cam.ToScreen(float64(cx*chunkSize), float64(cy*chunkSize))
			op.GeoM.Translate(float64(int(sx)), float64(int(sy)))
			dst.DrawImage(img, op)
		}
	}
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

// paint draws the map's tiles that fall in the chunk whose world origin is (ox, oy).
func (l *mapLayer) paint(img *ebiten.Image, ox, oy int) {
	const t = arena.Tile
	img.Fill(colFloor)
	tx0, ty0 := ox/t, oy/t
	n := chunkSize / t
	// Floor: a faint checker of slightly different tiles, then the grid.
	for ty := ty0; ty < ty0+n; ty++ {
		for tx := tx0; tx < tx0+n; tx++ {
			if (tx+ty)%2 == 0 {
				vector.DrawFilledRect(img, float32(tx*t-ox), float32(ty*t-oy), t, t, colFloorAlt, false)
			}
		}
	}
	for i := 0; i <= n; i++ {
		c := colGrid
		if (tx0+i)%8 == 0 {
			c = colGridMajor
		}
		vector.DrawFilledRect(img, float32(i*t), 0, 1, chunkSize, c, false)
		c = colGrid
		if (ty0+i)%8 == 0 {
			c = colGridMajor
		}
		vector.DrawFilledRect(img, 0, float32(i*t), chunkSize, 1, c, false)
	}
	// Shadows first (down and right of each wall), so no wall is covered.
	const sh = 8
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
	// Walls: a block with a light top edge and a dark bottom edge where
	// they face open floor.
	for ty := ty0; ty < ty0+n; ty++ {
		for tx := tx0; tx < tx0+n; tx++ {
			if !l.m.Wall(tx, ty) {
				continue
			}
			x, y := float32(tx*t-ox), float32(ty*t-oy)
			vector.DrawFilledRect(img, x, y, t, t, colWall, false)
			if !l.m.Wall(tx, ty-1) {
				vector.DrawFilledRect(img, x, y, t, 5, colWallTop, false)
			}
			if !l.m.Wall(tx-1, ty) {
				vector.DrawFilledRect(img, x, y, 3, t, colWallTop, false)
			}
			if !l.m.Wall(tx, ty+1) {
				vector.DrawFilledRect(img, x, y+t-6, t, 6, colWallBottom, false)
			}
			if !l.m.Wall(tx+1, ty) {
				vector.DrawFilledRect(img, x+t-3, y, 3, t, colWallBottom, false)
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
