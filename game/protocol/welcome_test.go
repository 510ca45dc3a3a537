package protocol

import "testing"

func TestWelcomeRoundTrip(t *testing.T) {
	w := Welcome{Player: 70000, Slot: 4095, MapSeed: 0xdeadbeefcafe}
	got, err := ParseWelcome(AppendWelcome(nil, w))
	if err != nil || got != w {
		t.Fatalf("%+v %v", got, err)
	}
	for _, b := range [][]byte{nil, {0x80}, {1}, {1, 2, 3}, append(AppendWelcome(nil, w), 0)} {
		if _, err := ParseWelcome(b); err == nil {
			t.Errorf("%x accepted", b)
		}
	}
}

func FuzzParseWelcome(f *testing.F) {
	f.Add(AppendWelcome(nil, Welcome{Player: 1, Slot: 2, MapSeed: 3}))
	f.Fuzz(func(t *testing.T, b []byte) {
		w, err := ParseWelcome(b)
		if err != nil {
			return
		}
		if again, err := ParseWelcome(AppendWelcome(nil, w)); err != nil || again != w {
			t.Fatalf("round trip of %x: %+v %v", b, again, err)
		}
	})
}
