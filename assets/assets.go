// Package assets holds the game's art and sounds as files, embedded in the
// binaries that draw and play them: sprite sheets and tiles as PNG under
// images/, sound effects as WAV (16-bit PCM) under sounds/.
//
// Every file is made by the generator in package assets/gen (run it with
// `go run ./cmd/assetgen`, which rewrites images/ and sounds/); none is drawn
// or recorded by hand or downloaded. A test fails when a file here differs
// from what the generator makes, so the files and their generator never
// drift apart.
//
// The package knows nothing of Ebitengine: it hands out decoded images and
// the bytes of sounds; the desktop and browser clients turn them into
// textures and audio players. The dedicated server links none of it.
package assets

import (
	"bytes"
	"embed"
	"fmt"
	"image"
	"image/png"
	"io/fs"
	"path"
	"slices"
	"strings"
)

//go:embed images sounds
var files embed.FS

// Image returns the decoded image images/name.png.
func Image(name string) (image.Image, error) {
	b, err := files.ReadFile(path.Join("images", name+".png"))
	if err != nil {
		return nil, fmt.Errorf("assets: image %q: %w", name, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("assets: image %q: %w", name, err)
	}
	return img, nil
}

// Sound returns the bytes of sounds/name.wav, a RIFF WAVE file of 16-bit
// PCM.
func Sound(name string) ([]byte, error) {
	b, err := files.ReadFile(path.Join("sounds", name+".wav"))
	if err != nil {
		return nil, fmt.Errorf("assets: sound %q: %w", name, err)
	}
	return b, nil
}

// Images returns the names of every image, sorted.
func Images() []string { return names("images", ".png") }

// Sounds returns the names of every sound, sorted.
func Sounds() []string { return names("sounds", ".wav") }

func names(dir, ext string) []string {
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ext); ok {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
