package protocol

import (
	"flag"
	"fmt"
	"testing"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/lan"
	"github.com/sightline-game/sightline/netcode/replica"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// The golden packets pin the wire format: docs/PROTOCOL.md walks through
// them byte by byte. A change that alters a byte of them changes the
// protocol; regenerate with `go test ./game/protocol -run Golden -update`
// only together with the document.
var update = flag.Bool("update", false, "rewrite the golden packets")

// goldenWorlds are the two ticks the snapshot examples carry.
func goldenWorlds(t *testing.T) (t100, t102 *snapshot.Snapshot) {
	s := Schema()
	t100, t102 = snapshot.New(s), snapshot.New(s)
	pos, head := PosQuant, HeadingQuant
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	// A creature walking and a player standing.
	must(t100.Append(snapshot.EntityID{Index: 3, Generation: 1}, pos.Quantize(1000.5), pos.Quantize(2000), head.Quantize(3.14159265/2), KindCreature, StateWalking, 40))
	must(t100.Append(snapshot.EntityID{Index: 301}, pos.Quantize(2048), pos.Quantize(2048), 0, KindPlayer, 0, 100))
	// Two ticks later the creature moved 1 px right and turned 3 steps; the
	// player fired on tick 101: a projectile appears in slot 700 (its third
	// occupant), two whole-unit steps of 187 units (23.375 px) along +x
	// from it, as Fill places a projectile.
	must(t102.Append(snapshot.EntityID{Index: 3, Generation: 1}, pos.Quantize(1001.5), pos.Quantize(2000), head.Quantize(3.14159265/2)+3, KindCreature, StateWalking, 40))
	must(t102.Append(snapshot.EntityID{Index: 301}, pos.Quantize(2048), pos.Quantize(2048), 0, KindPlayer, 0, 100))
	must(t102.Append(snapshot.EntityID{Index: 700, Generation: 2}, pos.Quantize(2048)+374, pos.Quantize(2048), 0, KindProjectile, 0, 0))
	return t100, t102
}

type golden struct {
	name   string
	encode func() []byte
	check  func(p []byte) error // decodes p and compares with what encode meant
}

func goldens(t *testing.T) []golden {
	t100, t102 := goldenWorlds(t)
	codec := delta.MustCodec(Schema())
	full := func() []byte { return codec.AppendFull(nil, 100, t100) }
	dlt := func() []byte { return codec.AppendDelta(nil, 102, 100, t100, t102) }
	decodeInto := func(p []byte, newest uint32, base *snapshot.Snapshot, want *snapshot.Snapshot, wantHdr snapstream.Header) error {
		h, err := codec.ReadHeader(p, newest)
		if err != nil {
			return err
		}
		if h != wantHdr {
			return fmt.Errorf("header %+v, want %+v", h, wantHdr)
		}
		out := snapshot.New(Schema())
		if err := codec.Decode(p, h, base, out); err != nil {
			return err
		}
		if !out.Equal(want) {
			return fmt.Errorf("decoded state differs in %d entities", out.Diff(want))
		}
		return nil
	}
	// Input #57 was made drawing the others 3/4 of the way from tick 100
	// to 101; #56 drawing tick 99 alone.
	in1 := arena.Input{Buttons: arena.ButtonFire, MoveX: 127, MoveY: 0, Aim: 0, View: arena.View{From: 100, Gap: 1, Frac: 192}}
	in2 := arena.Input{MoveX: 90, MoveY: -90, Aim: 3.14159265, View: arena.View{From: 99}}
	return []golden{
		{"snapshot-full", full, func(p []byte) error { return decodeInto(p, 0, nil, t100, snapstream.Header{Tick: 100}) }},
		{"snapshot-delta", dlt, func(p []byte) error {
			return decodeInto(p, 100, t100, t102, snapstream.Header{Tick: 102, Baseline: 100})
		}},
		{"snapshot-datagram", func() []byte {
			b := session.AppendSnapshotHeader(nil, session.SnapshotHeader{HasHash: true, Hash: t102.Hash(), HasInput: true, InputSeq: 57})
			return append(b, dlt()...)
		}, func(p []byte) error {
			h, rest, err := session.ParseSnapshotHeader(p)
			if err != nil {
				return err
			}
			if !h.HasHash || h.Hash != t102.Hash() || !h.HasInput || h.InputSeq != 57 {
				return fmt.Errorf("framing %+v", h)
			}
			return decodeInto(rest, 100, t100, t102, snapstream.Header{Tick: 102, Baseline: 100})
		}},
		{"input-datagram", func() []byte {
			inputs := AppendInput(nil, in1) // newest first
			inputs = AppendInput(inputs, in2)
			return session.AppendInputPacket(nil, true, 102, 57, InputSize, inputs)
		}, func(p []byte) error {
			in, err := session.ParseInputPacket(p, InputSize)
			if err != nil {
				return err
			}
			a, b := ParseInput(in.Input(0), in.Ack), ParseInput(in.Input(1), in.Ack)
			if !in.Verify || in.Ack != 102 || in.NewestSeq != 57 || in.Count != 2 || a.Buttons != arena.ButtonFire || a.MoveX != 127 || b.MoveY != -90 ||
				a.View != in1.View || b.View != in2.View {
				return fmt.Errorf("%+v %+v %+v", in, a, b)
			}
			return nil
		}},
		{"events-datagram", func() []byte {
			b := events.AppendDatagramHeader(nil, 1)
			b = events.AppendEvent(b, events.Event{Kind: KindWelcome, Tick: 100, Body: AppendWelcome(nil, Welcome{Player: 7, Slot: 301, MapSeed: 42})})
			return events.AppendEvent(b, events.Event{Kind: KindChat, Tick: 101, Body: AppendChat(nil, Chat{From: 7, Text: "gl hf"})})
		}, func(p []byte) error {
			d, err := events.ParseDatagram(p, ValidateEventBody)
			if err != nil {
				return err
			}
			e1, _ := d.Next()
			e2, ok := d.Next()
			w, err := ParseWelcome(e1.Body)
			if err != nil || !ok || e1.Seq != 1 || e1.Kind != KindWelcome || w != (Welcome{Player: 7, Slot: 301, MapSeed: 42}) {
				return fmt.Errorf("%+v %+v %v", e1, w, err)
			}
			c, err := ParseChat(e2.Body)
			if err != nil || e2.Seq != 2 || e2.Tick != 101 || c.Text != "gl hf" || c.From != 7 {
				return fmt.Errorf("%+v %+v %v", e2, c, err)
			}
			return nil
		}},
		{"records-datagram", func() []byte {
			b := []byte{replica.TypeRecords}
			b = replica.AppendRecord(b, replica.Record{ID: RecordClock, Revision: 1, Payload: AppendClock(nil, arena.Clock{Round: 1, Start: 1, End: 9001, Next: 9151})})
			b = replica.AppendRecord(b, replica.Record{ID: RecordScore | 7, Revision: 2, Payload: AppendScore(nil, arena.Score{Name: "ada", Kills: 1, Score: 1, Shots: 5, Hits: 2})})
			return replica.AppendRecord(b, replica.Record{ID: RecordPickup | 3, Generation: 4, Revision: 3, Deleted: true})
		}, func(p []byte) error {
			r1, r2, r3, ok, err := threeRecords(p)
			if err != nil {
				return err
			}
			c, err1 := ParseClock(r1.Payload)
			s, err2 := ParseScore(r2.Payload)
			if err1 != nil || err2 != nil || !ok || c.End != 9001 || c.Next != 9151 || s.Name != "ada" || s.Kills != 1 || s.Shots != 5 || s.Hits != 2 ||
				!r3.Deleted || r3.Generation != 4 || r3.ID != RecordPickup|3 {
				return fmt.Errorf("%+v %+v %+v %+v %+v %v %v", r1, r2, r3, c, s, err1, err2)
			}
			return nil
		}},
		{"records-loadout", func() []byte {
			b := []byte{replica.TypeRecords}
			b = replica.AppendRecord(b, replica.Record{ID: RecordLoadout | 7, Revision: 5, Payload: AppendLoadout(nil, arena.Loadout{Weapon: arena.WeaponSpread, Shots: 12, PowerEnd: 9300})})
			b = replica.AppendRecord(b, replica.Record{ID: RecordPickup | 24, Generation: 2, Revision: 6, Payload: AppendPickup(nil, arena.Pickup{X: 1000, Y: 2000, Kind: arena.PickupSpread})})
			return replica.AppendRecord(b, replica.Record{ID: RecordPickup | 29, Revision: 1, Payload: AppendPickup(nil, arena.Pickup{X: 300, Y: 400, Kind: arena.PickupPower})})
		}, func(p []byte) error {
			r1, r2, r3, ok, err := threeRecords(p)
			if err != nil {
				return err
			}
			l, err1 := ParseLoadout(r1.Payload)
			p2, err2 := ParsePickup(r2.Payload)
			p3, err3 := ParsePickup(r3.Payload)
			if err1 != nil || err2 != nil || err3 != nil || !ok || r1.ID != RecordLoadout|7 ||
				l != (arena.Loadout{Weapon: arena.WeaponSpread, Shots: 12, PowerEnd: 9300}) ||
				p2 != (arena.Pickup{X: 1000, Y: 2000, Kind: arena.PickupSpread}) || r2.Generation != 2 ||
				p3 != (arena.Pickup{X: 300, Y: 400, Kind: arena.PickupPower}) || r3.ID != RecordPickup|29 {
				return fmt.Errorf("%+v %+v %+v %+v %+v %+v %v %v %v", r1, r2, r3, l, p2, p3, err1, err2, err3)
			}
			return nil
		}},
		{"events-spread-kill", func() []byte {
			b := events.AppendDatagramHeader(nil, 40)
			body, kind, _ := AppendEvent(nil, arena.Event{Kind: arena.EventHit, Hit: arena.Hit{Attacker: 7, Target: 9, Damage: 2 * arena.SpreadDamage, Shot: 9150}})
			b = events.AppendEvent(b, events.Event{Kind: kind, Tick: 9200, Body: body})
			body, kind, _ = AppendEvent(nil, arena.Event{Kind: arena.EventKill, Kill: arena.Kill{Killer: 7, Victim: 9, Weapon: arena.WeaponSpread,
				Judged: arena.Judged{Behind: 2176, X: 1000.5, Y: 2000.25, Rewound: true, By: 301}}})
			return events.AppendEvent(b, events.Event{Kind: kind, Tick: 9200, Body: body})
		}, func(p []byte) error {
			d, err := events.ParseDatagram(p, ValidateEventBody)
			if err != nil {
				return err
			}
			e1, _ := d.Next()
			e2, ok := d.Next()
			h, err1 := ParseHit(e1.Body)
			k, err2 := ParseKill(e2.Body)
			if err1 != nil || err2 != nil || !ok || e1.Seq != 40 || e2.Seq != 41 || e2.Tick != 9200 ||
				h != (Hit{Attacker: 7, Target: 9, Damage: 2 * arena.SpreadDamage, Shot: 9150}) || k != (Kill{Killer: 7, Victim: 9, Weapon: uint8(arena.WeaponSpread), Judged: JudgedRewound, Behind: 2176, X: 8004, Y: 16002, By: 302}) {
				return fmt.Errorf("%+v %+v %+v %+v %v %v", e1, e2, h, k, err1, err2)
			}
			return nil
		}},
		{"records-ack", func() []byte {
			b := []byte{replica.TypeAck}
			b = replica.AppendAck(b, replica.Ack{ID: RecordClock, Revision: 1})
			return replica.AppendAck(b, replica.Ack{ID: RecordPickup | 3, Generation: 4, Revision: 3})
		}, func(p []byte) error {
			as, err := replica.ParseAcks(p)
			if err != nil {
				return err
			}
			a1, _ := as.Next()
			a2, ok := as.Next()
			if !ok || a1.ID != RecordClock || a1.Revision != 1 || a2.Generation != 4 {
				return fmt.Errorf("%+v %+v", a1, a2)
			}
			return nil
		}},
		{"lan-beacon", func() []byte {
			return lan.AppendBeacon(nil, lan.Beacon{Name: "Ada's match", Players: 3, MaxPlayers: 16, HTTPPort: 8080})
		}, func(p []byte) error {
			b, err := lan.ParseBeacon(p)
			if err != nil || b != (lan.Beacon{Name: "Ada's match", Players: 3, MaxPlayers: 16, HTTPPort: 8080}) {
				return fmt.Errorf("%+v %v", b, err)
			}
			return nil
		}},
	}
}

func TestGoldenPackets(t *testing.T) {
	for _, g := range goldens(t) {
		t.Run(g.name, func(t *testing.T) {
			want := wireGolden(t, g.name, g.encode())
			if err := g.check(want); err != nil {
				t.Fatalf("golden packet decodes wrong: %v", err)
			}
		})
	}
}

// threeRecords reads the first three records of a records datagram; ok
// says whether there were three.
func threeRecords(p []byte) (r1, r2, r3 replica.Record, ok bool, err error) {
	rs, err := replica.ParseRecords(p)
	if err != nil {
		return r1, r2, r3, false, err
	}
	r1, _ = rs.Next()
	r2, _ = rs.Next()
	r3, ok = rs.Next()
	return r1, r2, r3, ok, nil
}
