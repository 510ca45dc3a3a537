package protocol

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// The worked examples of PROTOCOL.md §4.8 and §4.9, each a golden packet
// with its whole baseline and target rows, and the corner facts of §4.3
// that a client's author had to guess: which rows make, how a maker's index
// and age are written, how the interpolated aim is truncated and wrapped,
// which heading a creature's prediction walks along, how (gap+1)/2
// rounds, and what a projectile's path does at the edge of 16 bits.

// madeWorlds are the rows of snapshot-delta-made.hex: tick 500 and tick 504.
func madeWorlds(t *testing.T) (base, cur *snapshot.Snapshot) {
	s := Schema()
	base, cur = snapshot.New(s), snapshot.New(s)
	// Tick 500. Four players: slot 2 aiming at heading 4; slot 5 dead;
	// slot 9 alive, hurt to 20; slot 12 standing at the left edge of the
	// field, aiming at heading 512 (-x).
	mustAppend(t, base, 2, 0, 8000, 8000, 4, KindPlayer, 0, 100)
	mustAppend(t, base, 5, 0, 4000, 4000, 0, KindPlayer, StateDead, 0)
	mustAppend(t, base, 9, 0, 12000, 12000, 0, KindPlayer, 0, 20)
	mustAppend(t, base, 12, 0, 100, 3000, 512, KindPlayer, 0, 100)
	// Tick 504 (gap 4). Slot 2 moved -41 in x and turned -14 steps, to
	// 1014; slot 5 respawned (alive, shielded, 100); slot 9 died; slot 12
	// did not change.
	mustAppend(t, cur, 2, 0, 7959, 8000, 1014, KindPlayer, 0, 100)
	mustAppend(t, cur, 5, 0, 6000, 6000, 0, KindPlayer, StateShielded, 100)
	mustAppend(t, cur, 9, 0, 12000, 12000, 0, KindPlayer, StateDead, 0)
	mustAppend(t, cur, 12, 0, 100, 3000, 512, KindPlayer, 0, 100)
	// Slot 2 fired on tick 503 (2 ticks flown) from (7971, 8000) at
	// heading 1018; slot 12 fired on tick 504 (1 tick flown) from where it
	// stands, along -x: its path leaves the field below 0, and the server
	// holds it at 0 (ShotPoint); slot 5 fired as it respawned; a creature
	// walked into view in slot 30.
	x, y := ShotPoint(7971, 8000, 1018, 2)
	mustAppend(t, cur, 20, 1, x, y, 1018, KindProjectile, 0, 0)
	x, y = ShotPoint(100, 3000, 512, 1)
	mustAppend(t, cur, 21, 0, x, y, 512, KindProjectile, 0, 0)
	// Slot 5 fired on tick 504 as it respawned, along +x.
	x, y = ShotPoint(6000, 6000, 0, 1)
	mustAppend(t, cur, 22, 0, x, y, 0, KindProjectile, 0, 0)
	mustAppend(t, cur, 30, 0, 2000, 3000, 300, KindCreature, StateWalking, 40)
	return base, cur
}

// A delta of made rows (snapshot-delta-made.hex, PROTOCOL.md §4.8): the
// makers are judged on their rows after the changes (a player who died in
// the delta is none, one who respawned is one); with three makers the
// index takes 2 bits, least significant first like every value; the age is
// written as itself, gamma(1) of a; the guessed aim is interpolated with a
// division that truncates towards zero and may leave 0..1023, and the
// residuals of a guessed row wrap to the field's width, even where the
// guess has wrapped past 0 of a 16-bit position.
func TestWireMadeRows(t *testing.T) {
	codec := wireCodec(t)
	s := Schema()
	base, cur := madeWorlds(t)
	if x, _ := ShotPoint(100, 3000, 512, 1); x != 0 {
		t.Fatalf("a path below 0 is held at %d, want 0", x)
	}
	p := wireGolden(t, "snapshot-delta-made", codec.AppendDelta(nil, 504, 500, base, cur))

	c := newDeltaCursor(t, p)
	c.field(1, 1, "kind (1 delta)")
	c.field(16, 504, "tick, low 16 bits")
	c.gamma(1, 3, "age-1 (gap 4)")
	c.field(1, 0, "removed set: form (0 count and gaps)")
	c.gamma(0, 0, "removed set: count")
	c.gamma(0, 4, "new entities: count")
	c.field(3, 0, "new entities: slot-gap order k")
	c.id(0, 20, 1) // slot 20: 20-(-1)-1
	c.id(0, 0, 0)  // slot 21: 21-20-1
	c.id(0, 0, 0)  // slot 22: 22-21-1
	c.id(0, 7, 0)  // slot 30: 30-22-1
	c.field(1, 1, "changed set: form (1 bitmask)")
	c.field(4, 0b0111, "changed set: bitmask over the 4 survivors")
	pl := s.Contexts[ctxPlayer]
	c.code(pl.Mask, 0b000101, "slot 2 (a player): mask (x, heading)")
	c.lengthCode(pl.Fields[FieldX], 81, "x: zigzag(-41)")
	c.lengthCode(pl.Fields[FieldHeading], 27, "heading: zigzag(-14), 4 to 1014 wraps")
	c.code(pl.Mask, 0b110011, "slot 5 (a player): mask (x, y, state, health)")
	c.lengthCode(pl.Fields[FieldX], 4000, "x: zigzag(+2000)")
	c.lengthCode(pl.Fields[FieldY], 4000, "y: zigzag(+2000)")
	c.lengthCode(pl.Fields[FieldState], 12, "state: zigzag(8 - 2 = +6)")
	c.lengthCode(pl.Fields[FieldHealth], 55, "health: zigzag(0 to 100: +100, in 7 bits -28)")
	c.code(pl.Mask, 0b110000, "slot 9 (a player): mask (state, health)")
	c.lengthCode(pl.Fields[FieldState], 4, "state: zigzag(+2)")
	c.lengthCode(pl.Fields[FieldHealth], 39, "health: zigzag(-20)")

	// The makers, judged on the rows now: slot 2, slot 5 (respawned),
	// slot 12; not slot 9 (dead now). Three makers: 2 index bits.
	//
	// Slot 20: made by maker 0 (slot 2), age 1 (fired on tick 503).
	// Where slot 2 stood then, 3/4 of the way from (8000, 8000) to
	// (7959, 8000): 8000 + (-41*3)/4 = 8000 - 30 (-30.75 truncated
	// towards zero); its aim then 4 + (-14*3)/4 = 4 - 10 = -6, below 0:
	// 1018 in 10 bits. Moved 2 whole steps along the projectile's own
	// heading 1018, (187, -7) each: (7970 + 374, 8000 - 14) =
	// (8344, 7986); the projectile is at (8345, 7986): x +1.
	c.field(1, 1, "new row of slot 20: made")
	c.field(2, 0, "maker index (0: slot 2)")
	c.gamma(1, 1, "age")
	c.lengthCode(s.Fields[FieldHeading].SpawnCode, 0, "heading: zigzag(1018 - (-6) in 10 bits = 0)")
	c.lengthCode(s.Fields[FieldY].SpawnCode, 0, "y: zigzag(7986 - 7986)")
	c.lengthCode(s.Fields[FieldX].SpawnCode, 2, "x: zigzag(8345 - 8344)")
	// Slot 21: made by maker 2 (slot 12: the bits 0 1), age 0. One step
	// of -187 from x 100 is -87, kept to 16 bits: 65449; the server held
	// the projectile at 0: 0 - 65449 in 16 bits is +87.
	c.field(1, 1, "new row of slot 21: made")
	c.field(2, 2, "maker index (2: slot 12)")
	c.gamma(1, 0, "age")
	c.lengthCode(s.Fields[FieldHeading].SpawnCode, 0, "heading: zigzag(512 - 512)")
	c.lengthCode(s.Fields[FieldY].SpawnCode, 0, "y: zigzag(3000 - 3000)")
	c.lengthCode(s.Fields[FieldX].SpawnCode, 174, "x: zigzag(0 - 65449 in 16 bits = +87)")
	// Slot 22: made by maker 1, slot 5, judged a maker on its row now
	// (judged on its baseline row, maker 1 would be slot 9); the bits
	// 1 0, which read most significant first would name slot 12.
	c.field(1, 1, "new row of slot 22: made")
	c.field(2, 1, "maker index (1: slot 5)")
	c.gamma(1, 0, "age")
	c.newRow(s, true, [6]uint32{})
	// Slot 30: not made, guessed as the row before it, slot 22's as just
	// decoded (6187, 6000, 0, 2, 0, 0), with the new codes.
	c.field(1, 0, "new row of slot 30: not made")
	c.newRow(s, false, [6]uint32{8373, 5999, 600, 1, 2, 80})
	c.end()

	h, out, err := wireDecode(t, codec, p, 503, base)
	if err != nil || h != (snapstream.Header{Tick: 504, Baseline: 500}) || !out.Equal(cur) {
		t.Fatalf("decode: header %+v, err %v", h, err)
	}
}

// contextWorlds are the rows of snapshot-delta-contexts.hex: tick 600 and
// tick 604.
func contextWorlds(t *testing.T) (base, cur *snapshot.Snapshot) {
	s := Schema()
	base, cur = snapshot.New(s), snapshot.New(s)
	mustAppend(t, base, 1, 0, 10000, 10000, 0, KindPlayer, StateWalking, 100)
	mustAppend(t, base, 40, 1, 12000, 12000, 0, KindCreature, StateWalking, 40)
	mustAppend(t, base, 41, 1, 13000, 13000, 256, KindCreature, StateWalking, 40)
	mustAppend(t, base, 42, 1, 14000, 14000, 512, KindCreature, 0, 40)
	mustAppend(t, base, 43, 1, 15000, 15000, 0, KindCreature, 0, 40)
	mustAppend(t, base, 100, 0, 20000, 20000, 0, KindProjectile, 0, 0)
	mustAppend(t, base, 101, 0, 65400, 9000, 0, KindProjectile, 0, 0)
	mustAppend(t, base, 102, 0, 300, 9000, 512, KindProjectile, 0, 0)
	mustAppend(t, base, 103, 0, 20000, 21000, 256, KindProjectile, 0, 0)

	// Four ticks later: the player ran and turned; the walker of slot 40
	// turned to +y as it walked; the walker of slot 41 stopped; the idle
	// creature of slot 42 turned; the one of slot 43 started walking.
	mustAppend(t, cur, 1, 0, 10100, 9950, 100, KindPlayer, StateWalking, 100)
	mustAppend(t, cur, 40, 1, 12040, 12024, 256, KindCreature, StateWalking, 40)
	mustAppend(t, cur, 41, 1, 13000, 13030, 256, KindCreature, 0, 40)
	mustAppend(t, cur, 42, 1, 14000, 14000, 600, KindCreature, 0, 40)
	mustAppend(t, cur, 43, 1, 15030, 15000, 0, KindCreature, StateWalking, 40)
	// The projectile of slot 100 was held back at its baseline row by the
	// byte budget; the others are on their paths 4 ticks on, as the server
	// places them (ShotPoint): slot 101 past 65535, held at 65535; slot
	// 102 below 0, held at 0; slot 103 where the prediction puts it.
	mustAppend(t, cur, 100, 0, 20000, 20000, 0, KindProjectile, 0, 0)
	for _, p := range [][3]uint32{{101, 65400, 9000}, {102, 300, 9000}, {103, 20000, 21000}} {
		h := base.Row(base.Len() - 4 + int(p[0]-100))[FieldHeading]
		x, y := ShotPoint(p[1], p[2], h, 4)
		mustAppend(t, cur, uint16(p[0]), 0, x, y, h, KindProjectile, 0, 0)
	}
	return base, cur
}

// A delta with changes in every context (snapshot-delta-contexts.hex,
// PROTOCOL.md §4.9): a player, two walking creatures, two idle ones, and
// projectiles, whose context ("other") uses the plain codes: the first
// table's x, y, heading, kind, state, health and mask. A walking creature
// is predicted along its baseline heading, whatever it turned to; one whose
// state changed, (gap+1)/2 = 2 ticks of a gap of 4 (integer division). A
// projectile's prediction keeps 16 bits (it wraps), while the server holds
// its path inside 0..65535 (it clamps): at either edge the two part, and
// the projectile is a change.
func TestWireContexts(t *testing.T) {
	codec := wireCodec(t)
	s := Schema()
	base, cur := contextWorlds(t)
	if got := cur.Row(6)[FieldX]; got != 65535 {
		t.Fatalf("a path past 65535 is held at %d", got)
	}
	if got := cur.Row(7)[FieldX]; got != 0 {
		t.Fatalf("a path below 0 is held at %d", got)
	}
	p := wireGolden(t, "snapshot-delta-contexts", codec.AppendDelta(nil, 604, 600, base, cur))

	c := newDeltaCursor(t, p)
	c.field(1, 1, "kind (1 delta)")
	c.field(16, 604, "tick, low 16 bits")
	c.gamma(1, 3, "age-1 (gap 4)")
	c.field(1, 0, "removed set: form (0 count and gaps)")
	c.gamma(0, 0, "removed set: count")
	c.gamma(0, 0, "new entities: count")
	c.field(1, 1, "changed set: form (1 bitmask)")
	c.field(9, 0b011111111, "changed set: bitmask over the 9 survivors (slot 103 is as predicted)")

	pl, walk, idle := s.Contexts[ctxPlayer], s.Contexts[ctxCreatureWalking], s.Contexts[ctxCreatureIdle]
	c.code(pl.Mask, 0b000111, "slot 1 (player): mask (x, y, heading)")
	c.lengthCode(pl.Fields[FieldX], 200, "x: zigzag(+100), a player: predicted +0")
	c.lengthCode(pl.Fields[FieldY], 99, "y: zigzag(-50)")
	c.lengthCode(pl.Fields[FieldHeading], 200, "heading: zigzag(+100)")
	// Walking at heading 0 in the baseline: predicted 4 ticks of 16 units
	// along +x, 12064, though it turned to 256 (+y).
	c.code(walk.Mask, 0b000111, "slot 40 (walking creature): mask (x, y, heading)")
	c.lengthCode(walk.Fields[FieldX], 47, "x: zigzag(12040 - 12064 = -24)")
	c.lengthCode(walk.Fields[FieldY], 48, "y: zigzag(12024 - 12000 = +24)")
	c.lengthCode(walk.Fields[FieldHeading], 512, "heading: zigzag(+256)")
	// Stopped (state in the mask): predicted (4+1)/2 = 2 ticks along +y.
	c.code(walk.Mask, 0b010010, "slot 41 (walking creature): mask (y, state)")
	c.lengthCode(walk.Fields[FieldY], 3, "y: zigzag(13030 - 13032 = -2)")
	c.lengthCode(walk.Fields[FieldState], 1, "state: zigzag(-1)")
	c.code(idle.Mask, 0b000100, "slot 42 (idle creature): mask (heading)")
	c.lengthCode(idle.Fields[FieldHeading], 176, "heading: zigzag(+88)")
	// Started walking (state in the mask, heading not): 2 ticks along +x.
	c.code(idle.Mask, 0b010001, "slot 43 (idle creature): mask (x, state)")
	c.lengthCode(idle.Fields[FieldX], 3, "x: zigzag(15030 - 15032 = -2)")
	c.lengthCode(idle.Fields[FieldState], 2, "state: zigzag(+1)")
	// Projectiles: the plain codes. Each is predicted 4 whole steps of 187
	// units along its heading: slot 100 at 20748 (held back at 20000);
	// slot 101 at 65400 + 748 = 66148, kept to 16 bits: 612 (held at
	// 65535); slot 102 at 300 - 748 = -448, kept to 16 bits: 65088 (held
	// at 0).
	c.code(s.MaskCode, 0b000001, "slot 100 (other): mask (x), plain mask code")
	c.lengthCode(s.Fields[FieldX].Code, 1495, "x: zigzag(20000 - 20748 = -748), plain x code")
	c.code(s.MaskCode, 0b000001, "slot 101 (other): mask (x)")
	c.lengthCode(s.Fields[FieldX].Code, 1225, "x: zigzag(65535 - 612 in 16 bits = -613)")
	c.code(s.MaskCode, 0b000001, "slot 102 (other): mask (x)")
	c.lengthCode(s.Fields[FieldX].Code, 896, "x: zigzag(0 - 65088 in 16 bits = +448)")
	c.end()

	h, out, err := wireDecode(t, codec, p, 603, base)
	if err != nil || h != (snapstream.Header{Tick: 604, Baseline: 600}) || !out.Equal(cur) {
		t.Fatalf("decode: header %+v, err %v", h, err)
	}
}

// Kind 3 fits the 2-bit kind field but no entity of the game has it: a row
// of kind 3 is of the context "other", predicted as its baseline row, not
// moved unless changed, and makes nothing; a delta carries it like any row.
func TestWireKindThree(t *testing.T) {
	s := Schema()
	row := []uint32{1000, 1000, 0, 3, 1, 50}
	pr := s.Predictor.(*predictor)
	pred := make([]uint32, 6)
	pr.Predict(row, 4, 0b111111, pred)
	if pr.Context(row) != ctxOther || pr.Moves(row) || pr.Spawns(row) || !bytes.Equal(u32Bytes(pred), u32Bytes(row)) {
		t.Fatalf("kind 3: context %d, moves %v, spawns %v, predicted %v", pr.Context(row), pr.Moves(row), pr.Spawns(row), pred)
	}
	codec := wireCodec(t)
	base, cur := snapshot.New(s), snapshot.New(s)
	mustAppend(t, base, 4, 0, row...)
	mustAppend(t, cur, 4, 0, 1001, 1000, 0, 3, 1, 50)
	p := codec.AppendDelta(nil, 11, 10, base, cur)
	if _, out, err := wireDecode(t, codec, p, 10, base); err != nil || !out.Equal(cur) {
		t.Fatalf("a delta of a kind-3 row: %v", err)
	}
}

func u32Bytes(v []uint32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, x)
	}
	return b
}

// The check byte (PROTOCOL.md §4.3) as the document states it, computed
// here on its own: the last mix runs whatever is left, even 0 bytes (t =
// 0), and it covers the snapshot packet only, never the datagram's framing.
func TestWireCheckByte(t *testing.T) {
	mix := func(x uint64) uint64 {
		x *= 0xbf58476d1ce4e5b9
		return x ^ x>>31
	}
	doc := func(p []byte) byte {
		h := 0x9e3779b97f4a7c15 ^ uint64(len(p))
		for ; len(p) >= 8; p = p[8:] {
			h = mix(h ^ binary.LittleEndian.Uint64(p))
		}
		var tail [8]byte
		copy(tail[:], p)
		return byte(mix(h^binary.LittleEndian.Uint64(tail[:])) >> 56)
	}
	p := make([]byte, 24)
	for i := range p {
		p[i] = byte(37*i + 11)
	}
	for n := range len(p) + 1 {
		if got, want := delta.Check(p[:n]), doc(p[:n]); got != want {
			t.Errorf("%d bytes: check byte %#02x, the document's %#02x", n, got, want)
		}
	}
	// 0 bytes left: without the last mix an 8-byte packet would check to
	// the top byte of mix(h ^ w) alone.
	h := mix((0x9e3779b97f4a7c15 ^ 8) ^ binary.LittleEndian.Uint64(p[:8]))
	if got := delta.Check(p[:8]); got != byte(mix(h)>>56) || got == byte(h>>56) {
		t.Errorf("8 bytes: check byte %#02x; with the last mix of t = 0 %#02x, without %#02x", got, byte(mix(h)>>56), byte(h>>56))
	}
	// The framed datagram of §4.6: its delta's check byte is over the
	// delta's bytes alone.
	_, t102 := goldenWorlds(t)
	t100, _ := goldenWorlds(t)
	dlt := delta.MustCodec(Schema()).AppendDelta(nil, 102, 100, t100, t102)
	framed := append(session.AppendSnapshotHeader(nil, session.SnapshotHeader{HasHash: true, Hash: t102.Hash(), HasInput: true, InputSeq: 57}), dlt...)
	frame := len(framed) - len(dlt)
	n := len(framed) - 1
	if framed[n] != delta.Check(framed[frame:n]) || framed[n] == delta.Check(framed[:n]) || frame != 6 {
		t.Fatalf("datagram % x: framing %d bytes, check byte %#02x; over the packet %#02x, over the datagram %#02x",
			framed, frame, framed[n], delta.Check(framed[frame:n]), delta.Check(framed[:n]))
	}
}
