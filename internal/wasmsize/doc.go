// Package wasmsize says what a Go WebAssembly binary is made of: it reads
// the binary's sections, its functions' bodies and their names (the
// "name" custom section, which `go build` writes unless -ldflags=-s strips
// it), and totals the code by package or by module (cmd/wasmsize, and
// `make figures FIGURES=wasm`'s wasm-code figure).
package wasmsize
