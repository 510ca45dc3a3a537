// Package gen makes every file of package assets: it renders the sprite
// sheets and tiles (art.go), writes the sound effects package assets/sfx synthesizes and
// rasterizes the text's glyph atlases from the Go fonts (fonts.go),
// deterministically, so that the same generator always writes the same
// bytes. cmd/assetgen writes its output into assets/; the assets package's
// test checks that the committed files are what it makes.
package gen

import (
	"fmt"
	"maps"
	"slices"

	"github.com/sightline-game/sightline/assets/sfx"
)

// Files returns every asset file by its path under assets/ (such as
// "images/player.png" or "sounds/shot.wav") with its contents.
func Files() (map[string][]byte, error) {
	out := map[string][]byte{}
	var err error
	add := func(path string, data []byte) {
		if _, dup := out[path]; dup && err == nil {
			err = fmt.Errorf("gen: %s made twice", path)
		}
		out[path] = data
	}
	if e := art(add); e != nil {
		return nil, e
	}
	for _, n := range sfx.Names() {
		b, e := sfx.WAV(n)
		if e != nil {
			return nil, e
		}
		add("sounds/"+n+".wav", b)
	}
	if e := fonts(add); e != nil {
		return nil, e
	}
	return out, err
}

// Paths returns the paths Files makes, sorted.
func Paths(files map[string][]byte) []string {
	return slices.Sorted(maps.Keys(files))
}
