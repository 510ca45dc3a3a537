package xvfbtest

import (
	"image"
	"image/color"
	"math"

	"github.com/sightline-game/sightline/game/arena"
)

// What a drawn tile must show, measured on the tile art (assets/images
// floor.png, walls.png) as the game draws it: a floor tile is a dark
// plate (the middle's mean luminance at most floorMaxLum) with grain,
// seams and rivets (at least floorMinColors distinct colours); a wall tile
// a lighter block (at least wallMinLum) with grain, a riveted panel and
// bevels (at least wallMinColors colours), its top edge lit where it faces
// open floor above (at least edgeLit brighter than its middle) and its
// front face dark where it faces open floor below (at least faceDark
// darker). Flat rectangles, as the map was drawn before the art, have a
// handful of colours per tile and fail; so do tiles looked for where the
// map does not have them.
const (
	floorMaxLum    = 45
	floorMinColors = 8
	wallMinLum     = 70
	wallMinColors  = 24
	edgeLit        = 30
	faceDark       = 25
	// tileShare is the least share of the tiles checked that must pass:
	// sprites, effects and pickups drawn over a few of them may spoil
	// them.
	tileShare = 0.9
)

// checkTiles checks the map's tiles on screen against the map the game
// says it drew (its seed) and where (the screen position of the world's
// corner): every tile wholly on screen and clear of the HUD, measured on
// its pixels away from the bodies (with their guns and health bars) when
// at least half of it is. It returns how many wall tiles it checked and
// how many tiles looked wrong.
func checkTiles(t checker, img image.Image, d *drawn, bodies []drawnBody) (walls, wrong int) {
	t.Helper()
	if d.MapSeed == 0 {
		t.Error("the frame names no map")
		return 0, 0
	}
	m := arena.NewMap(d.MapSeed)
	ox, oy := int(d.MapOrigin[0]), int(d.MapOrigin[1])
	var floors, wallsOK, floorsOK, wallsSeen int
	for ty := range arena.Tiles {
		for tx := range arena.Tiles {
			r := image.Rect(ox+tx*arena.Tile, oy+ty*arena.Tile, ox+(tx+1)*arena.Tile, oy+(ty+1)*arena.Tile)
			if !tileClear(r) {
				continue
			}
			if m.Wall(tx, ty) {
				wallsSeen++
			}
			st, ok := measureTile(img, r, bodies)
			if !ok {
				continue
			}
			if m.Wall(tx, ty) {
				walls++
				ok := st.mid >= wallMinLum && st.colors >= wallMinColors
				if !m.Wall(tx, ty-1) && st.top-st.mid < edgeLit {
					ok = false
				}
				if !m.Wall(tx, ty+1) && st.mid-st.bottom < faceDark {
					ok = false
				}
				if ok {
					wallsOK++
				} else {
					t.Logf("wall tile (%d, %d) at %v: middle %.0f, top %.0f, bottom %.0f, %d colours", tx, ty, r.Min, st.mid, st.top, st.bottom, st.colors)
				}
			} else {
				floors++
				if st.mid <= floorMaxLum && st.colors >= floorMinColors {
					floorsOK++
				} else {
					t.Logf("floor tile (%d, %d) at %v: middle %.0f, %d colours", tx, ty, r.Min, st.mid, st.colors)
				}
			}
		}
	}
	t.Logf("tiles in the clear: %d of %d wall tiles and %d of %d floor tiles look right", wallsOK, walls, floorsOK, floors)
	if floors < 10 || (wallsSeen > 0 && walls == 0) {
		t.Errorf("only %d wall tiles (of %d clear of the HUD) and %d floor tiles could be checked", walls, wallsSeen, floors)
	}
	if float64(wallsOK) < tileShare*float64(walls) || float64(floorsOK) < tileShare*float64(floors) {
		t.Errorf("%d of %d wall tiles and %d of %d floor tiles look right, want %.0f %% of each",
			wallsOK, walls, floorsOK, floors, tileShare*100)
	}
	return walls, walls + floors - wallsOK - floorsOK
}

// tileClear reports whether tile r lies wholly on screen inside the damage
// flash's edges, clear of the HUD.
func tileClear(r image.Rectangle) bool {
	if !r.In(clearRect) {
		return false
	}
	for _, busy := range busyRects {
		if r.Overlaps(busy) {
			return false
		}
	}
	return true
}

// covered reports whether a body, its gun or its health bar may cover
// pixel (x, y).
func covered(x, y int, bodies []drawnBody) bool {
	for _, b := range bodies {
		if math.Hypot(float64(x)+0.5-b.At[0], float64(y)+0.5-b.At[1]) < b.Radius+30 {
			return true
		}
	}
	return false
}

// tileStats are a tile's measures over its pixels clear of the bodies: the
// mean luminance of its middle (a square 12 px in from each side), of its
// top rows (1..3) and of its bottom rows (52..62), and its number of
// distinct colours.
type tileStats struct {
	mid, top, bottom float64
	colors           int
}

// measureTile measures tile r, if at least half of it and some of each
// part measured is clear of the bodies.
func measureTile(img image.Image, r image.Rectangle, bodies []drawnBody) (tileStats, bool) {
	seen := map[color.RGBA]bool{}
	var mid, top, bottom [2]float64
	clear := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if covered(x, y, bodies) {
				continue
			}
			clear++
			c := rgbAt(img, x, y)
			seen[c] = true
			l := (299*float64(c.R) + 587*float64(c.G) + 114*float64(c.B)) / 1000
			dx, dy := x-r.Min.X, y-r.Min.Y
			switch {
			case dy >= 1 && dy <= 3:
				top[0], top[1] = top[0]+l, top[1]+1
			case dy >= 52 && dy <= 62:
				bottom[0], bottom[1] = bottom[0]+l, bottom[1]+1
			}
			if dx >= 12 && dx < 52 && dy >= 12 && dy < 52 {
				mid[0], mid[1] = mid[0]+l, mid[1]+1
			}
		}
	}
	if 2*clear < r.Dx()*r.Dy() || mid[1] < 100 || top[1] < 20 || bottom[1] < 60 {
		return tileStats{}, false
	}
	return tileStats{mid: mid[0] / mid[1], top: top[0] / top[1], bottom: bottom[0] / bottom[1], colors: len(seen)}, true
}
