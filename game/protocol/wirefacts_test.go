package protocol

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// The tests of this file pin the wire facts docs/PROTOCOL.md states about
// the corners of the format (set gaps, masks and residuals and their
// codes, predictions, empty packets, the first sequence numbers of a connection),
// each on a golden packet of its own that the document names. They use
// only the schema and the netcode packages, and literal numbers, so that
// they read like the document: a field, its width, its value.

// wireGolden compares got with testdata/golden/name.hex (rewriting the file
// first with -update) and returns the golden bytes. Every golden packet
// goes through it.
func wireGolden(t *testing.T, name string, got []byte) []byte {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".hex")
	if *update {
		if err := os.WriteFile(path, []byte(wireHex(got)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := hex.DecodeString(strings.Join(strings.Fields(string(text)), ""))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: encoding changed:\n got %x\nwant %x", name, got, want)
	}
	return want
}

// wireHex writes bytes as hex, 16 to a line, the golden files' format.
func wireHex(b []byte) string {
	var s strings.Builder
	for i, c := range b {
		switch {
		case i > 0 && i%16 == 0:
			s.WriteByte('\n')
		case i > 0:
			s.WriteByte(' ')
		}
		fmt.Fprintf(&s, "%02x", c)
	}
	s.WriteByte('\n')
	return s.String()
}

// bitCursor reads a packet field by field, checking each against the value
// the document says it holds; go test -v lists the fields with their bits.
type bitCursor struct {
	t     *testing.T
	r     bitpack.Reader
	total int
}

func newBitCursor(t *testing.T, p []byte) *bitCursor {
	return &bitCursor{t: t, r: bitpack.NewReader(p), total: 8 * len(p)}
}

// newDeltaCursor checks a delta's last byte, its check byte, and returns
// a cursor over the bits before it.
func newDeltaCursor(t *testing.T, p []byte) *bitCursor {
	t.Helper()
	n := len(p) - 1
	if got, want := p[n], delta.Check(p[:n]); got != want {
		t.Fatalf("check byte %#02x, want %#02x", got, want)
	}
	t.Logf("byte %d: check byte = %#02x", n, p[n])
	return newBitCursor(t, p[:n])
}

// pos returns the index of the next bit in the stream.
func (c *bitCursor) pos() int { return c.total - c.r.Remaining() }

func (c *bitCursor) check(at int, what string, got, want uint32) {
	c.t.Helper()
	if err := c.r.Err(); err != nil {
		c.t.Fatalf("bit %d, %s: %v", at, what, err)
	}
	if got != want {
		c.t.Fatalf("bit %d, %s = %d, want %d", at, what, got, want)
	}
	c.t.Logf("bits %3d-%3d: %s = %d", at, c.pos()-1, what, got)
}

// field reads n bits and checks them; it returns the position they started at.
func (c *bitCursor) field(n uint, want uint32, what string) int {
	c.t.Helper()
	at := c.pos()
	c.check(at, what, c.r.Read(n), want)
	return at
}

// gamma reads a gamma(k) code and checks it.
func (c *bitCursor) gamma(k uint, want uint32, what string) {
	c.t.Helper()
	at := c.pos()
	c.check(at, what, c.r.ReadGamma(k), want)
}

// rice reads a Rice(k) code and checks it.
func (c *bitCursor) rice(k uint, want uint32, what string) {
	c.t.Helper()
	at := c.pos()
	c.check(at, what, c.r.ReadRice(k), want)
}

// code reads a codeword of code and checks its symbol.
func (c *bitCursor) code(code *bitpack.Code, want uint32, what string) {
	c.t.Helper()
	at := c.pos()
	c.check(at, what, uint32(c.r.ReadCode(code)), want)
}

// lengthCode reads a length-coded value of code (the codeword of its bit
// length, then the bits below its leading one) and checks it.
func (c *bitCursor) lengthCode(code *bitpack.Code, want uint32, what string) {
	c.t.Helper()
	at := c.pos()
	c.check(at, what, c.r.ReadLengthCode(code), want)
}

// end checks that only zero padding is left.
func (c *bitCursor) end() {
	c.t.Helper()
	if !c.r.AtPadding() {
		c.t.Fatalf("bit %d: more than zero padding left (%d bits)", c.pos(), c.r.Remaining())
	}
}

// id reads a delta's new entity's id: slot gap gamma(k), generation.
func (c *bitCursor) id(k uint, gap uint32, gen uint32) {
	c.t.Helper()
	c.gamma(k, gap, "slot gap")
	c.field(4, gen, "generation")
}

// newRow reads a new entity's row as a delta carries it after the changes:
// per field, last to first, the length code of z[f], zigzag(value - guess),
// with the fields' NewCode, or their SpawnCode if made (none for the
// fields a made entity does not write).
func (c *bitCursor) newRow(s *snapshot.Schema, made bool, z [6]uint32) {
	c.t.Helper()
	for f := len(z) - 1; f >= 0; f-- {
		code := s.Fields[f].NewCode
		if made {
			code = s.Fields[f].SpawnCode
		}
		if code == nil {
			continue
		}
		c.lengthCode(code, z[f], fmt.Sprintf("new entity: field %d", f))
	}
}

func wireCodec(t *testing.T) *delta.Codec {
	t.Helper()
	s := Schema()
	// The document's §4.1 table: these widths are what every bit position
	// below is computed from.
	var widths []uint8
	for _, f := range s.Fields {
		widths = append(widths, f.Bits)
	}
	if fmt.Sprint(widths) != "[16 16 10 2 4 7]" || s.IndexBits != 12 || s.GenerationBits != 4 {
		t.Fatalf("schema: fields %v, slot %d bits, generation %d bits", widths, s.IndexBits, s.GenerationBits)
	}
	return delta.MustCodec(s)
}

// wireDecode decodes p onto base (nil for a full packet) and returns the result.
func wireDecode(t *testing.T, codec *delta.Codec, p []byte, newest uint32, base *snapshot.Snapshot) (snapstream.Header, *snapshot.Snapshot, error) {
	t.Helper()
	h, err := codec.ReadHeader(p, newest)
	if err != nil {
		return h, nil, err
	}
	out := snapshot.New(Schema())
	return h, out, codec.Decode(p, h, base, out)
}

func mustAppend(t *testing.T, s *snapshot.Snapshot, slot, gen uint16, vals ...uint32) {
	t.Helper()
	if err := s.Append(snapshot.EntityID{Index: slot, Generation: gen}, vals...); err != nil {
		t.Fatal(err)
	}
}

// A delta whose removed and changed sets are written as a count and Rice
// gaps, whose changed entities are predicted (two walking creatures) or
// not (one standing, one jumping), with their masks and residuals coded by
// the schema's codes (snapshot-delta-sets.hex, PROTOCOL.md §4.3 and §4.7).
func TestWireDeltaSetsMasksAndResiduals(t *testing.T) {
	codec := wireCodec(t)
	s := Schema()
	base, cur := snapshot.New(s), snapshot.New(s)
	// Tick 200: 40 creatures in slots 10 to 49, generation 1, heading 0
	// (towards +x); the ones at positions 2 and 3 are walking.
	walking := func(i int) uint32 {
		if i == 2 || i == 3 {
			return StateWalking
		}
		return 0
	}
	for i := range 40 {
		mustAppend(t, base, uint16(10+i), 1, uint32(1000+100*i), 2000, 0, 1, walking(i), 50)
	}
	// Tick 203: the creature in slot 15 (position 5) is gone and its slot
	// holds a new occupant (generation 2); the walking ones walked 3 ticks
	// of 16 units (2 px) each, the one at position 3 2 units further; the
	// one at position 18 moved 1/8 px right and down; the one at position
	// 31 jumped 10000 units right; a projectile entered slot 100.
	for i := range 40 {
		x, y := uint32(1000+100*i), uint32(2000)
		switch i {
		case 5:
			mustAppend(t, cur, 15, 2, 4000, 4000, 512, 2, 0, 0)
			continue
		case 2:
			x += 48
		case 3:
			x += 50
		case 18:
			x, y = x+1, y+1
		case 31:
			x += 10000
		}
		mustAppend(t, cur, uint16(10+i), 1, x, y, 0, 1, walking(i), 50)
	}
	mustAppend(t, cur, 100, 0, 8000, 8000, 256, 2, 0, 0)

	p := wireGolden(t, "snapshot-delta-sets", codec.AppendDelta(nil, 203, 200, base, cur))

	c := newDeltaCursor(t, p)
	c.field(1, 1, "kind (1 delta)")
	c.field(16, 203, "tick, low 16 bits")
	c.gamma(1, 2, "age-1")

	// Removed set over the baseline's 40 entities: {5}.
	c.field(1, 0, "removed set: form (0 count and gaps)")
	c.gamma(0, 1, "removed set: count")
	c.field(4, 1, "removed set: Rice parameter k")
	// The gap is pos-prev-1 with prev starting at -1: 5-(-1)-1 = 5.
	c.rice(1, 5, "removed set: gap of position 5")

	// New entities: slot 15 (generation 2), then slot 100; their rows
	// follow the changes.
	c.gamma(0, 2, "new entities: count")
	c.field(3, 4, "new entities: slot-gap order k")
	c.id(4, 15, 2) // 15-(-1)-1
	c.id(4, 84, 0) // 100-15-1

	// Changed set over the 39 survivors: positions 2, 3, 17 and 30 (the
	// baseline's 2, 3, 18 and 31, less the removed one before them).
	c.field(1, 0, "changed set: form (0 count and gaps)")
	c.gamma(0, 4, "changed set: count")
	c.field(4, 2, "changed set: Rice parameter k")
	for i, g := range []uint32{2, 0, 13, 12} { // 2-(-1)-1, 3-2-1, 17-3-1, 30-17-1
		c.rice(2, g, fmt.Sprintf("changed set: gap %d", i))
	}

	// Each changed entity: its mask's codeword, then per field of the mask
	// the length code of zigzag(value - prediction).
	// The codes are those of the entity's context, from its baseline row:
	// the first two walk, the others stand (§4.2).
	walk, idle := s.Contexts[ctxCreatureWalking], s.Contexts[ctxCreatureIdle]
	c.code(walk.Mask, 0b000001, "entity 0 (walking): mask (x)")
	c.lengthCode(walk.Fields[FieldX], 0, "x: zigzag(+48 - predicted +48)")
	c.code(walk.Mask, 0b000001, "entity 1 (walking): mask (x)")
	c.lengthCode(walk.Fields[FieldX], 4, "x: zigzag(+50 - predicted +48)")
	c.code(idle.Mask, 0b000011, "entity 2 (idle): mask (x, y)")
	c.lengthCode(idle.Fields[FieldX], 2, "x: zigzag(+1), not walking: predicted +0")
	c.lengthCode(idle.Fields[FieldY], 2, "y: zigzag(+1)")
	c.code(idle.Mask, 0b000001, "entity 3 (idle): mask (x)")
	c.lengthCode(idle.Fields[FieldX], 20000, "x: zigzag(+10000)")

	// The new entities' rows. No player survives, so nothing names a
	// maker: each is coded against the entity before it in slot order.
	// Slot 15 against slot 14 (1400, 2000, 0, creature, 0, 50): health
	// -50, state 0, kind +1, heading +512 (-512 in 10 bits), y +2000,
	// x +2600.
	c.newRow(s, false, [6]uint32{5200, 4000, 1023, 2, 0, 99})
	// Slot 100 against slot 49 (4900, 2000, 0, creature, 0, 50).
	c.newRow(s, false, [6]uint32{6200, 12000, 512, 2, 0, 99})
	c.end()

	h, out, err := wireDecode(t, codec, p, 200, base)
	if err != nil || h != (snapstream.Header{Tick: 203, Baseline: 200}) || !out.Equal(cur) {
		t.Fatalf("decode: header %+v, err %v", h, err)
	}
}

// The worked example of PROTOCOL.md §4.5 (snapshot-delta.hex, the golden
// packet TestGoldenPackets keeps): a walking creature moved 1 px along x
// and turned 3 steps, a player stood still, a projectile appeared.
func TestWireDeltaExample(t *testing.T) {
	codec := wireCodec(t)
	s := Schema()
	t100, t102 := goldenWorlds(t)
	p := wireGolden(t, "snapshot-delta", codec.AppendDelta(nil, 102, 100, t100, t102))
	c := newDeltaCursor(t, p)
	c.field(1, 1, "kind (1 delta)")
	c.field(16, 102, "tick, low 16 bits")
	c.gamma(1, 1, "age-1")
	c.field(1, 0, "removed set: form (0 count and gaps)")
	c.gamma(0, 0, "removed set: count (no k follows)")
	c.gamma(0, 1, "new entities: count")
	c.field(3, 7, "new entities: slot-gap order k")
	c.id(7, 700, 2)
	c.field(1, 1, "changed set: form (1 bitmask)")
	c.field(2, 0b01, "changed set: bitmask over 2")
	walk := s.Contexts[ctxCreatureWalking]
	c.code(walk.Mask, 0b000101, "entity 0 (a walking creature): mask (x, heading)")
	// Walking along heading 256 (+y): predicted x is unchanged (and y,
	// +32, is not in the mask: it keeps its baseline value).
	c.lengthCode(walk.Fields[FieldX], 16, "x: zigzag(+8 - predicted +0)")
	c.lengthCode(walk.Fields[FieldHeading], 6, "heading: zigzag(+3)")
	// The projectile's row: made by the one maker (the player, so no bits
	// name it) one tick ago, two whole steps of 187 units along its aim
	// from where it stands: exactly as guessed.
	c.field(1, 1, "new entity: made")
	c.gamma(1, 1, "new entity: age")
	c.newRow(s, true, [6]uint32{})
	c.end()
}

// A delta of a projectile in flight exactly as predicted (it costs
// nothing: it is not in the changed set), a player who was carried 8192
// units (the longest residual of this packet: length 15) and turned from
// step 1023 to 1 (+2, wrapping), in a bitmask changed set
// (snapshot-delta-residuals.hex); a packet cut short, with a bit flipped or
// a byte more fails its check byte, and one whose check byte is right but
// whose bits do not parse to the end is malformed too.
func TestWireDeltaResiduals(t *testing.T) {
	codec := wireCodec(t)
	s := Schema()
	base, cur := snapshot.New(s), snapshot.New(s)
	mustAppend(t, base, 7, 0, 1000, 1000, 1023, 0, 0, 100)
	mustAppend(t, base, 900, 3, 8000, 8000, 0, 2, 0, 0)
	// Two ticks later: the player moved +8192 in x and turned +2 steps;
	// the projectile flew 2 ticks along +x: 2 whole steps of 187 units
	// (see §4.3).
	mustAppend(t, cur, 7, 0, 9192, 1000, 1, 0, 0, 100)
	mustAppend(t, cur, 900, 3, 8374, 8000, 0, 2, 0, 0)

	p := wireGolden(t, "snapshot-delta-residuals", codec.AppendDelta(nil, 302, 300, base, cur))

	c := newDeltaCursor(t, p)
	c.field(1, 1, "kind (1 delta)")
	c.field(16, 302, "tick, low 16 bits")
	c.gamma(1, 1, "age-1")
	c.field(1, 0, "removed set: form (0 count and gaps)")
	c.gamma(0, 0, "removed set: count (no k follows)")
	c.gamma(0, 0, "new entities: count (no k follows)")
	c.field(1, 1, "changed set: form (1 bitmask)")
	setAt := c.field(2, 0b01, "changed set: bitmask over 2 (the projectile is as predicted)")
	pl := s.Contexts[ctxPlayer]
	mask, x, h := pl.Mask, pl.Fields[FieldX], pl.Fields[FieldHeading]
	c.code(mask, 0b000101, "entity 0 (a player): mask (x, heading)")
	c.lengthCode(x, 16384, "x: zigzag(+8192), a player: predicted +0")
	c.lengthCode(h, 4, "heading: zigzag(+2), 1023 to 1 wraps")
	c.end()

	if h, out, err := wireDecode(t, codec, p, 301, base); err != nil || h.Tick != 302 || !out.Equal(cur) {
		t.Fatalf("decode: %+v %v", h, err)
	}
	body := p[:len(p)-1]
	withCheck := func(b []byte) []byte { return append(bytes.Clone(b), delta.Check(b)) }
	for _, tc := range []struct {
		name string
		p    []byte
	}{
		{"cut short", p[:len(p)-1]},
		{"a bit flipped", setBits(p, 40, 1, uint32(p[5]&1^1))},
		{"trailing byte", append(bytes.Clone(p), 0)},
		// With its check byte right, a packet must still parse: clearing
		// the changed set leaves the residuals over.
		{"no changed set", withCheck(setBits(body, setAt, 2, 0))},
		{"a zero byte more", withCheck(append(bytes.Clone(body), 0))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := wireDecode(t, codec, tc.p, 301, base); !errors.Is(err, delta.ErrMalformed) {
				t.Fatalf("err %v, want ErrMalformed", err)
			}
		})
	}
}

// setBits returns a copy of p with the n bits at position at set to v.
func setBits(p []byte, at int, n, v uint32) []byte {
	q := bytes.Clone(p)
	for i := range int(n) {
		b := at + i
		q[b/8] &^= 1 << (b % 8)
		q[b/8] |= byte(v>>i&1) << (b % 8)
	}
	return q
}

// A full packet of no entities ends after its count: no k follows a count
// of 0 (snapshot-full-empty.hex), and a packet that writes one anyway has
// bits left over and is refused. Tick 0 is refused too.
func TestWireEmptyFull(t *testing.T) {
	codec := wireCodec(t)
	empty := snapshot.New(Schema())
	p := wireGolden(t, "snapshot-full-empty", codec.AppendFull(nil, 1, empty))

	c := newBitCursor(t, p)
	c.field(1, 0, "kind (0 full)")
	c.field(32, 1, "tick")
	c.gamma(4, 0, "count")
	if c.pos() != 38 || len(p) != 5 {
		t.Fatalf("empty full packet: %d bits in %d bytes, want 38 in 5", c.pos(), len(p))
	}
	c.end()
	if h, out, err := wireDecode(t, codec, p, 0, nil); err != nil || h.Tick != 1 || out.Len() != 0 {
		t.Fatalf("decode: %+v %v", h, err)
	}

	// The same packet with k = 0 written after the count: 41 bits.
	w := bitpack.NewWriter(nil)
	w.Write(0, 1)
	w.Write(1, 32)
	w.WriteGamma(0, 4)
	w.Write(0, 3)
	if _, _, err := wireDecode(t, codec, w.Bytes(), 0, nil); !errors.Is(err, delta.ErrMalformed) {
		t.Fatalf("a k after a count of 0: err %v, want ErrMalformed", err)
	}

	// Tick 0 means "none": a packet of tick 0 is refused.
	if _, _, err := wireDecode(t, codec, codec.AppendFull(nil, 0, empty), 0, nil); !errors.Is(err, delta.ErrMalformed) {
		t.Fatalf("tick 0: err %v, want ErrMalformed", err)
	}
}

// The view hash is FNV-1a over little-endian uint32 words: the entity count,
// then every entity's slot | generation<<16, then every value, entity by
// entity in schema order (PROTOCOL.md §4.2).
func TestWireHashWordOrder(t *testing.T) {
	s := snapshot.New(Schema())
	mustAppend(t, s, 3, 1, 8004, 16000, 256, 1, 1, 40)
	mustAppend(t, s, 301, 0, 16384, 16384, 0, 0, 0, 100)
	words := []uint32{2, 3 | 1<<16, 301, 8004, 16000, 256, 1, 1, 40, 16384, 16384, 0, 0, 0, 100}
	h := fnv.New32a()
	for _, v := range words {
		h.Write(binary.LittleEndian.AppendUint32(nil, v))
	}
	if got, want := s.Hash(), h.Sum32(); got != want {
		t.Fatalf("Hash %#x, FNV-1a of the words in document order %#x", got, want)
	}
}

func wireSession() session.Config {
	return session.Config{
		Schema:     Schema(),
		Format:     func(s *snapshot.Schema) snapstream.Format { return delta.MustCodec(s) },
		History:    32,
		InputSize:  InputSize,
		Redundancy: 4,
	}
}

// A client's inputs are numbered from 1; sequence 0 means "no input yet":
// a datagram before the first input says newest 0 with no inputs
// (input-before-first.hex), the first input is number 1 (input-first.hex),
// and a datagram that would carry an input numbered 0 is malformed.
func TestWireInputSequences(t *testing.T) {
	cli := session.NewClientSession(wireSession(), false)
	before := wireGolden(t, "input-before-first", cli.AppendAck(nil))
	if want := []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}; !bytes.Equal(before, want) {
		t.Fatalf("before the first input: % x", before)
	}
	// Fire, move (127, 0), aim 0x4000 (π/2), no view (nothing drawn yet).
	in := []byte{0x01, 0x7f, 0x00, 0x00, 0x40, 0, 0, 0, 0}
	if got := AppendInput(nil, arena.Input{Buttons: arena.ButtonFire, MoveX: 127, Aim: math.Pi / 2}); !bytes.Equal(got, in) {
		t.Fatalf("the first input encodes as % x", got)
	}
	first := wireGolden(t, "input-first", cli.AppendInput(nil, in))
	if want := append([]byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 1}, in...); !bytes.Equal(first, want) {
		t.Fatalf("first input: % x", first)
	}
	second := cli.AppendInput(nil, make([]byte, InputSize))
	if binary.LittleEndian.Uint32(second[5:]) != 2 || second[9] != 2 || !bytes.Equal(second[10+InputSize:], in) {
		t.Fatalf("second input datagram: % x", second)
	}

	srv := session.NewServerSession(wireSession())
	var applied []uint32
	apply := func(seq uint32, _ []byte) { applied = append(applied, seq) }
	for _, tc := range []struct {
		name string
		p    []byte
		err  error
		want []uint32 // every sequence applied so far
	}{
		{"before the first input", before, nil, nil},
		{"first input", first, nil, []uint32{1}},
		{"first input again", first, nil, []uint32{1}},
		{"newest 0 with an input", append([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, make([]byte, InputSize)...), session.ErrMalformed, []uint32{1}},
		{"second input", second, nil, []uint32{1, 2}},
	} {
		err := srv.HandleInput(tc.p, apply)
		if !errors.Is(err, tc.err) || fmt.Sprint(applied) != fmt.Sprint(tc.want) {
			t.Fatalf("%s: err %v, applied %v; want %v, %v", tc.name, err, applied, tc.err, tc.want)
		}
	}
}

// Each direction of a connection numbers its events from 1. A client's
// first datagram carries its join, with tick 0 and player 0
// (events-client-first.hex); a datagram claiming sequence 0 is malformed.
func TestWireEventSequences(t *testing.T) {
	out := events.NewOutbox(events.OutboxConfig{Validate: ValidateEventBody})
	if out.NextSeq() != 1 {
		t.Fatalf("a new outbox numbers from %d", out.NextSeq())
	}
	if err := out.Push(events.Event{Kind: KindJoin, Body: AppendJoin(nil, Join{Name: "ada"})}); err != nil {
		t.Fatal(err)
	}
	first, _ := out.AppendNext(nil, 1200)
	first = wireGolden(t, "events-client-first", first)
	// 0x45, first sequence 1; kind 3 (join), tick 0, body of 5 bytes:
	// player 0, name of 3 bytes, "ada".
	if want := []byte{0x45, 1, 3, 0, 5, 0, 3, 'a', 'd', 'a'}; !bytes.Equal(first, want) {
		t.Fatalf("first events datagram % x", first)
	}
	if err := out.Push(events.Event{Kind: KindChat, Body: AppendChat(nil, Chat{Text: "gl hf"})}); err != nil {
		t.Fatal(err)
	}
	second, _ := out.AppendNext(nil, 1200)
	if second[1] != 2 {
		t.Fatalf("second datagram starts at sequence %d", second[1])
	}

	in := events.NewInbox(events.InboxConfig{Validate: ValidateEventBody})
	var got []uint32
	deliver := func(e events.Event) { got = append(got, e.Seq) }
	zero := bytes.Clone(first)
	zero[1] = 0
	if err := in.Handle(zero, deliver); !errors.Is(err, events.ErrMalformed) {
		t.Fatalf("sequence 0: err %v, want ErrMalformed", err)
	}
	// Sequence 2 first is held until 1 arrives.
	if err := in.Handle(second, deliver); err != nil || len(got) != 0 || in.Held() != 1 {
		t.Fatalf("early event: err %v, delivered %v, held %d", err, got, in.Held())
	}
	if err := in.Handle(first, deliver); err != nil || fmt.Sprint(got) != "[1 2]" {
		t.Fatalf("after the first: err %v, delivered %v", err, got)
	}
}

// The predictions a decoder must compute bit for bit (PROTOCOL.md §4.3):
// the step tables of projectiles and creatures at a few headings, in 1/256
// of a unit a tick (a projectile's rounded to whole units: its step is
// (shotX + 128) >> 8 units), and the predicted rows of a few baseline rows.
func TestWirePredictions(t *testing.T) {
	shot := snapshot.NewHeadingSteps(10, 700.0/30*8)
	creature := snapshot.NewHeadingSteps(10, 60.0/30*8)
	for _, tc := range []struct {
		heading                    uint32
		shotX, shotY, walkX, walkY int32
	}{
		{0, 47787, 0, 4096, 0},
		{1, 47786, 293, 4096, 25},
		{100, 39070, 27516, 3349, 2359},
		{128, 33791, 33791, 2896, 2896},
		{256, 0, 47787, 0, 4096},
		{300, -12745, 46056, -1092, 3948},
		{512, -47787, 0, -4096, 0},
		{700, -19365, -43687, -1660, -3745},
		{1000, 47270, -7012, 4052, -601},
	} {
		sx, sy := shot.Step(tc.heading)
		cx, cy := creature.Step(tc.heading)
		if wx, wy := shot.Whole().Step(tc.heading); wx != (tc.shotX+128)>>8<<8 && tc.shotX >= 0 || wy != (tc.shotY+128)>>8<<8 && tc.shotY >= 0 {
			t.Errorf("heading %d: whole projectile step (%d, %d)", tc.heading, wx, wy)
		}
		if sx != tc.shotX || sy != tc.shotY || cx != tc.walkX || cy != tc.walkY {
			t.Errorf("heading %d: projectile step (%d, %d), creature (%d, %d); want (%d, %d), (%d, %d)",
				tc.heading, sx, sy, cx, cy, tc.shotX, tc.shotY, tc.walkX, tc.walkY)
		}
	}
	const walk, xy = StateWalking, 1<<FieldX | 1<<FieldY
	for _, tc := range []struct {
		base      [6]uint32
		gap, mask uint32
		wantX     uint32
		wantY     uint32
	}{
		{[6]uint32{8000, 8000, 100, KindProjectile, 0, 0}, 3, xy, 8459, 8321}, // 3 whole steps of (153, 107)
		{[6]uint32{8000, 8000, 300, KindCreature, walk, 50}, 4, xy, 7983, 8062},
		{[6]uint32{8000, 8000, 300, KindCreature, walk, 50}, 4, xy | 1<<FieldState, 7991, 8031}, // (4+1)/2 ticks
		{[6]uint32{8000, 8000, 300, KindCreature, 0, 50}, 4, xy | 1<<FieldState, 7991, 8031},
		{[6]uint32{8000, 8000, 300, KindCreature, 0, 50}, 4, xy | 1<<FieldHeading, 8000, 8000},
		{[6]uint32{8000, 8000, 300, KindCreature, 0, 50}, 4, xy, 8000, 8000},
		{[6]uint32{8000, 8000, 300, KindPlayer, walk, 50}, 4, xy, 8000, 8000},
		{[6]uint32{10, 65530, 700, KindProjectile, 0, 0}, 2, xy, 10 - 152 + 65536, 65188}, // x wraps below 0
	} {
		pred := make([]uint32, 6)
		Schema().Predictor.Predict(tc.base[:], tc.gap, tc.mask, pred)
		if x, y := pred[FieldX]&0xffff, pred[FieldY]&0xffff; x != tc.wantX || y != tc.wantY {
			t.Errorf("%v, gap %d, mask %#b: predicted (%d, %d), want (%d, %d)", tc.base, tc.gap, tc.mask, x, y, tc.wantX, tc.wantY)
		}
	}
}

// The guesses of a projectile from the player that fired it (PROTOCOL.md
// §4.3, new rows), worked by hand: where the player stood and aimed age
// ticks ago, between its baseline and current rows, then age+1 whole-unit
// steps along the projectile's own heading (187 units along an axis).
func TestWireSpawnGuesses(t *testing.T) {
	s := Schema()
	sp := s.Spawner
	for _, tc := range []struct {
		name      string
		now, then [6]uint32
		gap, age  uint32
		heading   uint32 // the projectile's own, read before its position
		want      [6]uint32
		wantAge   uint32 // Age's estimate for a projectile at want
		wantAgeOK bool
	}{
		{
			name: "fired this tick, standing, aiming +x",
			now:  [6]uint32{16384, 16384, 0, KindPlayer, 0, 100}, then: [6]uint32{16384, 16384, 0, KindPlayer, 0, 100},
			gap: 2, age: 0, heading: 0,
			// one whole step: (47787 + 128) >> 8 = 187
			want: [6]uint32{16571, 16384, 0, KindProjectile, 0, 0}, wantAge: 0, wantAgeOK: true,
		},
		{
			name: "fired 2 of 4 ticks ago, halfway along the walk, aiming between",
			now:  [6]uint32{1100, 1000, 10, KindPlayer, 1, 100}, then: [6]uint32{1000, 1000, 0, KindPlayer, 1, 100},
			gap: 4, age: 2, heading: 256,
			// from (1000 + 100*2/4, 1000) = (1050, 1000), 3 steps along +y:
			// 3*187 = 561; aim 0 + 10*2/4 = 5
			want: [6]uint32{1050, 1561, 5, KindProjectile, 0, 0}, wantAge: 2, wantAgeOK: true,
		},
		{
			name: "an aim that wrapped: 1020 to 4 is a turn of +8",
			now:  [6]uint32{5000, 5000, 4, KindPlayer, 0, 100}, then: [6]uint32{5000, 5000, 1020, KindPlayer, 0, 100},
			gap: 2, age: 1, heading: 0,
			// aim 1020 + 8*1/2 = 1024, which the field keeps as 0; 2 steps: 374
			want: [6]uint32{5374, 5000, 0, KindProjectile, 0, 0}, wantAge: 1, wantAgeOK: true,
		},
		{
			name: "fired before the baseline: from where it stood then",
			now:  [6]uint32{3000, 3000, 0, KindPlayer, 0, 100}, then: [6]uint32{2000, 3000, 0, KindPlayer, 0, 100},
			gap: 3, age: 5, heading: 0,
			// 6 steps from (2000, 3000): 6*187 = 1122
			want: [6]uint32{3122, 3000, 0, KindProjectile, 0, 0}, wantAge: 0, wantAgeOK: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			row := [6]uint32{0, 0, tc.heading}
			var pred [6]uint32
			sp.Spawn(tc.now[:], tc.then[:], tc.gap, tc.age, row[:], pred[:])
			pred[FieldHeading] &= 1<<HeadingQuant.Bits() - 1
			if pred != tc.want {
				t.Fatalf("guess %v, want %v", pred, tc.want)
			}
			child := tc.want
			child[FieldHeading] = tc.heading // the projectile as it is, not as guessed
			age, ok := sp.Age(tc.now[:], child[:])
			if age != tc.wantAge || ok != tc.wantAgeOK {
				t.Fatalf("Age %d %v, want %d %v", age, ok, tc.wantAge, tc.wantAgeOK)
			}
		})
	}
	if _, ok := sp.Age([]uint32{1000, 1000, 0, KindPlayer, 0, 100}, []uint32{1000, 9000, 0, KindProjectile, 0, 0}); ok {
		t.Error("a projectile 1000 px off the player's line: Age says it may be the player's")
	}
	if _, ok := sp.Age([]uint32{1000, 1000, 0, KindPlayer, 0, 100}, []uint32{1100, 1000, 0, KindCreature, 0, 40}); ok {
		t.Error("a creature: Age says the player may have made it")
	}
	if sp.Spawns([]uint32{0, 0, 0, KindPlayer, StateDead, 0}) || !sp.Spawns([]uint32{0, 0, 0, KindPlayer, StateShielded, 100}) || sp.Spawns([]uint32{0, 0, 0, KindCreature, 0, 40}) {
		t.Error("Spawns: want live players only")
	}
}
