// Command assetgen rebuilds the game's art, sounds and glyph atlases: it runs the
// generator (package assets/gen) and writes its files into the assets
// folder, removing any image, sound or font file the generator no longer makes.
//
//	go run ./cmd/assetgen            # from the repository's root
//	go run ./cmd/assetgen -dir assets
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sightline-game/sightline/assets/gen"
)

func main() {
	dir := flag.String("dir", "assets", "the assets folder to write into")
	flag.Parse()
	if err := run(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "assetgen:", err)
		os.Exit(1)
	}
}

func run(dir string) error {
	files, err := gen.Files()
	if err != nil {
		return err
	}
	for _, sub := range []string{"images", "sounds", "fonts"} {
		old, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		for _, p := range old {
			if filepath.Base(p) == "README.md" {
				continue // says what the folder holds; not generated
			}
			rel, _ := filepath.Rel(dir, p)
			if _, keep := files[filepath.ToSlash(rel)]; !keep {
				if err := os.Remove(p); err != nil {
					return err
				}
			}
		}
	}
	total := 0
	for _, p := range gen.Paths(files) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			return err
		}
		total += len(files[p])
	}
	fmt.Printf("assetgen: %d files, %d bytes, in %s\n", len(files), total, dir)
	return nil
}
