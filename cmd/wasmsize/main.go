// Command wasmsize says what a Go WebAssembly binary is made of: its
// sections, and its code by package or by module, each with the bytes of
// its functions' bodies and those bytes compressed alone with gzip -9 (a
// player on a LAN downloads game.wasm in gzip). The names come from the
// "name" section, so build without -ldflags=-s:
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/game.wasm ./wasm
//	go run ./cmd/wasmsize /tmp/game.wasm                # the 25 largest packages
//	go run ./cmd/wasmsize -by module -top 0 /tmp/game.wasm
//
// The linker writes every character of a name but letters, digits, "_"
// and "." as "_", so a package's path is a guess ("/" for each "_") unless
// -deps names the packages the binary was built from:
//
//	go run ./cmd/wasmsize -deps ./wasm /tmp/game.wasm
//
// The code a package's functions take is exact; what a package costs the
// download is not a sum (gzip finds repeats across packages), so the
// gzip column of each row is that row's code compressed alone.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/sightline-game/sightline/internal/wasmsize"
)

func main() {
	by := flag.String("by", "package", "group the code by package or by module")
	top := flag.Int("top", 25, "rows shown, the largest first (0: all)")
	deps := flag.String("deps", "", "the package the binary was built from (go list -deps, for js/wasm), to name the packages exactly")
	flag.Parse()
	if flag.NArg() != 1 || (*by != "package" && *by != "module") {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-by package|module] [-top N] FILE.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	var paths []string
	if *deps != "" {
		cmd := exec.Command("go", "list", "-deps", *deps)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "wasmsize: go list -deps:", err)
			os.Exit(1)
		}
		paths = strings.Fields(string(out))
	}
	if err := wasmsize.Report(os.Stdout, b, wasmsize.Namer(paths), *by == "module", *top); err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
}
