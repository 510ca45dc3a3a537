package protocol

import (
	"encoding/binary"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The kill's row of PROTOCOL.md §7's events table is the code's body: its
// fields, in the order the row names them, each a varint or one byte as
// it says, read back a body AppendKill wrote; and the limits the row
// states are the decoder's.
func TestSpecKillBody(t *testing.T) {
	var row []string
	for _, r := range specRows(t, "kind", "body") {
		if r[0] == "2 kill" {
			row = r
		}
	}
	if row == nil {
		t.Fatal("§7's events table has no row for kind 2 kill")
	}
	body := row[1]
	fields := regexp.MustCompile(`(?:^|, )([a-z]+) (varint|\(1 byte)`).FindAllStringSubmatch(body, -1)
	var names []string
	for _, f := range fields {
		names = append(names, f[1]+" "+f[2])
	}
	want := "killer varint, victim varint, weapon (1 byte, judged (1 byte, behind varint, x varint, y varint, by varint"
	if got := strings.Join(names, ", "); got != want {
		t.Fatalf("the row names the fields %q; the code writes %q", got, want)
	}
	k := Kill{Killer: 300, Victim: 70000, Weapon: 2, Judged: JudgedRewound | JudgedClamped, Behind: 2176, X: 8004, Y: 32768, By: 302}
	values := map[string]uint64{"killer": 300, "victim": 70000, "weapon": 2, "judged": 5, "behind": 2176, "x": 8004, "y": 32768, "by": 302}
	p := AppendKill(nil, k)
	for _, f := range fields {
		var v uint64
		if f[2] == "varint" {
			n := 0
			v, n = binary.Uvarint(p)
			if n <= 0 {
				t.Fatalf("%s: no varint in %x", f[1], p)
			}
			p = p[n:]
		} else {
			v, p = uint64(p[0]), p[1:]
		}
		if v != values[f[1]] {
			t.Errorf("%s reads %d from the body, want %d", f[1], v, values[f[1]])
		}
	}
	if len(p) != 0 {
		t.Errorf("%d bytes of the body left over past the row's fields", len(p))
	}
	// The row's limits.
	for _, l := range []struct {
		re   string
		want uint64
	}{
		{`behind varint \(at most (\d+)`, MaxJudgedBehind},
		{`y varint \(at most (\d+) each`, uint64(PosQuant.Top())},
		{`by varint \(at most (\d+)`, 1 << 16},
	} {
		m := regexp.MustCompile(l.re).FindStringSubmatch(body)
		if m == nil {
			t.Errorf("the row has no %q", l.re)
			continue
		}
		if n, _ := strconv.ParseUint(m[1], 10, 64); n != l.want {
			t.Errorf("the row says %q; the decoder's limit is %d", m[0], l.want)
		}
	}
}
