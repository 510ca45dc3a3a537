package gen

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"github.com/sightline-game/sightline/assets/sheet"
)

// decodeArt runs the art painters and decodes each image by name.
func decodeArt(t *testing.T) map[string]image.Image {
	t.Helper()
	out := map[string]image.Image{}
	err := art(func(path string, data []byte) {
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[path] = img
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Each sheet has the size its layout says, and the art is the same twice.
func TestSheetsMatchTheirLayout(t *testing.T) {
	imgs := decodeArt(t)
	for _, c := range []struct {
		name string
		w, h int
	}{
		{sheet.Player, sheet.PlayerCell * sheet.PlayerCols, sheet.PlayerCell},
		{sheet.Creature, sheet.CreatureCell * sheet.CreatureCols, sheet.CreatureCell},
		{sheet.Bolt, sheet.BoltW * sheet.BoltCols, sheet.BoltH},
		{sheet.Flash, sheet.FlashCell * sheet.FlashFrames, sheet.FlashCell},
		{sheet.Sparks, sheet.SparksCell * sheet.SparksFrames, sheet.SparksCell},
		{sheet.Burst, sheet.BurstCell * sheet.BurstFrames, sheet.BurstCell},
		{sheet.Pickups, sheet.PickupCell * sheet.PickupFrames, sheet.PickupCell * sheet.PickupKinds},
		{sheet.Marks, sheet.MarkCell * sheet.MarkCols, sheet.MarkCell},
		{sheet.Floor, sheet.Tile * sheet.FloorKinds, sheet.Tile},
		{sheet.Walls, sheet.Tile * sheet.WallCols, sheet.Tile * 16 / sheet.WallCols},
	} {
		img, ok := imgs["images/"+c.name+".png"]
		if !ok {
			t.Errorf("no image %s", c.name)
			continue
		}
		if b := img.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
			t.Errorf("%s is %dx%d, its layout says %dx%d", c.name, b.Dx(), b.Dy(), c.w, c.h)
		}
	}
	if len(imgs) != 10 {
		t.Errorf("%d images, want 10", len(imgs))
	}
	again := map[string][]byte{}
	first := map[string][]byte{}
	for i, m := range []map[string][]byte{first, again} {
		if err := art(func(p string, b []byte) { m[p] = b }); err != nil {
			t.Fatal(err, i)
		}
	}
	for p, b := range first {
		if !bytes.Equal(b, again[p]) {
			t.Errorf("%s differs between two runs", p)
		}
	}
}

// The player's sprite is grey, so that the game's tint gives it exactly
// the player's colour; every frame has a body, and the stride's frames
// differ from standing.
func TestPlayerIsGreyAndStrides(t *testing.T) {
	img := decodeArt(t)["images/"+sheet.Player+".png"].(*image.NRGBA)
	const n = sheet.PlayerCell
	frame := func(f int) []byte {
		var px []byte
		for y := range n {
			px = append(px, img.Pix[img.PixOffset(f*n, y):img.PixOffset((f+1)*n, y)]...)
		}
		return px
	}
	idle := frame(sheet.PlayerIdle)
	for f := range sheet.PlayerCols {
		px := frame(f)
		opaque := 0
		for i := 0; i < len(px); i += 4 {
			if r, g, b := px[i], px[i+1], px[i+2]; r != g || g != b {
				t.Fatalf("frame %d has a coloured pixel %v", f, px[i:i+4])
			}
			if px[i+3] == 0xff {
				opaque++
			}
		}
		// The body covers much of the disc of PlayerRadius 14 (615 px).
		if opaque < 400 {
			t.Errorf("frame %d has %d opaque px", f, opaque)
		}
		if f != sheet.PlayerIdle && bytes.Equal(px, idle) && f != sheet.PlayerStep0 && f != sheet.PlayerStep0+sheet.PlayerWalk/2 {
			t.Errorf("walk frame %d is the standing one", f)
		}
	}
	if bytes.Equal(frame(sheet.PlayerStep0+sheet.PlayerWalk/4), frame(sheet.PlayerStep0+3*sheet.PlayerWalk/4)) {
		t.Error("the stride's two extremes are the same frame")
	}
}

// A wall tile is lit along its top only where the tile above is open, and
// dark along its bottom only where the tile below is.
func TestWallEdgesFollowTheMask(t *testing.T) {
	img := decodeArt(t)["images/"+sheet.Walls+".png"]
	lum := func(mask, x, y int) int {
		r, g, b, _ := img.At(mask%sheet.WallCols*sheet.Tile+x, mask/sheet.WallCols*sheet.Tile+y).RGBA()
		return int(299*(r>>8)+587*(g>>8)+114*(b>>8)) / 1000
	}
	for mask := range 16 {
		top, mid, bottom := lum(mask, 20, 1), lum(mask, 20, 8), lum(mask, 20, sheet.Tile-4)
		openN, openS := mask&sheet.WallN == 0, mask&sheet.WallS == 0
		if lit := top > mid+30; lit != openN {
			t.Errorf("mask %04b: top %d, below it %d: lit %v, want %v", mask, top, mid, lit, openN)
		}
		if dark := bottom < mid-25; dark != openS {
			t.Errorf("mask %04b: bottom %d, above it %d: dark %v, want %v", mask, bottom, mid, dark, openS)
		}
	}
}

// BenchmarkArt measures painting every sheet (what assetgen and the
// freshness test run).
func BenchmarkArt(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := art(func(string, []byte) {}); err != nil {
			b.Fatal(err)
		}
	}
}
