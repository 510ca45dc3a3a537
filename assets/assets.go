// Package assets holds the game's art and sounds as files: sprite sheets
// and tiles as PNG under images/, embedded in the binaries that draw them,
// and sound effects as WAV (16-bit PCM) under sounds/, which the binaries
// synthesize from their recipes instead (package assets/sfx, the same
// bytes): a browser player downloads a few kilobytes of code rather than
// some 130 KB of samples.
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
//
// The text's fonts are bitmaps too: under fonts/, each face (package
// assets/glyphs names them) is an atlas of white glyphs on transparent,
// NAME.png, and its metrics, NAME.glyphs, rendered from the Go fonts by the
// generator, so that the clients draw text without a font rasterizer or a
// shaper.
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

	"github.com/sightline-game/sightline/assets/glyphs"
	"github.com/sightline-game/sightline/assets/sfx"
)

//go:embed images fonts
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

// Sound returns the sound effect name as a RIFF WAVE file of 16-bit PCM,
// the bytes of sounds/name.wav: synthesized from its recipe (package
// assets/sfx), not read from the file, which the binaries do not carry.
func Sound(name string) ([]byte, error) {
	b, err := sfx.WAV(name)
	if err != nil {
		return nil, fmt.Errorf("assets: sound %q: %w", name, err)
	}
	return b, nil
}

// Font returns the face fonts/name: its metrics and its atlas.
func Font(name string) (*glyphs.Face, image.Image, error) {
	b, err := files.ReadFile(path.Join("fonts", name+".glyphs"))
	if err != nil {
		return nil, nil, fmt.Errorf("assets: font %q: %w", name, err)
	}
	face, err := glyphs.Parse(b)
	if err != nil {
		return nil, nil, fmt.Errorf("assets: font %q: %w", name, err)
	}
	b, err = files.ReadFile(path.Join("fonts", name+".png"))
	if err != nil {
		return nil, nil, fmt.Errorf("assets: font %q: %w", name, err)
	}
	atlas, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return nil, nil, fmt.Errorf("assets: font %q: %w", name, err)
	}
	if s := atlas.Bounds().Size(); s.X != face.AtlasW || s.Y != face.AtlasH {
		return nil, nil, fmt.Errorf("assets: font %q: the atlas is %v, its glyphs say %dx%d", name, s, face.AtlasW, face.AtlasH)
	}
	return face, atlas, nil
}

// Fonts returns the names of every face, sorted.
func Fonts() []string { return names("fonts", ".glyphs") }

// Images returns the names of every image, sorted.
func Images() []string { return names("images", ".png") }

// Sounds returns the names of every sound, sorted.
func Sounds() []string { return slices.Sorted(slices.Values(sfx.Names())) }

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
