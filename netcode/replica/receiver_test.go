package replica_test

import (
	"errors"
	"testing"

	"github.com/sightline-game/sightline/netcode/replica"
)

func live(id uint32, gen uint16, rev uint32, payload string) replica.Record {
	return replica.Record{ID: id, Generation: gen, Revision: rev, Payload: []byte(payload)}
}

func gone(id uint32, gen uint16, rev uint32) replica.Record {
	return replica.Record{ID: id, Generation: gen, Revision: rev, Deleted: true}
}

// changeLog records OnChange calls.
type changeLog []replica.Record

func (c *changeLog) attach(r *replica.Receiver) {
	r.OnChange(func(rec replica.Record) {
		rec.Payload = append([]byte(nil), rec.Payload...)
		*c = append(*c, rec)
	})
}

func handle(t *testing.T, r *replica.Receiver, recs ...replica.Record) []replica.Ack {
	t.Helper()
	ack, err := r.Handle(recordsDatagram(recs...), nil)
	if err != nil {
		t.Fatal(err)
	}
	return acksOf(t, ack)
}

func acksOf(t *testing.T, p []byte) []replica.Ack {
	t.Helper()
	if len(p) == 0 {
		return nil
	}
	as, err := replica.ParseAcks(p)
	if err != nil {
		t.Fatal(err)
	}
	var out []replica.Ack
	for a, ok := as.Next(); ok; a, ok = as.Next() {
		out = append(out, a)
	}
	return out
}

func TestReceiverAcksEverythingAppliesOnce(t *testing.T) {
	r := replica.NewReceiver(replica.ReceiverConfig{})
	var log changeLog
	log.attach(r)
	recs := []replica.Record{live(1, 0, 1, "a"), live(2, 0, 2, "b")}
	for range 3 { // the same datagram three times
		if acks := handle(t, r, recs...); len(acks) != 2 || acks[0] != (replica.Ack{1, 0, 1}) || acks[1] != (replica.Ack{2, 0, 2}) {
			t.Fatalf("acks %+v", acks)
		}
	}
	if len(log) != 2 {
		t.Fatalf("%d changes reported, want 2", len(log))
	}
	// An older revision arriving late is acknowledged and ignored.
	handle(t, r, live(1, 0, 5, "new"))
	if acks := handle(t, r, live(1, 0, 3, "old")); len(acks) != 1 {
		t.Fatal("stale revision not acknowledged")
	}
	if _, p, _ := r.Get(1); string(p) != "new" {
		t.Fatalf("record 1 is %q", p)
	}
	st := r.Stats()
	if st.Changes != 3 || st.Duplicates != 4 || st.Stale != 1 || len(log) != 3 {
		t.Fatalf("stats %+v, %d changes", st, len(log))
	}
}

func TestGenerationsAreDifferentThings(t *testing.T) {
	r := replica.NewReceiver(replica.ReceiverConfig{})
	var log changeLog
	log.attach(r)
	handle(t, r, live(3, 7, 100, "sword"))
	// A newer generation wins whatever its revision ...
	handle(t, r, live(3, 8, 50, "shield"))
	if gen, p, ok := r.Get(3); !ok || gen != 8 || string(p) != "shield" {
		t.Fatalf("gen %d %q %v", gen, p, ok)
	}
	// ... and an older one loses whatever its revision.
	handle(t, r, live(3, 7, 1000, "sword again"))
	if gen, _, _ := r.Get(3); gen != 8 {
		t.Fatalf("older generation took over: gen %d", gen)
	}
	// Serial arithmetic: 1 is newer than 65534.
	handle(t, r, live(4, 65534, 1, "x"))
	handle(t, r, live(4, 1, 2, "y"))
	if gen, _, _ := r.Get(4); gen != 1 {
		t.Fatalf("generation did not wrap: %d", gen)
	}
	if len(log) != 4 || log[1].Generation != 8 || log[3].Generation != 1 {
		t.Fatalf("changes %+v", log)
	}
}

func TestDeletionIsNotResurrected(t *testing.T) {
	r := replica.NewReceiver(replica.ReceiverConfig{})
	var log changeLog
	log.attach(r)
	handle(t, r, live(5, 1, 10, "door"))
	handle(t, r, gone(5, 1, 11))
	if _, _, ok := r.Get(5); ok || r.Len() != 0 || r.Tombstones() != 1 {
		t.Fatal("deleted record still live")
	}
	if acks := handle(t, r, live(5, 1, 10, "door")); len(acks) != 1 { // a late copy
		t.Fatal("late copy not acknowledged")
	}
	if _, _, ok := r.Get(5); ok {
		t.Fatal("late older revision resurrected the record")
	}
	// Deletion of something never seen: remembered, not reported; its
	// publication arriving afterwards does not create it.
	handle(t, r, gone(6, 0, 21))
	handle(t, r, live(6, 0, 20, "ghost"))
	if _, _, ok := r.Get(6); ok {
		t.Fatal("record created by an overtaken publication")
	}
	// A new generation after the deletion comes back.
	handle(t, r, live(5, 2, 30, "new door"))
	if gen, p, ok := r.Get(5); !ok || gen != 2 || string(p) != "new door" {
		t.Fatalf("gen %d %q %v", gen, p, ok)
	}
	if len(log) != 3 || !log[1].Deleted || log[1].ID != 5 {
		t.Fatalf("changes %+v", log)
	}
	if st := r.Stats(); st.Tombstoned != 1 || st.Stale != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestTombstonesAreBounded(t *testing.T) {
	r := replica.NewReceiver(replica.ReceiverConfig{MaxTombstones: 2})
	for id := uint32(1); id <= 3; id++ {
		handle(t, r, live(id, 0, id, "x"))
		handle(t, r, gone(id, 0, 10+id))
	}
	if r.Tombstones() != 2 || r.Stats().Evicted != 1 {
		t.Fatalf("%d tombstones, %d evicted", r.Tombstones(), r.Stats().Evicted)
	}
	// Ids 2 and 3 are still protected from late copies ...
	handle(t, r, live(2, 0, 2, "late"), live(3, 0, 3, "late"))
	if r.Len() != 0 {
		t.Fatal("late copy resurrected a remembered deletion")
	}
	// ... id 1 is not: this is what the bound means.
	handle(t, r, live(1, 0, 1, "late"))
	if _, _, ok := r.Get(1); !ok {
		t.Fatal("expected the forgotten deletion to let the late copy in")
	}
}

func TestMaxRecordsAppliesUpToTheLimit(t *testing.T) {
	r := replica.NewReceiver(replica.ReceiverConfig{MaxRecords: 2})
	handle(t, r, live(1, 0, 1, "a"))
	ack, err := r.Handle(recordsDatagram(live(2, 0, 2, "b"), live(3, 0, 3, "c"), live(1, 0, 4, "a2")), nil)
	if !errors.Is(err, replica.ErrTooManyRecords) {
		t.Fatalf("error %v", err)
	}
	acks := acksOf(t, ack)
	if len(acks) != 2 || acks[0].ID != 2 || acks[1].ID != 1 {
		t.Fatalf("acks %+v: want records 2 and 1, not the refused 3", acks)
	}
	if _, p, _ := r.Get(1); string(p) != "a2" || r.Len() != 2 {
		t.Fatal("update to a held record not applied")
	}
	if _, _, ok := r.Get(3); ok || r.Stats().Refused != 1 {
		t.Fatal("record over the limit applied")
	}
	// A deletion frees room.
	handle(t, r, gone(2, 0, 5))
	handle(t, r, live(3, 0, 6, "c"))
	if _, _, ok := r.Get(3); !ok {
		t.Fatal("room not freed by the deletion")
	}
}

func TestMalformedChangesNothing(t *testing.T) {
	r := replica.NewReceiver(replica.ReceiverConfig{})
	p := recordsDatagram(live(1, 0, 1, "a"), live(2, 0, 2, "b"))
	ack, err := r.Handle(p[:len(p)-1], []byte("keep"))
	if !errors.Is(err, replica.ErrShort) || string(ack) != "keep" {
		t.Fatalf("error %v, ack %q", err, ack)
	}
	if r.Len() != 0 || r.Stats().Malformed != 1 {
		t.Fatal("part of a malformed datagram applied")
	}
}

func TestAllAndReset(t *testing.T) {
	r := replica.NewReceiver(replica.ReceiverConfig{})
	handle(t, r, live(1, 0, 1, "a"), live(2, 0, 2, "b"), live(3, 0, 3, "c"), gone(2, 0, 4))
	got := map[uint32]string{}
	for rec := range r.All() {
		got[rec.ID] = string(rec.Payload)
	}
	if len(got) != 2 || got[1] != "a" || got[3] != "c" {
		t.Fatalf("All gave %v", got)
	}
	r.Reset()
	if r.Len() != 0 || r.Tombstones() != 0 {
		t.Fatal("Reset kept records")
	}
	handle(t, r, live(2, 0, 1, "b"))
	if _, _, ok := r.Get(2); !ok {
		t.Fatal("tombstone survived Reset")
	}
}
