package wasmsize

import (
	"fmt"
	"io"
)

// Report writes the sections of the WebAssembly binary b and its code by
// package (named by pkg: Namer) or by module, as Markdown tables: the top
// rows, the largest first, and the rest in one (top 0: every row).
func Report(w io.Writer, b []byte, pkg func(string) string, modules bool, top int) error {
	m, err := ParseNamed(b)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n\n", Summary(b, m))
	fmt.Fprintln(w, "| section | bytes |")
	fmt.Fprintln(w, "|---|---:|")
	for _, s := range m.Sections {
		fmt.Fprintf(w, "| %s | %s |\n", s.Name, comma(s.Size))
	}
	kind := "package"
	if modules {
		kind = "module"
	}
	fmt.Fprintln(w)
	WriteGroups(w, Groups(m, pkg, modules), kind, top)
	return nil
}

// ParseNamed is ParseModule for a binary whose functions have names: it
// refuses one built with -ldflags=-s.
func ParseNamed(b []byte) (*Module, error) {
	m, err := ParseModule(b)
	if err != nil {
		return nil, err
	}
	for _, f := range m.Funcs {
		if f.Name != "" {
			return m, nil
		}
	}
	if len(m.Funcs) > 0 {
		return nil, fmt.Errorf("%w: %d functions and no names (built with -ldflags=-s?)", ErrNoNames, len(m.Funcs))
	}
	return m, nil
}

// Summary says in a line how big b is, raw and in gzip -9, and how much
// of it is functions and data.
func Summary(b []byte, m *Module) string {
	code := 0
	for _, f := range m.Funcs {
		code += len(f.Body)
	}
	return fmt.Sprintf("%s bytes, gzip -9 %s; %s functions, %s bytes of code, %s bytes of data", comma(len(b)), comma(gzipSize(b)), comma(len(m.Funcs)), comma(code), comma(m.Data))
}

// WriteGroups writes gs as a Markdown table whose first column is kind:
// the top rows, and the rest in one (top 0: every row).
func WriteGroups(w io.Writer, gs []Group, kind string, top int) {
	code := 0
	for _, g := range gs {
		code += g.Code
	}
	fmt.Fprintf(w, "| %s | functions | code bytes | share of the code | gzip -9 alone |\n|---|---:|---:|---:|---:|\n", kind)
	rest := Group{}
	for i, g := range gs {
		if top > 0 && i >= top {
			rest.Funcs += g.Funcs
			rest.Code += g.Code
			rest.Name = fmt.Sprintf("%d others", len(gs)-top)
			continue
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.1f%% | %s |\n", g.Name, comma(g.Funcs), comma(g.Code), pct(g.Code, code), comma(g.Gzip))
	}
	if rest.Funcs > 0 {
		fmt.Fprintf(w, "| %s | %s | %s | %.1f%% | |\n", rest.Name, comma(rest.Funcs), comma(rest.Code), pct(rest.Code, code))
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// comma writes n with thousands separated by commas.
func comma(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
