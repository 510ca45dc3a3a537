package desktop

import (
	"image"
	"image/png"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
)

func rect(w, h int) image.Rectangle { return image.Rect(0, 0, w, h) }

// savePNG writes img's pixels to path as a PNG. It must run inside the game
// loop (Draw), where pixels can be read back.
func savePNG(img *ebiten.Image, path string) error {
	b := img.Bounds()
	rgba := image.NewRGBA(b)
	img.ReadPixels(rgba.Pix)
	// The screen is opaque; make sure the file is too.
	for i := 3; i < len(rgba.Pix); i += 4 {
		rgba.Pix[i] = 0xff
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, rgba); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
