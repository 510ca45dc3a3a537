package session_test

import (
	"errors"
	"testing"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/serversession"
	"github.com/sightline-game/sightline/netcode/session"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

var schema = snapshot.MustSchema(6, 2, 0, snapshot.Field{Name: "x", Bits: 12}, snapshot.Field{Name: "y", Bits: 12})

func config() session.Config {
	return session.Config{
		Schema:    schema,
		Format:    func(s *snapshot.Schema) snapstream.Format { return delta.MustCodec(s) },
		History:   8,
		InputSize: 3,
	}
}

func worldAt(tick uint32) *snapshot.Snapshot {
	s := snapshot.New(schema)
	for i := range 20 {
		s.Append(snapshot.EntityID{Index: uint16(i)}, (tick*uint32(i))&4095, uint32(i))
	}
	return s
}

func TestInputsArriveOnceInOrderDespiteLoss(t *testing.T) {
	cfg := config()
	srv := serversession.New(cfg)
	cli := session.NewClientSession(cfg, false)
	var got []uint32
	apply := func(seq uint32, in []byte) {
		if in[0] != byte(seq) || in[1] != byte(seq>>8) || in[2] != 0xaa {
			t.Fatalf("input %d carries %x", seq, in)
		}
		got = append(got, seq)
	}
	for seq := uint32(1); seq <= 40; seq++ {
		p := cli.AppendInput(nil, []byte{byte(seq), byte(seq >> 8), 0xaa})
		if seq%5 == 2 || seq%5 == 3 { // two of every five lost
			continue
		}
		if err := srv.HandleInput(p, apply); err != nil {
			t.Fatal(err)
		}
		if seq%7 == 0 { // and some duplicated
			srv.HandleInput(p, apply)
		}
	}
	if len(got) != 40 {
		t.Fatalf("applied %d inputs, want 40: %v", len(got), got)
	}
	for i, s := range got {
		if s != uint32(i+1) {
			t.Fatalf("input %d applied as %d: %v", i+1, s, got)
		}
	}
}

func TestAcksAndVerification(t *testing.T) {
	cfg := config()
	srv := serversession.New(cfg)
	cli := session.NewClientSession(cfg, true)
	var mism []uint32
	cli.OnMismatch(func(tick uint32) { mism = append(mism, tick) })
	srv.HandleInput(cli.AppendAck(nil), nil) // the client speaks first: it wants hashes
	for tick := uint32(1); tick <= 30; tick++ {
		p, _ := srv.AppendSnapshot(nil, tick, worldAt(tick))
		if tick == 20 {
			// Corrupt the hash the server sent: the client must notice.
			p[1] ^= 1
		}
		if _, err := cli.HandleSnapshot(p); err != nil && tick != 20 {
			t.Fatalf("tick %d: %v", tick, err)
		}
		if err := srv.HandleInput(cli.AppendAck(nil), nil); err != nil {
			t.Fatal(err)
		}
		if srv.AckedTick() != tick {
			t.Fatalf("tick %d: server has ack %d", tick, srv.AckedTick())
		}
	}
	st := cli.Stats()
	if st.Verified != 30 || st.Matched != 29 || st.Mismatched != 1 || len(mism) != 1 || mism[0] != 20 {
		t.Fatalf("stats %+v, mismatches at %v", st, mism)
	}
	if !srv.Verify() || srv.Stats().Deltas != 29 {
		t.Fatalf("server verify %v, stats %+v", srv.Verify(), srv.Stats())
	}
}

func TestParseInputPacketRejects(t *testing.T) {
	good := session.AppendInputPacket(nil, true, 5, 9, 3, []byte{1, 2, 3, 4, 5, 6})
	if in, err := session.ParseInputPacket(good, 3); err != nil || in.Count != 2 || in.Ack != 5 || in.NewestSeq != 9 || !in.Verify || in.Input(1)[0] != 4 {
		t.Fatalf("good packet: %+v %v", in, err)
	}
	tooMany := session.AppendInputPacket(nil, false, 0, 100, 1, make([]byte, session.MaxRedundancy+1))
	cases := map[string][]byte{
		"empty":         nil,
		"short header":  good[:5],
		"cut input":     good[:len(good)-1],
		"trailing":      append(append([]byte(nil), good...), 0),
		"unknown flags": append([]byte{0x80}, good[1:]...),
		"too many":      tooMany,
		"seq below n":   session.AppendInputPacket(nil, false, 0, 1, 3, make([]byte, 6)),
	}
	for name, p := range cases {
		if _, err := session.ParseInputPacket(p, 3); !errors.Is(err, session.ErrShort) && !errors.Is(err, session.ErrMalformed) {
			t.Errorf("%s: err %v", name, err)
		}
	}
	srv := serversession.New(config())
	srv.HandleInput(good[:len(good)-1], nil)
	if srv.AckedTick() != 0 || srv.Stats().BadInputPackets != 1 {
		t.Fatal("a malformed input datagram must change nothing")
	}
}

func TestSnapshotHeader(t *testing.T) {
	for _, c := range []struct {
		p    []byte
		want error
	}{{nil, session.ErrShort}, {[]byte{1, 0, 0}, session.ErrShort}, {[]byte{8}, session.ErrMalformed}, {[]byte{0x80}, session.ErrMalformed},
		{[]byte{0x84}, session.ErrMalformed}, {[]byte{0x78}, session.ErrMalformed}} {
		if _, _, err := session.ParseSnapshotHeader(c.p); !errors.Is(err, c.want) {
			t.Errorf("%x: %v, want %v", c.p, err, c.want)
		}
	}
	for _, want := range []session.SnapshotHeader{
		{HasHash: true, Hash: 0xdeadbeef, HasInput: true, InputSeq: 300},
		{HasHash: true, Hash: 0xdeadbeef, HasInput: true, InputSeq: 300, HasSpare: true, Spare: -1},
		{HasSpare: true, Spare: 2},
		{HasSpare: true, Spare: 14},
	} {
		h, rest, err := session.ParseSnapshotHeader(append(session.AppendSnapshotHeader(nil, want), 7))
		if err != nil || h != want || len(rest) != 1 || rest[0] != 7 {
			t.Fatalf("%+v %x %v", h, rest, err)
		}
	}
	const flagInput = 1 << 1 // an input sequence number follows
	for _, p := range [][]byte{
		{flagInput, 0x80},                         // cut
		{flagInput, 0x81, 0x00},                   // 1, not in shortest form
		{flagInput, 0x80, 0x80, 0x80, 0x80, 0x10}, // over 2^32-1
		{flagInput, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01},
	} {
		if _, _, err := session.ParseSnapshotHeader(p); !errors.Is(err, session.ErrMalformed) {
			t.Errorf("input sequence % x: %v", p[1:], err)
		}
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	cfg := config()
	srv := serversession.New(cfg)
	cli := session.NewClientSession(cfg, true)
	views := []*snapshot.Snapshot{worldAt(1), worldAt(2), worldAt(3)}
	buf := make([]byte, 0, 2048)
	in := []byte{1, 2, 3}
	tick := uint32(0)
	step := func() {
		tick++
		p, _ := srv.AppendSnapshot(buf[:0], tick, views[tick%3])
		if _, err := cli.HandleSnapshot(p); err != nil {
			t.Fatal(err)
		}
		if err := srv.HandleInput(cli.AppendInput(buf[:0], in), nil); err != nil {
			t.Fatal(err)
		}
	}
	for range 20 {
		step()
	}
	if n := testing.AllocsPerRun(100, step); n != 0 {
		t.Fatalf("%v allocations per tick", n)
	}
}

func FuzzParseInputPacket(f *testing.F) {
	f.Add(session.AppendInputPacket(nil, true, 5, 9, 3, []byte{1, 2, 3, 4, 5, 6}))
	f.Fuzz(func(t *testing.T, p []byte) {
		in, err := session.ParseInputPacket(p, 3)
		if err != nil {
			return
		}
		inputs := make([]byte, 0, in.Count*3)
		for i := range in.Count {
			inputs = append(inputs, in.Input(i)...)
		}
		if q := session.AppendInputPacket(nil, in.Verify, in.Ack, in.NewestSeq, 3, inputs); string(q) != string(p) {
			t.Fatalf("re-encoded %x, want %x", q, p)
		}
	})
}

func FuzzHandleSnapshot(f *testing.F) {
	cfg := config()
	srv := serversession.New(cfg)
	srv.HandleInput(session.AppendInputPacket(nil, true, 0, 0, 3, nil), nil)
	for tick := uint32(1); tick <= 3; tick++ {
		p, _ := srv.AppendSnapshot(nil, tick, worldAt(tick))
		f.Add(p)
		srv.HandleInput(session.AppendInputPacket(nil, true, tick, 0, 3, nil), nil)
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		cli := session.NewClientSession(cfg, true)
		for tick := uint32(1); tick <= 2; tick++ {
			q, _ := serversession.New(cfg).AppendSnapshot(nil, tick, worldAt(tick))
			if _, err := cli.HandleSnapshot(q); err != nil {
				t.Fatal(err)
			}
		}
		before := cli.Stats()
		if _, err := cli.HandleSnapshot(p); err != nil && !errors.Is(err, session.ErrDesync) {
			if n, _ := cli.Newest(); n != 2 {
				t.Fatalf("rejected datagram moved newest to %d", n)
			}
			return
		}
		if cli.Stats().Decoded != before.Decoded+1 {
			t.Fatal("accepted datagram not counted")
		}
	})
}

func TestAppliedInputReachesTheClient(t *testing.T) {
	cfg := config()
	srv := serversession.New(cfg)
	cli := session.NewClientSession(cfg, false)
	for tick := uint32(1); tick <= 5; tick++ {
		srv.HandleInput(cli.AppendInput(nil, []byte{1, 2, 3}), nil)
		if tick >= 3 {
			srv.SetAppliedInput(tick - 1)
		}
		p, _ := srv.AppendSnapshot(nil, tick, worldAt(tick))
		if _, err := cli.HandleSnapshot(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := cli.AppliedInput(2); ok {
		t.Fatal("tick 2 carried no applied input")
	}
	if seq, ok := cli.AppliedInput(5); !ok || seq != 4 {
		t.Fatalf("tick 5: applied %d %v, want 4", seq, ok)
	}
	if cli.InputSeq() != 5 {
		t.Fatalf("input seq %d", cli.InputSeq())
	}
}
