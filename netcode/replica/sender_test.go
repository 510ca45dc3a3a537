package replica_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/sightline-game/sightline/netcode/replica"
)

const ms = time.Millisecond

// parse returns the records of a datagram, failing the test if it is invalid.
func parse(t *testing.T, p []byte) []replica.Record {
	t.Helper()
	rs, err := replica.ParseRecords(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []replica.Record
	for r, ok := rs.Next(); ok; r, ok = rs.Next() {
		r.Payload = append([]byte(nil), r.Payload...)
		out = append(out, r)
	}
	return out
}

func mustOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestNewestRevisionReplacesUnacknowledged(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{})
	mustOK(t, s.Publish(1, 0, []byte("closed")))
	p, n := s.AppendDue(nil, 0, 0)
	if n != 1 {
		t.Fatalf("%d records due, want 1", n)
	}
	first := parse(t, p)[0]

	// A new revision before the ack: due at once, and only it is sent.
	mustOK(t, s.Publish(1, 0, []byte("open")))
	p, n = s.AppendDue(nil, 10*ms, 0)
	recs := parse(t, p)
	if n != 1 || string(recs[0].Payload) != "open" || recs[0].Revision <= first.Revision {
		t.Fatalf("sent %+v, want the newer revision alone", recs)
	}

	// The ack for the older revision does not stop the newer one.
	mustOK(t, s.HandleAck(ackDatagram(replica.Ack{ID: 1, Generation: 0, Revision: first.Revision})))
	if st, _ := s.Record(1); !st.Pending {
		t.Fatal("an ack for the old revision cleared the new one")
	}
	p, n = s.AppendDue(nil, 10*ms+replica.DefaultResendAfter, 0)
	if n != 1 || parse(t, p)[0].Revision != recs[0].Revision {
		t.Fatalf("resent %d records, want the newer revision", n)
	}
	if st := s.Stats(); st.Sends != 3 || st.Resends != 1 || st.StaleAcks != 1 || st.Acks != 0 {
		t.Fatalf("stats %+v", st)
	}

	// The ack for the newest revision clears it for good.
	mustOK(t, s.HandleAck(ackDatagram(replica.Ack{ID: 1, Generation: 0, Revision: recs[0].Revision})))
	for _, now := range []time.Duration{time.Second, time.Minute} {
		if _, n := s.AppendDue(nil, now, 0); n != 0 {
			t.Fatalf("%d records sent after the ack", n)
		}
	}
	if st, ok := s.Record(1); !ok || st.Pending || s.Pending() != 0 || s.Stats().Acks != 1 {
		t.Fatalf("record %+v %v, pending %d", st, ok, s.Pending())
	}
}

func TestResendTimerBacksOff(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{})
	mustOK(t, s.Publish(9, 0, []byte("x")))
	var sends []time.Duration
	run := func(from, to time.Duration) {
		for now := from; now <= to; now += 10 * ms {
			for {
				_, n := s.AppendDue(nil, now, 0)
				if n == 0 {
					break
				}
				sends = append(sends, now)
			}
		}
	}
	run(0, 3*time.Second)
	// Once per timeout, not once per call; the timeout doubles from 200 ms
	// and stops at MaxResendAfter (1 s).
	want := []time.Duration{0, 200 * ms, 600 * ms, 1400 * ms, 2400 * ms}
	if !slices.Equal(sends, want) || s.Attempts(9) != len(want) {
		t.Fatalf("sent at %v (%d attempts), want %v", sends, s.Attempts(9), want)
	}
	// A new revision starts again from the first timeout.
	sends = sends[:0]
	mustOK(t, s.Publish(9, 0, []byte("y")))
	run(3*time.Second, 4*time.Second)
	want = []time.Duration{3000 * ms, 3200 * ms, 3600 * ms}
	if !slices.Equal(sends, want) || s.Attempts(9) != len(want) {
		t.Fatalf("new revision sent at %v (%d attempts), want %v", sends, s.Attempts(9), want)
	}
}

func TestResendTimeoutFollowsRTT(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{ResendAfter: 200 * ms})
	for _, tc := range []struct{ rtt, want time.Duration }{
		{0, 200 * ms}, {30 * ms, 60 * ms}, {5 * ms, 50 * ms}, {150 * ms, 300 * ms}, {10 * time.Second, 800 * ms}, {-1, 200 * ms},
	} {
		s.SetRTT(tc.rtt)
		if got := s.ResendTimeout(); got != tc.want {
			t.Errorf("rtt %v: timeout %v, want %v", tc.rtt, got, tc.want)
		}
	}
	s.SetRTT(30 * ms)
	mustOK(t, s.Publish(1, 0, nil))
	s.AppendDue(nil, 0, 0)
	if _, n := s.AppendDue(nil, 59*ms, 0); n != 0 {
		t.Fatal("resent before the RTT-based timeout")
	}
	if _, n := s.AppendDue(nil, 60*ms, 0); n != 1 {
		t.Fatal("not resent at the RTT-based timeout")
	}
}

func TestNoHeadOfLineBlocking(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{})
	mustOK(t, s.Publish(1, 0, make([]byte, 1000))) // first in line, too big for the budget
	for id := uint32(2); id <= 5; id++ {
		mustOK(t, s.Publish(id, 0, []byte("small")))
	}
	p, n := s.AppendDue(nil, 0, 300)
	if n != 4 || len(p) > 300 {
		t.Fatalf("sent %d records in %d bytes, want the 4 small ones", n, len(p))
	}
	for _, r := range parse(t, p) {
		if r.ID == 1 {
			t.Fatal("the big record went out in a 300-byte budget")
		}
	}
	if _, n := s.AppendDue(nil, 0, 300); n != 0 {
		t.Fatal("records sent twice at the same time")
	}
	if p, n = s.AppendDue(nil, 0, 0); n != 1 || parse(t, p)[0].ID != 1 {
		t.Fatalf("the big record did not go with a full budget")
	}
}

func TestAppendDuePacksAndDrains(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{})
	const records = 300
	for id := range uint32(records) {
		mustOK(t, s.Publish(id, 1, make([]byte, 20+id%50)))
	}
	seen := map[uint32]bool{}
	dst := []byte("prefix")
	datagrams := 0
	for {
		p, n := s.AppendDue(dst, 0, 1200)
		if n == 0 {
			if len(p) != len(dst) {
				t.Fatal("n == 0 but bytes appended")
			}
			break
		}
		datagrams++
		if string(p[:6]) != "prefix" || len(p)-6 > 1200 {
			t.Fatalf("datagram of %d bytes, or prefix overwritten", len(p)-6)
		}
		recs := parse(t, p[6:])
		if len(recs) != n {
			t.Fatalf("n = %d, datagram holds %d", n, len(recs))
		}
		for _, r := range recs {
			if seen[r.ID] {
				t.Fatalf("record %d twice", r.ID)
			}
			seen[r.ID] = true
		}
	}
	if len(seen) != records {
		t.Fatalf("%d records sent, want %d", len(seen), records)
	}
	// About 13600 bytes of records: 12 datagrams of at most 1200 bytes.
	if datagrams > 13 {
		t.Fatalf("%d datagrams: records not packed", datagrams)
	}
}

func TestDeletionIsForgottenOnceAcknowledged(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{})
	rcv := replica.NewReceiver(replica.ReceiverConfig{})
	exchange := func(now time.Duration) {
		for {
			p, n := s.AppendDue(nil, now, 0)
			if n == 0 {
				return
			}
			ack, err := rcv.Handle(p, nil)
			mustOK(t, err)
			mustOK(t, s.HandleAck(ack))
		}
	}
	mustOK(t, s.Publish(4, 1, []byte("crate")))
	exchange(0)
	mustOK(t, s.Delete(4, 1))
	if st, _ := s.Record(4); !st.Deleted || !st.Pending {
		t.Fatalf("after Delete: %+v", st)
	}
	exchange(ms)
	if _, ok := s.Record(4); ok || s.Len() != 0 {
		t.Fatal("acknowledged deletion still held")
	}
	if _, _, ok := rcv.Get(4); ok {
		t.Fatal("receiver still holds the record")
	}
	// The id comes back with a new generation.
	mustOK(t, s.Publish(4, 2, []byte("barrel")))
	exchange(2 * ms)
	if gen, payload, ok := rcv.Get(4); !ok || gen != 2 || string(payload) != "barrel" {
		t.Fatalf("receiver has gen %d %q %v", gen, payload, ok)
	}
	if err := s.Delete(77, 0); err != nil || s.Len() != 1 {
		t.Fatalf("deleting an unknown id: %v, %d held", err, s.Len())
	}
}

func TestPublishRules(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{})
	if err := s.Publish(1, 0, make([]byte, replica.MaxPayload+1)); !errors.Is(err, replica.ErrPayloadTooLarge) {
		t.Fatalf("oversized payload: %v", err)
	}
	mustOK(t, s.Publish(1, 0, make([]byte, replica.MaxPayload)))
	mustOK(t, s.Publish(1, 5, []byte("a")))
	st, _ := s.Record(1)
	mustOK(t, s.Publish(1, 5, []byte("a"))) // same content: no new revision
	if st2, _ := s.Record(1); st2 != st || s.Stats().Unchanged != 1 {
		t.Fatalf("unchanged publish made %+v from %+v", st2, st)
	}
	if err := s.Publish(1, 4, []byte("b")); !errors.Is(err, replica.ErrOldGeneration) {
		t.Fatalf("older generation: %v", err)
	}
	if err := s.Delete(1, 4); !errors.Is(err, replica.ErrOldGeneration) {
		t.Fatalf("delete of an older generation: %v", err)
	}
	// Generations wrap: 2 is newer than 65535.
	mustOK(t, s.Publish(2, 65535, nil))
	mustOK(t, s.Publish(2, 2, nil))
	if st, _ := s.Record(2); st.Generation != 2 {
		t.Fatalf("generation %d after the wrap", st.Generation)
	}
}

func TestResetForgetsEverything(t *testing.T) {
	s := replica.NewSender(replica.SenderConfig{GiveUpAfter: time.Millisecond})
	mustOK(t, s.Publish(1, 0, []byte("a")))
	s.AppendDue(nil, 0, 0)
	s.AppendDue(nil, time.Second, 0)
	if !s.Failing() {
		t.Fatal("not failing after giving up")
	}
	s.Reset()
	if s.Failing() || s.Len() != 0 || s.Pending() != 0 || s.Stats() != (replica.SenderStats{}) {
		t.Fatal("Reset kept state")
	}
	mustOK(t, s.Publish(1, 0, []byte("a")))
	if p, n := s.AppendDue(nil, 0, 0); n != 1 || parse(t, p)[0].Revision != 1 {
		t.Fatal("revisions did not restart after Reset")
	}
}
