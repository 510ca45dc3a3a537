// Package figures reads and writes docs/figures.md, the one generated file
// that holds every figure the documentation quotes, and the marked blocks
// through which a document quotes one.
//
// docs/figures.md is a list of figures, each under a heading of its stable
// name, with what measured it and its content between markers:
//
//	## wasm-sizes
//
//	- command: `make web` ...
//	- measured: 2026-12-05 18:40 UTC
//	- machine: ...
//	- exact: yes ...
//
//	<!-- figure wasm-sizes -->
//	| file | raw | gzip -9 | brotli q11 |
//	...
//	<!-- /figure -->
//
// Any other Markdown file quotes a figure by the same two marker lines
// around a copy of its content. Check finds the copies that differ from the
// file; Rewrite replaces them with the fresh content, which is how `make
// figures` updates every document it measured for.
package figures

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Path is where the figures live, relative to the module's root.
const Path = "docs/figures.md"

// Errors a document's markers or figures can fail with.
var (
	ErrMarkers = errors.New("malformed figure markers")
	ErrUnknown = errors.New("no such figure in " + Path)
	ErrStale   = errors.New("quoted figure differs from " + Path)
)

// Figure is one measured figure or table.
type Figure struct {
	// Name is the figure's stable name: lower case, digits and dashes.
	Name string
	// Title says in a few words what the figure is.
	Title string
	// Command is what measured it, as a reader would run it.
	Command string
	// Measured is when, in UTC ("2006-01-02 15:04 UTC").
	Measured string
	// Machine is where: CPU model, cores, Go version, kernel and load.
	Machine string
	// Exact says whether the figure is the same on every run with the same
	// code and toolchain, and what checks it; empty for a measurement that
	// varies from run to run (then Content carries its date).
	Exact string
	// Content is the quoted text, without a final newline.
	Content string
}

// Block is a document's quote of a figure: the lines between its markers.
type Block struct {
	Name    string
	Line    int // of the opening marker, counted from 1
	Content string
}

const (
	openPrefix = "<!-- figure "
	openSuffix = " -->"
	closeLine  = "<!-- /figure -->"
)

// openName returns the name on an opening marker line, if it is one, and
// the spaces it is indented by: a quote inside a list item is indented as
// the item's text, its content and its closing line by as much.
func openName(line string) (name, indent string, ok bool) {
	line = strings.TrimRight(line, " \t\r")
	body := strings.TrimLeft(line, " ")
	indent = line[:len(line)-len(body)]
	if !strings.HasPrefix(body, openPrefix) || !strings.HasSuffix(body, openSuffix) {
		return "", "", false
	}
	name = strings.TrimSuffix(strings.TrimPrefix(body, openPrefix), openSuffix)
	return name, indent, ValidName(name)
}

// unindent returns line without indent, and whether it began with it (an
// empty line always does).
func unindent(line, indent string) (string, bool) {
	if strings.TrimSpace(line) == "" {
		return "", true
	}
	return strings.CutPrefix(line, indent)
}

// ValidName reports whether name can name a figure.
func ValidName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// Blocks returns the marked blocks of a Markdown document in order. A
// marker left open, a close without an open, or markers nested fail.
func Blocks(doc string) ([]Block, error) {
	var out []Block
	var cur *Block
	var indent string
	var body []string
	for i, line := range strings.Split(doc, "\n") {
		trimmed := strings.TrimSpace(line)
		if name, in, ok := openName(line); ok {
			if cur != nil {
				return nil, fmt.Errorf("%w: line %d opens %q inside %q (line %d)", ErrMarkers, i+1, name, cur.Name, cur.Line)
			}
			cur, indent, body = &Block{Name: name, Line: i + 1}, in, nil
			continue
		}
		if strings.HasPrefix(trimmed, openPrefix) {
			return nil, fmt.Errorf("%w: line %d: %q is not a figure's name", ErrMarkers, i+1, trimmed)
		}
		if trimmed == closeLine {
			if cur == nil {
				return nil, fmt.Errorf("%w: line %d closes no figure", ErrMarkers, i+1)
			}
			if strings.TrimRight(line, " \t\r") != indent+closeLine {
				return nil, fmt.Errorf("%w: line %d closes %q (line %d) indented otherwise", ErrMarkers, i+1, cur.Name, cur.Line)
			}
			cur.Content = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
			continue
		}
		if cur != nil {
			l, ok := unindent(line, indent)
			if !ok {
				return nil, fmt.Errorf("%w: line %d of %q (line %d) is not indented as its markers", ErrMarkers, i+1, cur.Name, cur.Line)
			}
			body = append(body, l)
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%w: %q (line %d) is never closed", ErrMarkers, cur.Name, cur.Line)
	}
	return out, nil
}

// Check compares every block of doc with the figures and returns one
// error for each that is unknown or differs (nil if none).
func Check(doc string, figs map[string]Figure) error {
	blocks, err := Blocks(doc)
	if err != nil {
		return err
	}
	var errs []error
	for _, b := range blocks {
		f, ok := figs[b.Name]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("line %d: %w: %q", b.Line, ErrUnknown, b.Name))
		case b.Content != f.Content:
			errs = append(errs, fmt.Errorf("line %d: %w: %q (measured %s):\n--- quoted\n%s\n--- generated\n%s",
				b.Line, ErrStale, b.Name, f.Measured, b.Content, f.Content))
		}
	}
	return errors.Join(errs...)
}

// Rewrite returns doc with the content of every block named in figs
// replaced by the figure's, and whether anything changed. Blocks of other
// names are left as they are.
func Rewrite(doc string, figs map[string]Figure) (string, bool, error) {
	if _, err := Blocks(doc); err != nil {
		return doc, false, err
	}
	lines := strings.Split(doc, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		name, indent, ok := openName(lines[i])
		if !ok {
			continue
		}
		f, known := figs[name]
		j := i + 1
		for strings.TrimSpace(lines[j]) != closeLine {
			if !known {
				out = append(out, lines[j])
			}
			j++
		}
		if known {
			for _, l := range strings.Split(f.Content, "\n") {
				if l != "" {
					l = indent + l
				}
				out = append(out, l)
			}
		}
		out = append(out, lines[j])
		i = j
	}
	s := strings.Join(out, "\n")
	return s, s != doc, nil
}

// header is the top of docs/figures.md.
const header = `# Figures

Generated: do not edit; ` + "`make figures`" + ` writes it (` + "`go run ./cmd/figures`" + `; ` +
	"`make figures FIGURES=wasm,bytes`" + ` measures only those groups and keeps the rest).
Every figure the documentation quotes is measured here, under a stable name, with the
command that measured it, when and on what machine. A document quotes a figure between
` + "`<!-- figure NAME -->`" + ` and ` + "`<!-- /figure -->`" + ` lines, whose content must equal the
figure's here: ` + "`make figures`" + ` rewrites those blocks in every Markdown file of the
repository, and ` + "`go test ./internal/figures`" + ` fails on a block that differs. The exact
figures (seeded, or sizes of a build) are recomputed by the tests named beside them and must
equal what is written here; the others are measurements that vary from run to run and carry
their date in their content.
`

// Format renders the figures as docs/figures.md, in the order given.
func Format(figs []Figure) string {
	var b strings.Builder
	b.WriteString(header)
	for _, f := range figs {
		fmt.Fprintf(&b, "\n## %s\n\n", f.Name)
		if f.Title != "" {
			fmt.Fprintf(&b, "%s\n\n", f.Title)
		}
		fmt.Fprintf(&b, "- command: %s\n", f.Command)
		fmt.Fprintf(&b, "- measured: %s\n", f.Measured)
		fmt.Fprintf(&b, "- machine: %s\n", f.Machine)
		if f.Exact != "" {
			fmt.Fprintf(&b, "- exact: %s\n", f.Exact)
		} else {
			b.WriteString("- exact: no, a measurement; its content carries its date\n")
		}
		fmt.Fprintf(&b, "\n%s%s%s\n%s\n%s\n", openPrefix, f.Name, openSuffix, f.Content, closeLine)
	}
	return b.String()
}

// Parse reads docs/figures.md as Format writes it.
func Parse(text string) ([]Figure, error) {
	blocks, err := Blocks(text)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]Block, len(blocks))
	for _, b := range blocks {
		byName[b.Name] = b
	}
	var figs []Figure
	var cur *Figure
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if name, ok := strings.CutPrefix(line, "## "); ok {
			if !ValidName(name) {
				return nil, fmt.Errorf("%w: line %d: heading %q is not a figure's name", ErrMarkers, i+1, name)
			}
			b, ok := byName[name]
			if !ok {
				return nil, fmt.Errorf("%w: figure %q (line %d) has no block", ErrMarkers, name, i+1)
			}
			figs = append(figs, Figure{Name: name, Content: b.Content})
			cur = &figs[len(figs)-1]
			continue
		}
		if cur == nil {
			continue
		}
		if _, _, ok := openName(line); ok {
			for i < len(lines) && strings.TrimRight(lines[i], " \t\r") != closeLine {
				i++
			}
			cur = nil
			continue
		}
		if rest, ok := strings.CutPrefix(line, "- "); ok {
			key, value, _ := strings.Cut(rest, ": ")
			switch key {
			case "command":
				cur.Command = value
			case "measured":
				cur.Measured = value
			case "machine":
				cur.Machine = value
			case "exact":
				if !strings.HasPrefix(value, "no,") {
					cur.Exact = value
				}
			}
			continue
		}
		if line != "" && cur.Title == "" && cur.Command == "" {
			cur.Title = line
		}
	}
	if len(figs) != len(blocks) {
		return nil, fmt.Errorf("%w: %d blocks but %d figures", ErrMarkers, len(blocks), len(figs))
	}
	return figs, nil
}

// Index returns the figures by name.
func Index(figs []Figure) map[string]Figure {
	m := make(map[string]Figure, len(figs))
	for _, f := range figs {
		m[f.Name] = f
	}
	return m
}

// Merge returns old with each figure of fresh in its place (a new one at
// the end), in the order of order where it names them.
func Merge(old, fresh []Figure, order []string) []Figure {
	out := slices.Clone(old)
	for _, f := range fresh {
		i := slices.IndexFunc(out, func(o Figure) bool { return o.Name == f.Name })
		if i >= 0 {
			out[i] = f
		} else {
			out = append(out, f)
		}
	}
	rank := func(name string) int {
		if i := slices.Index(order, name); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(out, func(a, b Figure) int { return rank(a.Name) - rank(b.Name) })
	return out
}
