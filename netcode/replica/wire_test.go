package replica_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/sightline-game/sightline/netcode/replica"
)

func recordsDatagram(recs ...replica.Record) []byte {
	p := []byte{replica.TypeRecords}
	for _, r := range recs {
		p = replica.AppendRecord(p, r)
	}
	return p
}

func ackDatagram(acks ...replica.Ack) []byte {
	p := []byte{replica.TypeAck}
	for _, a := range acks {
		p = replica.AppendAck(p, a)
	}
	return p
}

func sameRecord(a, b replica.Record) bool {
	return a.ID == b.ID && a.Generation == b.Generation && a.Revision == b.Revision &&
		a.Deleted == b.Deleted && bytes.Equal(a.Payload, b.Payload)
}

func TestRecordsRoundTrip(t *testing.T) {
	big := bytes.Repeat([]byte{0xab}, replica.MaxPayload)
	recs := []replica.Record{
		{ID: 0, Generation: 0, Revision: 1, Payload: []byte{}},
		{ID: 7, Generation: 3, Revision: 300, Payload: []byte("door open")},
		{ID: 7, Generation: 4, Revision: 301, Deleted: true},
		{ID: math.MaxUint32, Generation: math.MaxUint16, Revision: math.MaxUint32, Payload: big},
	}
	p := recordsDatagram(recs...)
	size := 1
	for _, r := range recs {
		size += replica.RecordSize(r)
	}
	if len(p) != size {
		t.Fatalf("datagram is %d bytes, RecordSize says %d", len(p), size)
	}
	rs, err := replica.ParseRecords(p)
	if err != nil {
		t.Fatal(err)
	}
	if rs.Len() != len(recs) {
		t.Fatalf("%d records, want %d", rs.Len(), len(recs))
	}
	for i, want := range recs {
		got, ok := rs.Next()
		if !ok || !sameRecord(got, want) {
			t.Fatalf("record %d: %+v, want %+v", i, got, want)
		}
	}
	if _, ok := rs.Next(); ok {
		t.Fatal("record after the last")
	}
	if one := replica.RecordSize(recs[3]) + 1; one != replica.MaxRecordDatagram {
		t.Fatalf("largest record datagram %d bytes, MaxRecordDatagram %d", one, replica.MaxRecordDatagram)
	}
}

func TestAcksRoundTrip(t *testing.T) {
	acks := []replica.Ack{{1, 2, 3}, {math.MaxUint32, math.MaxUint16, math.MaxUint32}, {0, 0, 0}}
	p := ackDatagram(acks...)
	as, err := replica.ParseAcks(p)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range acks {
		if got, ok := as.Next(); !ok || got != want {
			t.Fatalf("ack %d: %+v, want %+v", i, got, want)
		}
	}
	if _, ok := as.Next(); ok {
		t.Fatal("ack after the last")
	}
}

func TestParseRejects(t *testing.T) {
	good := recordsDatagram(replica.Record{ID: 5, Generation: 1, Revision: 9, Payload: []byte("abc")})
	for _, tc := range []struct {
		name string
		p    []byte
		want error
	}{
		{"empty", nil, replica.ErrShort},
		{"stray", []byte{0x00, 1, 2, 3}, replica.ErrWrongType},
		{"ack as records", ackDatagram(replica.Ack{1, 1, 1}), replica.ErrWrongType},
		{"no records", []byte{replica.TypeRecords}, replica.ErrMalformed},
		{"cut payload", good[:len(good)-1], replica.ErrShort},
		{"cut varint", []byte{replica.TypeRecords, 0x85}, replica.ErrShort},
		{"trailing byte", append(append([]byte{}, good...), 0x01), replica.ErrShort},
		{"non-canonical id", []byte{replica.TypeRecords, 0x85, 0x00, 1, 1, 1}, replica.ErrMalformed},
		{"id over 32 bits", []byte{replica.TypeRecords, 0xff, 0xff, 0xff, 0xff, 0x1f, 1, 1, 0}, replica.ErrMalformed},
		{"varint too long", []byte{replica.TypeRecords, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 1, 1, 0}, replica.ErrMalformed},
		{"generation over 16 bits", []byte{replica.TypeRecords, 1, 0x80, 0x80, 0x04, 1, 0}, replica.ErrMalformed},
		{"payload over MaxPayload", append([]byte{replica.TypeRecords, 1, 1, 1, 0xad, 0x08}, make([]byte, 1068)...), replica.ErrMalformed},
		{"claims a huge payload", []byte{replica.TypeRecords, 1, 1, 1, 0xff, 0xff, 0x03}, replica.ErrMalformed},
	} {
		if _, err := replica.ParseRecords(tc.p); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, tc := range []struct {
		name string
		p    []byte
		want error
	}{
		{"empty", nil, replica.ErrShort},
		{"records as ack", good, replica.ErrWrongType},
		{"no acks", []byte{replica.TypeAck}, replica.ErrMalformed},
		{"cut", []byte{replica.TypeAck, 1, 1}, replica.ErrShort},
		{"non-canonical", []byte{replica.TypeAck, 1, 1, 0x81, 0x00}, replica.ErrMalformed},
	} {
		if _, err := replica.ParseAcks(tc.p); !errors.Is(err, tc.want) {
			t.Errorf("ack %s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestAppendRecordPanicsOnOversizedPayload(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	replica.AppendRecord(nil, replica.Record{Payload: make([]byte, replica.MaxPayload+1)})
}

// FuzzRecordsDatagram checks that every datagram ParseRecords accepts
// re-encodes to the same bytes, that a Receiver takes it without panicking,
// and that the receiver acknowledges exactly the records it took in.
func FuzzRecordsDatagram(f *testing.F) {
	f.Add(recordsDatagram(replica.Record{ID: 1, Generation: 1, Revision: 1, Payload: []byte("hi")}))
	f.Add(recordsDatagram(
		replica.Record{ID: 300, Generation: 2, Revision: 70000, Deleted: true},
		replica.Record{ID: 300, Generation: 1, Revision: 5, Payload: []byte{}},
		replica.Record{ID: 2, Generation: 65535, Revision: 9, Payload: bytes.Repeat([]byte{7}, 200)}))
	f.Add([]byte{replica.TypeRecords, 0x80})
	f.Fuzz(func(t *testing.T, p []byte) {
		rcv := replica.NewReceiver(replica.ReceiverConfig{MaxRecords: 4, MaxTombstones: 2})
		// Some state to collide with.
		if _, err := rcv.Handle(recordsDatagram(
			replica.Record{ID: 1, Generation: 1, Revision: 2, Payload: []byte("x")},
			replica.Record{ID: 2, Generation: 3, Revision: 4, Deleted: true}), nil); err != nil {
			t.Fatal(err)
		}
		rs, perr := replica.ParseRecords(p)
		ack, herr := rcv.Handle(p, nil)
		if perr != nil {
			if herr == nil || len(ack) != 0 {
				t.Fatalf("Handle accepted what ParseRecords rejects (%v): %v %x", perr, herr, ack)
			}
			return
		}
		n := rs.Len()
		q := []byte{replica.TypeRecords}
		for r, ok := rs.Next(); ok; r, ok = rs.Next() {
			if len(r.Payload) > replica.MaxPayload {
				t.Fatalf("payload of %d bytes", len(r.Payload))
			}
			q = replica.AppendRecord(q, r)
		}
		if !bytes.Equal(p, q) {
			t.Fatalf("re-encoded\n%x\nwant\n%x", q, p)
		}
		if herr != nil && !errors.Is(herr, replica.ErrTooManyRecords) {
			t.Fatalf("valid datagram: %v", herr)
		}
		as, err := replica.ParseAcks(ack)
		refused := int(rcv.Stats().Refused)
		if n == refused {
			if len(ack) != 0 {
				t.Fatalf("ack %x with every record refused", ack)
			}
			return
		}
		if err != nil || as.Len() != n-refused {
			t.Fatalf("ack for %d of %d records (%d refused): %v", as.Len(), n, refused, err)
		}
		if rcv.Len() > 4 || rcv.Tombstones() > 2 {
			t.Fatalf("%d live records, %d tombstones over the limits", rcv.Len(), rcv.Tombstones())
		}
	})
}

// FuzzAckDatagram checks that every ack datagram ParseAcks accepts
// re-encodes to the same bytes and that a Sender takes any datagram without
// panicking or losing track of its records.
func FuzzAckDatagram(f *testing.F) {
	f.Add(ackDatagram(replica.Ack{ID: 1, Generation: 0, Revision: 1}))
	f.Add(ackDatagram(replica.Ack{ID: 2, Generation: 0, Revision: 2}, replica.Ack{ID: 99, Generation: 5, Revision: 1 << 31}))
	f.Add([]byte{replica.TypeAck, 0xff})
	f.Fuzz(func(t *testing.T, p []byte) {
		s := replica.NewSender(replica.SenderConfig{})
		for id := uint32(1); id <= 3; id++ {
			if err := s.Publish(id, 0, []byte{byte(id)}); err != nil {
				t.Fatal(err)
			}
		}
		s.AppendDue(nil, 0, 0)
		as, perr := replica.ParseAcks(p)
		herr := s.HandleAck(p)
		if (perr == nil) != (herr == nil) {
			t.Fatalf("ParseAcks %v, HandleAck %v", perr, herr)
		}
		if s.Pending()+int(s.Stats().Acks) != 3 || s.Len() != 3 {
			t.Fatalf("%d pending, %d acked, %d held of 3", s.Pending(), s.Stats().Acks, s.Len())
		}
		if perr != nil {
			return
		}
		q := []byte{replica.TypeAck}
		for a, ok := as.Next(); ok; a, ok = as.Next() {
			q = replica.AppendAck(q, a)
		}
		if !bytes.Equal(p, q) {
			t.Fatalf("re-encoded\n%x\nwant\n%x", q, p)
		}
	})
}
