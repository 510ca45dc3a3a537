package figures

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sample() []Figure {
	return []Figure{
		{Name: "wasm-sizes", Title: "Sizes.", Command: "`make web`", Measured: "2026-12-05 18:40 UTC",
			Machine: "a CPU, 2 cores, go1.26.0, Linux 6.1", Exact: "yes, a build",
			Content: "| file | raw |\n|---|---:|\n| game.wasm | 13,977,369 B |"},
		{Name: "cpu-pair", Title: "CPU.", Command: "`BASE=cea71ff PAIRS=3 ./scripts/cpupair.sh`", Measured: "2026-12-05 19:00 UTC",
			Machine: "a CPU, 2 cores, go1.26.0, Linux 6.1, load average 4.58 at the start",
			Content: "Measured 2026-12-05 19:00 UTC:\n\nMedian of the 3 ratios: **1.010**."},
	}
}

// A quote whose content is the figure's passes; one that differs by a
// byte, or names no figure, fails; markers left open or nested fail.
func TestQuotesAreChecked(t *testing.T) {
	figs := Index(sample())
	fresh := "# A chapter\n\nThe sizes:\n\n<!-- figure wasm-sizes -->\n| file | raw |\n|---|---:|\n| game.wasm | 13,977,369 B |\n<!-- /figure -->\n\nAfter.\n"
	stale := strings.Replace(fresh, "13,977,369", "13,469,463", 1)
	dir := t.TempDir()
	for _, c := range []struct {
		name, doc string
		want      error
	}{
		{"fresh", fresh, nil},
		{"stale", stale, ErrStale},
		{"unknown", strings.ReplaceAll(fresh, "figure wasm-sizes", "figure wasm-size"), ErrUnknown},
		{"unclosed", strings.Replace(fresh, "<!-- /figure -->", "", 1), ErrMarkers},
		{"nested", strings.Replace(fresh, "| file", "<!-- figure cpu-pair -->\n| file", 1), ErrMarkers},
		{"close alone", "text\n<!-- /figure -->\n", ErrMarkers},
		{"bad name", "<!-- figure Wasm Sizes -->\nx\n<!-- /figure -->\n", ErrMarkers},
	} {
		path := filepath.Join(dir, c.name+".md")
		if err := os.WriteFile(path, []byte(c.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		err = Check(string(b), figs)
		if c.want == nil && err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	blocks, err := Blocks(fresh)
	if err != nil || len(blocks) != 1 || blocks[0].Name != "wasm-sizes" || blocks[0].Line != 5 {
		t.Errorf("blocks %+v, %v; want wasm-sizes at line 5", blocks, err)
	}
}

// Rewrite puts the fresh content in a stale quote (and leaves the rest of
// the document and the quotes of other figures alone), after which the
// check passes; a document already fresh is unchanged.
func TestRewriteFreshensQuotes(t *testing.T) {
	figs := Index(sample())
	doc := "Top.\n<!-- figure wasm-sizes -->\nold\nlines\n<!-- /figure -->\nMiddle.\n<!-- figure other -->\nkept\n<!-- /figure -->\nEnd.\n"
	got, changed, err := Rewrite(doc, figs)
	if err != nil || !changed {
		t.Fatalf("changed %v, %v", changed, err)
	}
	want := "Top.\n<!-- figure wasm-sizes -->\n" + figs["wasm-sizes"].Content + "\n<!-- /figure -->\nMiddle.\n<!-- figure other -->\nkept\n<!-- /figure -->\nEnd.\n"
	if got != want {
		t.Errorf("rewrote\n%s\nwant\n%s", got, want)
	}
	delete(figs, "other")
	if err := Check(strings.Replace(got, "<!-- figure other -->\nkept\n<!-- /figure -->\n", "", 1), figs); err != nil {
		t.Errorf("after the rewrite: %v", err)
	}
	again, changed, err := Rewrite(got, figs)
	if err != nil || changed || again != got {
		t.Errorf("a second rewrite changed %v, %v", changed, err)
	}
}

// A quote inside a list item is indented as the item's text: its content
// is read without the indent and rewritten with it; a line of the quote
// indented less, or a close indented otherwise, is malformed.
func TestIndentedQuotes(t *testing.T) {
	figs := Index(sample())
	fresh := figs["wasm-sizes"].Content
	doc := "- An item:\n  <!-- figure wasm-sizes -->\n  old\n\n  lines\n  <!-- /figure -->\n- Next.\n"
	blocks, err := Blocks(doc)
	if err != nil || len(blocks) != 1 || blocks[0].Content != "old\n\nlines" {
		t.Fatalf("blocks %+v, %v", blocks, err)
	}
	got, changed, err := Rewrite(doc, figs)
	want := "- An item:\n  <!-- figure wasm-sizes -->\n" + "  " + strings.ReplaceAll(fresh, "\n", "\n  ") + "\n  <!-- /figure -->\n- Next.\n"
	if err != nil || !changed || got != want {
		t.Fatalf("rewrote (%v, %v)\n%s\nwant\n%s", changed, err, got, want)
	}
	if err := Check(got, figs); err != nil {
		t.Errorf("after the rewrite: %v", err)
	}
	for _, bad := range []string{
		"  <!-- figure wasm-sizes -->\n old\n  <!-- /figure -->\n",
		"  <!-- figure wasm-sizes -->\n  old\n<!-- /figure -->\n",
	} {
		if _, err := Blocks(bad); !errors.Is(err, ErrMarkers) {
			t.Errorf("%q: %v, want %v", bad, err, ErrMarkers)
		}
	}
}

// What Format writes, Parse reads back whole.
func TestFormatParse(t *testing.T) {
	want := sample()
	text := Format(want)
	if !strings.Contains(text, "do not edit; `make figures` writes it") {
		t.Errorf("the file does not say it is generated:\n%s", text)
	}
	got, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("parsed %d figures, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("figure %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
	merged := Merge(want, []Figure{{Name: "bandwidth-model", Content: "x"}, {Name: "cpu-pair", Content: "new"}},
		[]string{"bandwidth-model", "wasm-sizes", "cpu-pair"})
	if len(merged) != 3 || merged[0].Name != "bandwidth-model" || merged[2].Content != "new" {
		t.Errorf("merged %+v", merged)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 13977369: "13,977,369", -1234: "-1,234"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// docs/figures.md is whole (every figure says what measured it, when and
// where; a measurement that varies carries its date in what a document
// quotes), and every Markdown file of the module quotes its figures as
// they are there.
func TestDocumentsQuoteTheFigures(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	figs, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) == 0 {
		t.Fatalf("%s holds no figure", Path)
	}
	if b, err := os.ReadFile(filepath.Join(root, Path)); err != nil || string(b) != Format(figs) {
		t.Errorf("%s is not as `make figures` writes it (edited by hand?): %v", Path, err)
	}
	for _, f := range figs {
		if f.Command == "" || f.Measured == "" || f.Machine == "" {
			t.Errorf("figure %s: command %q, measured %q, machine %q", f.Name, f.Command, f.Measured, f.Machine)
		}
		if f.Exact == "" && !strings.Contains(f.Content, f.Measured[:len("2006-01-02")]) {
			t.Errorf("figure %s is a measurement but its content does not carry its date (%s)", f.Name, f.Measured)
		}
	}
	docs, err := Documents(root)
	if err != nil {
		t.Fatal(err)
	}
	byName := Index(figs)
	quotes := 0
	for _, rel := range docs {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := Check(string(b), byName); err != nil {
			t.Errorf("%s: %v\n(run `make figures` to measure again and rewrite the quotes)", rel, err)
		}
		blocks, _ := Blocks(string(b))
		quotes += len(blocks)
	}
	t.Logf("%d documents, %d quotes of %d figures", len(docs), quotes, len(figs))
}
