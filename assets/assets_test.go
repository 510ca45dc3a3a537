package assets

import (
	"bytes"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/assets/gen"
	"github.com/sightline-game/sightline/assets/glyphs"
)

// The committed files are exactly what the generator makes: none stale,
// none missing, none extra. After changing the generator, run
// `go run ./cmd/assetgen`.
func TestFilesAreFresh(t *testing.T) {
	want, err := gen.Files()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	disk := os.DirFS(".")
	err = fs.WalkDir(disk, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(p) == "README.md" || !slices.Contains([]string{"images", "sounds", "fonts"}, strings.Split(p, "/")[0]) {
			return err
		}
		have[p] = true
		b, _ := fs.ReadFile(disk, p)
		g, ok := want[p]
		switch {
		case !ok:
			t.Errorf("%s: the generator no longer makes it (run go run ./cmd/assetgen)", p)
		case !bytes.Equal(b, g):
			t.Errorf("%s: stale, %d bytes committed, the generator makes %d (run go run ./cmd/assetgen)", p, len(b), len(g))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range gen.Paths(want) {
		if !have[p] {
			t.Errorf("%s: made by the generator, not committed (run go run ./cmd/assetgen)", p)
		}
	}
}

// Every image and sound decodes; there are enough of them, and all of them
// together stay small enough for a browser to download.
func TestEveryFileDecodes(t *testing.T) {
	total := 0
	images, sounds := Images(), Sounds()
	for _, n := range images {
		img, err := Image(n)
		if err != nil {
			t.Fatal(err)
		}
		if b := img.Bounds(); b.Dx() < 4 || b.Dy() < 4 {
			t.Errorf("image %s is %v", n, b)
		}
		raw, _ := files.ReadFile("images/" + n + ".png")
		total += len(raw)
	}
	for _, n := range sounds {
		b, err := Sound(n)
		if err != nil {
			t.Fatal(err)
		}
		w, err := ParseWAV(b)
		if err != nil {
			t.Fatalf("sound %s: %v", n, err)
		}
		if w.Frames < w.SampleRate/50 || w.Frames > 4*w.SampleRate {
			t.Errorf("sound %s lasts %d frames at %d Hz", n, w.Frames, w.SampleRate)
		}
		total += len(b)
	}
	fonts := Fonts()
	for _, n := range fonts {
		face, atlas, err := Font(n)
		if err != nil {
			t.Fatal(err)
		}
		if face.Index('A') == face.Index(glyphs.Fallback) || atlas.Bounds().Dx() < 64 {
			t.Errorf("font %s: no glyph of its own for A, or a %v atlas", n, atlas.Bounds())
		}
		for _, ext := range []string{".png", ".glyphs"} {
			raw, _ := files.ReadFile("fonts/" + n + ext)
			total += len(raw)
		}
	}
	t.Logf("%d images, %d sounds, %d fonts, %d bytes in all", len(images), len(sounds), len(fonts), total)
	if want := []string{glyphs.Bold22, glyphs.Bold40, glyphs.Mono13, glyphs.Regular13, glyphs.Regular16}; !slices.Equal(fonts, want) {
		t.Errorf("fonts %q, want %q", fonts, want)
	}
	if _, _, err := Font("no such font"); err == nil {
		t.Error("a missing font loads")
	}
	if len(images) < 8 || len(sounds) < 8 {
		t.Errorf("%d images and %d sounds, want at least 8 of each", len(images), len(sounds))
	}
	if total > 400<<10 {
		t.Errorf("the assets take %d bytes, more than 400 KiB", total)
	}
	if _, err := Image("no such image"); err == nil {
		t.Error("a missing image loads")
	}
}

func TestWAVRoundTrip(t *testing.T) {
	samples := []int16{0, 1000, -1000, 32767, -32768, 5}
	b := AppendWAV(nil, 22050, 2, samples)
	w, err := ParseWAV(b)
	if err != nil || w.SampleRate != 22050 || w.Channels != 2 || w.Frames != 3 || len(w.Data) != 12 {
		t.Fatalf("%+v %v", w, err)
	}
	for _, bad := range [][]byte{nil, []byte("RIFF0000WAVX"), b[:40], append([]byte("RIFF\x00\x00\x00\x00WAVEdata\x04\x00\x00\x00"), 0, 0, 0, 0)} {
		if _, err := ParseWAV(bad); err == nil {
			t.Errorf("%q parses", bad)
		}
	}
}
