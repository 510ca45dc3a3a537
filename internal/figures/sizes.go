package figures

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Names of the figures that tests outside this package recompute.
const (
	WasmSizes      = "wasm-sizes"
	WasmSizesLine  = "wasm-sizes-line"
	BandwidthModel = "bandwidth-model"
	BandwidthArena = "bandwidth-arena"
)

// Sizes are one served file's sizes in bytes: raw, gzip -9 and brotli
// quality 11, and packed in LZMA by xz -9e (0: not packed), as
// cmd/precompress writes them.
type Sizes struct {
	File                    string
	Raw, Gzip, Brotli, LZMA int
}

// SizesTable is the wasm-sizes figure: each file's sizes, with the share
// of the raw size in brackets.
func SizesTable(files []Sizes) string {
	var b strings.Builder
	b.WriteString("| file | raw | gzip -9 | brotli q11 | LZMA, xz -9e (plain http) |\n|---|---:|---:|---:|---:|")
	for _, s := range files {
		packed := "-"
		if s.LZMA > 0 {
			packed = fmt.Sprintf("%s B (%s)", Thousands(s.LZMA), share(s.LZMA, s.Raw))
		}
		fmt.Fprintf(&b, "\n| %s | %s B | %s B (%s) | %s B (%s) | %s |", s.File,
			Thousands(s.Raw), Thousands(s.Gzip), share(s.Gzip, s.Raw), Thousands(s.Brotli), share(s.Brotli, s.Raw), packed)
	}
	return b.String()
}

// SizesLine is the wasm-sizes-line figure: game.wasm's sizes in a
// sentence, in MB (millions of bytes).
func SizesLine(s Sizes) string {
	return fmt.Sprintf("game.wasm is **%.2f MB on the wire in brotli** (%.2f MB raw, %.2f MB gzip; %.2f MB packed in LZMA for a browser on plain http).",
		mb(s.Brotli), mb(s.Raw), mb(s.Gzip), mb(s.LZMA))
}

func mb(n int) float64 { return float64(n) / 1e6 }

func share(part, whole int) string {
	if whole == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(part)/float64(whole))
}

// Thousands writes n with commas between its thousands.
func Thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Load reads and parses the module's docs/figures.md under root.
func Load(root string) ([]Figure, error) {
	b, err := os.ReadFile(filepath.Join(root, Path))
	if err != nil {
		return nil, fmt.Errorf("figures: %w", err)
	}
	figs, err := Parse(string(b))
	if err != nil {
		return nil, fmt.Errorf("figures: %s: %w", Path, err)
	}
	return figs, nil
}

// ModuleRoot finds the module's root from dir: the nearest directory
// above it (or dir itself) holding go.mod.
func ModuleRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("figures: no go.mod above %s", dir)
		}
		dir = parent
	}
}

// Documents returns the Markdown files under root that may quote figures,
// relative to root: every *.md but those under .git, out, bin and
// testdata directories, and docs/figures.md itself.
func Documents(root string) ([]string, error) {
	var docs []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "out", "bin", "testdata", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".md") && filepath.ToSlash(rel) != Path {
			docs = append(docs, rel)
		}
		return nil
	})
	return docs, err
}
