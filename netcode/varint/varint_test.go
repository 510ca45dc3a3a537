package varint

import (
	"encoding/binary"
	"errors"
	"testing"
)

func TestRead(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 300, 1<<32 - 1, 1<<35 - 1} {
		p := binary.AppendUvarint(nil, v)
		got, n, err := Read(append(p, 0xff), 1<<35-1)
		if err != nil || got != v || n != len(p) || Len(v) != len(p) {
			t.Errorf("%d: got %d, %d bytes, %v (Len %d)", v, got, n, err, Len(v))
		}
	}
	cases := []struct {
		p    []byte
		max  uint64
		want error
	}{
		{nil, 10, ErrShort},
		{[]byte{0x80}, 10, ErrShort},
		{[]byte{0x81, 0x00}, 10, ErrMalformed}, // 1, not shortest
		{[]byte{11}, 10, ErrMalformed},         // over the bound
		{[]byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 1 << 40, ErrMalformed},
	}
	for _, c := range cases {
		if _, _, err := Read(c.p, c.max); !errors.Is(err, c.want) {
			t.Errorf("%x: %v, want %v", c.p, err, c.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add([]byte{0x96, 0x01})
	f.Fuzz(func(t *testing.T, p []byte) {
		v, n, err := Read(p, 1<<35-1)
		if err != nil {
			return
		}
		if q := binary.AppendUvarint(nil, v); string(q) != string(p[:n]) {
			t.Fatalf("%x reads as %d, which encodes as %x", p[:n], v, q)
		}
	})
}
