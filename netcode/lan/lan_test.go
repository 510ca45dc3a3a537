package lan

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestBeaconRoundTrip(t *testing.T) {
	b := Beacon{Name: "Ada's arena", Players: 3, MaxPlayers: 16, HTTPPort: 8080}
	got, err := ParseBeacon(AppendBeacon(nil, b))
	if err != nil || got != b {
		t.Fatalf("%+v %v", got, err)
	}
	long := Beacon{Name: strings.Repeat("é", 40), Players: 0, MaxPlayers: 1, HTTPPort: 1}
	got, err = ParseBeacon(AppendBeacon(nil, long))
	if err != nil || len(got.Name) > MaxName || !strings.HasPrefix(long.Name, got.Name) {
		t.Fatalf("long name: %q %v", got.Name, err)
	}
}

// A host with an invite link sends it after the name; one that is no
// http(s) URL, or too long to carry whole, is left out.
func TestBeaconInvite(t *testing.T) {
	b := Beacon{Name: "Ada's arena", Players: 3, MaxPlayers: 16, HTTPPort: 8080, Invite: "http://203.0.113.5:8090/i/jcmeru3phbt75u4q2e535jkiny"}
	p := AppendBeacon(nil, b)
	got, err := ParseBeacon(p)
	if err != nil || got != b {
		t.Fatalf("%+v %v", got, err)
	}
	if want := len(AppendBeacon(nil, Beacon{Name: b.Name, Players: 3, MaxPlayers: 16, HTTPPort: 8080})) + 1 + len(b.Invite); len(p) != want {
		t.Errorf("beacon of %d bytes, want %d", len(p), want)
	}
	longest := "https://r.example/i/" + strings.Repeat("a", MaxInvite-len("https://r.example/i/"))
	for _, tc := range []struct{ invite, want string }{
		{longest, longest},
		{longest + "a", ""},
		{"javascript:alert(1)", ""},
		{"http://r.example/i/a b", ""},
		{"http://user:pw@r.example/i/a", ""},
		{"ftp://r.example/i/a", ""},
		{"http:///i/a", ""},
		{"http://r.example/i/\u00e9", ""},
	} {
		got, err := ParseBeacon(AppendBeacon(nil, Beacon{Name: "m", MaxPlayers: 2, HTTPPort: 1, Invite: tc.invite}))
		if err != nil || got.Invite != tc.want {
			t.Errorf("invite %q: sent as %q (%v), want %q", tc.invite, got.Invite, err, tc.want)
		}
	}
}

func TestParseBeaconRejects(t *testing.T) {
	good := AppendBeacon(nil, Beacon{Name: "x", Players: 1, MaxPlayers: 2, HTTPPort: 80})
	bad := map[string][]byte{
		"empty":        nil,
		"wrong magic":  append([]byte("SLB2"), good[4:]...),
		"cut":          good[:len(good)-1],
		"trailing":     append(append([]byte(nil), good...), 'y'),
		"port 0":       AppendBeacon(nil, Beacon{Name: "x", MaxPlayers: 2}),
		"too many":     AppendBeacon(nil, Beacon{Name: "x", Players: 3, MaxPlayers: 2, HTTPPort: 1}),
		"control char": AppendBeacon(nil, Beacon{Name: "a\x1bb", MaxPlayers: 2, HTTPPort: 1}),
		"bidi":         AppendBeacon(nil, Beacon{Name: "a\u202eb", MaxPlayers: 2, HTTPPort: 1}),
		"bad utf-8":    append(append([]byte(nil), good[:10]...), 1, 0xff),
		"invite of 0":  append(append([]byte(nil), good...), 0),
		"invite cut":   append(append([]byte(nil), good...), 10, 'h', 't', 't', 'p'),
		"invite long":  append(append(append([]byte(nil), good...), 9), "http://a/bc"...),
		"invite js":    append(append(append([]byte(nil), good...), 19), "javascript:alert(1)"...),
		"invite ctrl":  append(append(append([]byte(nil), good...), 11), "http://a/\x1bb"...),
		"invite huge":  append(append(append([]byte(nil), good...), 255), "http://a/"+strings.Repeat("b", 246)...),
	}
	for name, p := range bad {
		if _, err := ParseBeacon(p); !errors.Is(err, ErrBeacon) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func FuzzParseBeacon(f *testing.F) {
	f.Add(AppendBeacon(nil, Beacon{Name: "match", Players: 1, MaxPlayers: 8, HTTPPort: 8080}))
	f.Add(AppendBeacon(nil, Beacon{Name: "match", Players: 1, MaxPlayers: 8, HTTPPort: 8080, Invite: "https://r.example:8090/i/abc"}))
	f.Fuzz(func(t *testing.T, p []byte) {
		b, err := ParseBeacon(p)
		if err != nil {
			return
		}
		if q := AppendBeacon(nil, b); string(q) != string(p) {
			t.Fatalf("%x parses as %+v, which encodes as %x", p, b, q)
		}
		if len(b.Invite) > MaxInvite || (b.Invite != "" && !strings.HasPrefix(b.Invite, "http")) {
			t.Fatalf("%x parses with the invite link %q", p, b.Invite)
		}
	})
}

// The URL to join is the sender's own address: a beacon cannot point
// elsewhere, and the list is bounded whatever arrives.
func TestBrowserListsSendersOnly(t *testing.T) {
	b := &Browser{matches: make(map[netip.AddrPort]Match)}
	now := time.Now()
	from := netip.MustParseAddr("10.99.0.1")
	b.take(AppendBeacon(nil, Beacon{Name: "m", Players: 1, MaxPlayers: 4, HTTPPort: 8080}), from, now)
	b.take([]byte("garbage"), from, now)
	for i := range 300 {
		b.take(AppendBeacon(nil, Beacon{Name: "flood", MaxPlayers: 1, HTTPPort: uint16(i + 1)}), netip.MustParseAddr("10.99.0.9"), now)
	}
	ms := b.Matches()
	if len(ms) != MaxMatches {
		t.Fatalf("%d matches listed", len(ms))
	}
	found := false
	for _, m := range ms {
		if m.Name == "m" {
			found = m.URL == "http://10.99.0.1:8080"
		}
	}
	if !found {
		t.Fatal("the first match is missing or points elsewhere")
	}
	if b.Rejected() != 1+300-(MaxMatches-1) {
		t.Fatalf("rejected %d", b.Rejected())
	}
}

// Over loopback-less real sockets the beacon reaches a browser on this host
// through the broadcast address of each LAN interface.
func TestAnnounceAndListen(t *testing.T) {
	if len(BroadcastAddrs()) == 0 {
		t.Fatal("no IPv4 LAN interface to broadcast on")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard
	defer cancel()
	const port = 47871
	br, err := Listen(ctx, port)
	if err != nil {
		t.Fatal(err)
	}
	go Announce(ctx, AnnounceConfig{Port: port, Interval: 100 * time.Millisecond, Beacon: func() Beacon {
		return Beacon{Name: "test match", Players: 2, MaxPlayers: 8, HTTPPort: 8080}
	}})
	for ctx.Err() == nil {
		for _, m := range br.Matches() {
			if m.Name == "test match" && m.Players == 2 {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("no beacon heard in 2 minutes")
}

// A host's invite link reaches the list beside its sender's own address,
// which stays where to join on the LAN.
func TestBrowserKeepsInvite(t *testing.T) {
	b := &Browser{matches: make(map[netip.AddrPort]Match)}
	invite := "http://203.0.113.5:8090/i/abc"
	b.take(AppendBeacon(nil, Beacon{Name: "m", Players: 1, MaxPlayers: 4, HTTPPort: 8080, Invite: invite}), netip.MustParseAddr("10.99.0.1"), time.Now())
	ms := b.Matches()
	if len(ms) != 1 || ms[0].Invite != invite || ms[0].URL != "http://10.99.0.1:8080" {
		t.Fatalf("listed %+v", ms)
	}
}
