package wasmsize

import (
	"bytes"
	"compress/gzip"
	"regexp"
	"slices"
	"strings"
)

// Group is the code of one package or module.
type Group struct {
	Name  string
	Funcs int
	Code  int // bytes of the function bodies
	Gzip  int // those bytes compressed alone, gzip -9
}

// Namer returns the function that names a symbol's package: exactly,
// for the packages of paths, else as PackageOf guesses.
func Namer(paths []string) func(sym string) string {
	mangled := map[string]string{}
	for _, p := range paths {
		mangled[unnamed.ReplaceAllString(p, "_")] = p
	}
	return func(sym string) string {
		s := sym
		if i := strings.IndexByte(s, '['); i >= 0 {
			s = s[:i]
		}
		// The longest known path before a dot.
		for i := len(s) - 1; i > 0; i-- {
			if s[i] == '.' {
				if p, ok := mangled[s[:i]]; ok {
					return p
				}
			}
		}
		return PackageOf(sym)
	}
}

// unnamed matches what the linker writes as "_" in a function's name.
var unnamed = regexp.MustCompile(`[^\w.]`)

// Groups totals m's function bodies by package (named by pkg; or, with
// modules, by module), the largest first.
func Groups(m *Module, pkg func(string) string, modules bool) []Group {
	idx := map[string]int{}
	var gs []Group
	var code [][]byte
	for _, f := range m.Funcs {
		name := pkg(f.Name)
		if modules {
			name = ModuleOf(name)
		}
		i, ok := idx[name]
		if !ok {
			i = len(gs)
			idx[name] = i
			gs = append(gs, Group{Name: name})
			code = append(code, nil)
		}
		gs[i].Funcs++
		gs[i].Code += len(f.Body)
		code[i] = append(code[i], f.Body...)
	}
	for i := range gs {
		gs[i].Gzip = gzipSize(code[i])
	}
	slices.SortStableFunc(gs, func(a, b Group) int { return b.Code - a.Code })
	return gs
}

// PackageOf returns the import path of the function named sym in a Go
// WebAssembly binary's name section, where the linker writes "/", "(",
// "*" and ")" as "_": "runtime" of "runtime.mallocgc", "math/big" of
// "math_big.addVW", "github.com/a/b" of "github.com_a_b.__T_.M". The
// slashes it gives back are a guess for a path that held "_" itself.
// Type functions ("type:.eq...") are one group, and a name without a
// package (the runtime's assembly) another.
func PackageOf(sym string) string {
	if sym == "" {
		return "(unnamed)"
	}
	s := sym
	if i := strings.IndexByte(s, '['); i >= 0 { // a generic's type arguments
		s = s[:i]
	}
	if strings.HasPrefix(s, "type_.") || strings.HasPrefix(s, "type:") {
		return "(type functions)"
	}
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		return "(assembly and the linker's)"
	}
	// A first element that is a domain: its dot is not the symbol's.
	if !strings.Contains(s[:dot], "_") {
		tld, _, ok := strings.Cut(s[dot+1:], "_")
		if ok && domains[tld] {
			if next := strings.IndexByte(s[dot+1:], '.'); next >= 0 {
				dot += 1 + next
			}
		}
	}
	return strings.ReplaceAll(s[:dot], "_", "/")
}

// domains are the top-level domains a module path's first element ends in.
var domains = map[string]bool{"com": true, "org": true, "net": true, "io": true, "in": true, "dev": true, "cc": true, "co": true}

// ModuleOf returns the module a package's import path most likely belongs
// to: "std" for the standard library, the first three elements of a path
// on a code host (github.com/OWNER/REPO, golang.org/x/NAME), the whole
// path else.
func ModuleOf(pkg string) string {
	first, _, _ := strings.Cut(pkg, "/")
	switch {
	case strings.HasPrefix(pkg, "("):
		return pkg
	case !strings.Contains(first, "."):
		return "std"
	}
	parts := strings.SplitN(pkg, "/", 4)
	if len(parts) > 3 {
		parts = parts[:3]
	}
	return strings.Join(parts, "/")
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}
