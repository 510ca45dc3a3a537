package wasmsize

import (
	"strings"
	"testing"
)

func TestPackageOf(t *testing.T) {
	for _, c := range []struct{ sym, want string }{
		{"runtime.mallocgc", "runtime"},
		{"runtime.__mheap_.alloc", "runtime"},
		{"math_big.addVW", "math/big"},
		{"github.com_hajimehoshi_ebiten_v2_internal_ui.__UserInterface_.Run", "github.com/hajimehoshi/ebiten/v2/internal/ui"},
		{"golang.org_x_sync_errgroup.__Group_.Go", "golang.org/x/sync/errgroup"},
		{"slices.partitionOrdered_go.shape.int_", "slices"},
		{"slices.Sort[go.shape.[]github.com_a_b.T]", "slices"},
		{"type_.eq.io_fs.PathError", "(type functions)"},
		{"memeqbody", "(assembly and the linker's)"},
		{"", "(unnamed)"},
		{"syscall.fd_write", "syscall"},
	} {
		if got := PackageOf(c.sym); got != c.want {
			t.Errorf("PackageOf(%q) = %q, want %q", c.sym, got, c.want)
		}
	}
}

// With the import paths known, a path with a dash or an underscore is
// named exactly; without, PackageOf guesses.
func TestNamer(t *testing.T) {
	name := Namer([]string{"github.com/sightline-game/sightline/game/desktop", "github.com/sightline-game/sightline/game", "example.com/snake_case"})
	for _, c := range []struct{ sym, want string }{
		{"github.com_sightline_game_sightline_game_desktop.__Game_.Update", "github.com/sightline-game/sightline/game/desktop"},
		{"github.com_sightline_game_sightline_game.Run", "github.com/sightline-game/sightline/game"},
		{"example.com_snake_case.F", "example.com/snake_case"},
		{"math_big.addVW", "math/big"},
	} {
		if got := name(c.sym); got != c.want {
			t.Errorf("name(%q) = %q, want %q", c.sym, got, c.want)
		}
	}
}

func TestModuleOf(t *testing.T) {
	for _, c := range []struct{ pkg, want string }{
		{"runtime", "std"},
		{"internal/runtime/maps", "std"},
		{"github.com/hajimehoshi/ebiten/v2/internal/ui", "github.com/hajimehoshi/ebiten"},
		{"golang.org/x/sync/errgroup", "golang.org/x/sync"},
		{"example.com/a", "example.com/a"},
		{"(type functions)", "(type functions)"},
	} {
		if got := ModuleOf(c.pkg); got != c.want {
			t.Errorf("ModuleOf(%q) = %q, want %q", c.pkg, got, c.want)
		}
	}
}

func TestReport(t *testing.T) {
	var b strings.Builder
	if err := Report(&b, testModule(), Namer(nil), false, 1); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"345 bytes, gzip -9 ", "3 functions, 206 bytes of code, 8 bytes of data",
		"| code | 211 |",
		"| math/big | 1 | 200 | 97.1% | 27 |",
		"| 2 others | 2 | 6 | 2.9% | |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := Report(&b, testModule(), Namer(nil), true, 0); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "| std | 1 | 200 |") || !strings.Contains(b.String(), "| github.com/a/b | 1 | 2 |") {
		t.Errorf("by module:\n%s", b.String())
	}
}
