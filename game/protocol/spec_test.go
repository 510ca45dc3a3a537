package protocol

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/internal/mdtable"
	"github.com/sightline-game/sightline/netcode/bitpack"
)

// specPath is the protocol's specification, which these tests hold to the
// code: a table copied by hand into a document will one day be wrong.
const specPath = "../../docs/PROTOCOL.md"

// specRows returns the rows of the spec's markdown tables whose header row
// starts with the cells of header, each row as its cells, trimmed.
func specRows(t *testing.T, header ...string) [][]string {
	t.Helper()
	doc, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	rows := mdtable.Rows(string(doc), header...)
	if len(rows) == 0 {
		t.Fatalf("%s has no table headed %q", specPath, header)
	}
	return rows
}

// lengthsOf parses a row's codeword lengths.
func lengthsOf(t *testing.T, cell string) []uint8 {
	t.Helper()
	var out []uint8
	for _, f := range strings.Fields(cell) {
		n, err := strconv.ParseUint(f, 10, 8)
		if err != nil {
			t.Fatalf("codeword lengths %q: %v", cell, err)
		}
		out = append(out, uint8(n))
	}
	return out
}

// complete reports whether lengths (0: the symbol has no codeword) make a
// complete prefix code: the Kraft sum of its codewords is exactly 1, so no
// codeword is missing and none is one too many.
func complete(lengths []uint8) (bool, string) {
	sum := new(big.Rat)
	for _, l := range lengths {
		if l > 0 {
			sum.Add(sum, new(big.Rat).SetFrac64(1, 1<<l))
		}
	}
	return sum.Cmp(big.NewRat(1, 1)) == 0, sum.RatString()
}

// The code tables of PROTOCOL.md §4.3 are the codes the game's deltas are
// written with, each a complete prefix code.
func TestSpecCodeTables(t *testing.T) {
	s := Schema()
	plain := map[string]*bitpack.Code{
		"x": s.Fields[FieldX].Code, "y": s.Fields[FieldY].Code, "heading": s.Fields[FieldHeading].Code,
		"kind": s.Fields[FieldKind].Code, "state": s.Fields[FieldState].Code, "health": s.Fields[FieldHealth].Code,
		"new x": s.Fields[FieldX].NewCode, "new y": s.Fields[FieldY].NewCode, "new heading": s.Fields[FieldHeading].NewCode,
		"new kind": s.Fields[FieldKind].NewCode, "new state": s.Fields[FieldState].NewCode, "new health": s.Fields[FieldHealth].NewCode,
		"spawn x": s.Fields[FieldX].SpawnCode, "spawn y": s.Fields[FieldY].SpawnCode, "spawn heading": s.Fields[FieldHeading].SpawnCode,
		"mask": s.MaskCode,
	}
	seen := map[string]bool{}
	for _, row := range specRows(t, "code", "symbols", "codeword lengths") {
		if strings.HasPrefix(row[2], "none") {
			continue
		}
		for _, name := range strings.Split(row[0], ", ") {
			checkSpecCode(t, "§4.3 "+name, lengthsOf(t, row[2]), plain[name])
			seen[name] = true
		}
	}
	for name := range plain {
		if !seen[name] {
			t.Errorf("§4.3 prints no %s code", name)
		}
	}

	contexts := map[string]int{"player": ctxPlayer, "walking creature": ctxCreatureWalking, "idle creature": ctxCreatureIdle}
	fields := map[string]int{"x": FieldX, "y": FieldY, "heading": FieldHeading, "state": FieldState, "health": FieldHealth}
	seenCtx := map[string]bool{}
	for _, row := range specRows(t, "context", "code", "codeword lengths") {
		k, ok := contexts[row[0]]
		if !ok {
			t.Errorf("§4.3 prints codes of a context %q the game has not", row[0])
			continue
		}
		for _, name := range strings.Split(row[1], ", ") {
			var c *bitpack.Code
			if name == "mask" {
				c = s.Contexts[k].Mask
			} else if f, ok := fields[name]; ok {
				c = s.Contexts[k].Fields[f]
			}
			checkSpecCode(t, "§4.3 "+row[0]+" "+name, lengthsOf(t, row[2]), c)
			seenCtx[row[0]+" "+name] = true
		}
	}
	for ctx := range contexts {
		for _, name := range []string{"x", "y", "heading", "state", "health", "mask"} {
			if !seenCtx[ctx+" "+name] {
				t.Errorf("§4.3 prints no %s code for the %s context", name, ctx)
			}
		}
	}
}

func checkSpecCode(t *testing.T, what string, printed []uint8, c *bitpack.Code) {
	t.Helper()
	if c == nil {
		t.Errorf("%s: printed, but the game has no such code", what)
		return
	}
	if got := c.Lengths(); fmt.Sprint(got) != fmt.Sprint(printed) {
		t.Errorf("%s: the spec prints %v, the code is %v", what, printed, got)
	}
	if ok, sum := complete(printed); !ok {
		t.Errorf("%s: the printed lengths are not a complete prefix code (Kraft sum %s)", what, sum)
	}
}

// Every version the spec names for an offer or a refusal is the one the
// server speaks.
func TestSpecVersion(t *testing.T) {
	b, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	want := strconv.Itoa(Version)
	for _, re := range []*regexp.Regexp{
		regexp.MustCompile(`Protocol version: \*\*(\d+)\*\*`),
		regexp.MustCompile(`"version": ?(\d+)`),
		regexp.MustCompile(`this server speaks (\d+)`),
	} {
		ms := re.FindAllStringSubmatch(doc, -1)
		if len(ms) == 0 {
			t.Errorf("the spec has no %q", re)
		}
		for _, m := range ms {
			if m[1] != want {
				t.Errorf("the spec says %q; the server speaks %s", m[0], want)
			}
		}
	}
}

// The input's size and the golden input of §5 are the code's.
func TestSpecInput(t *testing.T) {
	b, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("count inputs of %d bytes", InputSize); !strings.Contains(string(b), want) {
		t.Errorf("the spec does not say %q", want)
	}
	if want := fmt.Sprintf("An input is %d bytes", InputSize); !strings.Contains(string(b), want) {
		t.Errorf("the spec does not say %q", want)
	}
}

// The speeds of §4.3's step tables are the predictor's.
func TestSpecStepTables(t *testing.T) {
	b, err := os.ReadFile(specPath)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, tc := range []struct {
		what  string
		speed float64 // px/s
	}{
		{"Projectiles use S = %d", arena.ProjectileSpeed},
		{"creatures S = %d", arena.CreatureSpeed},
	} {
		s := int(math.Round(tc.speed * arena.Dt * UnitsPerPx * 256))
		if want := fmt.Sprintf(tc.what, s); !strings.Contains(doc, want) {
			t.Errorf("the spec does not say %q", want)
		}
	}
}
