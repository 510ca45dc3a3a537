package iceservers

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const testSecretText = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

func testSecret(t testing.TB) Secret {
	t.Helper()
	s, err := ParseSecret(testSecretText)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseSecret(t *testing.T) {
	for _, tc := range []struct {
		text string
		ok   bool
	}{
		{testSecretText, true},
		{"  " + strings.ToUpper(testSecretText) + "\n", true},
		{testSecretText[:62], false},
		{testSecretText + "00", false},
		{strings.Repeat("0", 64), false},
		{strings.Repeat("g", 64), false},
		{"", false},
	} {
		s, err := ParseSecret(tc.text)
		if tc.ok != (err == nil) {
			t.Errorf("ParseSecret(%q): %v", tc.text, err)
		}
		if err != nil && !errors.Is(err, ErrBadSecret) {
			t.Errorf("ParseSecret(%q): %v, want %v", tc.text, err, ErrBadSecret)
		}
		if tc.ok && s.String() != testSecretText {
			t.Errorf("ParseSecret(%q) = %s", tc.text, s)
		}
	}
	a, _ := NewSecret()
	b, _ := NewSecret()
	if a == b || a.IsZero() {
		t.Errorf("NewSecret twice: %s, %s", a, b)
	}
	path := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(path, []byte(a.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := LoadSecret(path); err != nil || got != a {
		t.Errorf("LoadSecret: %v, %v", got, err)
	}
	if _, err := LoadSecret(path + ".missing"); err == nil {
		t.Error("LoadSecret of no file succeeded")
	}
}

// The credential is coturn's: the HMAC-SHA1 of the username under the
// secret's hex text, computed here from the standard library alone.
func TestMintKnownAnswer(t *testing.T) {
	s := testSecret(t)
	now := time.Unix(1_796_000_000, 0)
	c := Mint(s, "abc", now, 10*time.Minute)
	if c.Username != "1796000600:abc" || !c.Expires.Equal(time.Unix(1_796_000_600, 0)) {
		t.Fatalf("Mint: %+v", c)
	}
	mac := hmac.New(sha1.New, []byte(testSecretText))
	mac.Write([]byte("1796000600:abc"))
	if want := base64.StdEncoding.EncodeToString(mac.Sum(nil)); c.Password != want {
		t.Fatalf("password %q, want %q", c.Password, want)
	}
}

func TestCheck(t *testing.T) {
	s := testSecret(t)
	other, _ := NewSecret()
	now := time.Unix(1_796_000_000, 0)
	c := Mint(s, "p1", now, 10*time.Minute)
	pw, err := Check(s, c.Username, now.Add(time.Minute), time.Hour)
	if err != nil || pw != c.Password {
		t.Fatalf("Check of a fresh credential: %q, %v", pw, err)
	}
	if pw, _ := Check(other, c.Username, now, time.Hour); pw == c.Password {
		t.Error("another secret gives the same password")
	}
	for _, tc := range []struct {
		name, user string
		at         time.Time
		want       error
	}{
		{"expired", c.Username, now.Add(11 * time.Minute), ErrExpired},
		{"at its expiry", c.Username, c.Expires, ErrExpired},
		{"too long", Mint(s, "p", now, 48*time.Hour).Username, now, ErrTooLong},
		{"no colon", "1796000600", now, ErrMalformedUsername},
		{"not a number", "soon:p1", now, ErrMalformedUsername},
		{"empty", "", now, ErrMalformedUsername},
		{"negative", "-5:p", now, ErrMalformedUsername},
		{"huge", strings.Repeat("9", 30) + ":p", now, ErrMalformedUsername},
		{"too long a name", "1796000600:" + strings.Repeat("x", 300), now, ErrMalformedUsername},
	} {
		if _, err := Check(s, tc.user, tc.at, time.Hour); !errors.Is(err, tc.want) {
			t.Errorf("%s: Check(%q): %v, want %v", tc.name, tc.user, err, tc.want)
		}
	}
}

func TestParseURLs(t *testing.T) {
	good := "turn:203.0.113.5:3478, turn:203.0.113.5:3478?transport=tcp,turns:relay.example:5349,stun:[2001:db8::1]:3478,turn:relay.example"
	urls, err := ParseURLs(good)
	if err != nil || len(urls) != 5 || urls[1] != "turn:203.0.113.5:3478?transport=tcp" {
		t.Fatalf("ParseURLs(%q) = %q, %v", good, urls, err)
	}
	for _, bad := range []string{
		"", ",", "http://relay:3478", "turn:", "turn:relay:0", "turn:relay:70000", "turn:relay:x",
		"turn:relay:3478?transport=sctp", "stun:relay:3478?transport=udp", "turn:user@relay:3478",
		"turn:relay:3478?transport=udp&x=1",
	} {
		if _, err := ParseURLs(bad); !errors.Is(err, ErrBadURL) {
			t.Errorf("ParseURLs(%q): %v, want %v", bad, err, ErrBadURL)
		}
	}
}

func TestHandoutList(t *testing.T) {
	s := testSecret(t)
	now := time.Unix(1_796_000_000, 0)
	h := Handout{URLs: []string{"turn:203.0.113.5:3478", "turn:203.0.113.5:3478?transport=tcp", "turns:relay.example:5349", "stun:203.0.113.5:3478", "stun:198.51.100.1:3478"}, Secret: s, TTL: 10 * time.Minute}
	l := h.List("id7", now)
	want := List{ICEServers: []Server{
		{URLs: []string{"stun:203.0.113.5:3478", "stun:198.51.100.1:3478"}},
		{URLs: []string{"turn:203.0.113.5:3478", "turn:203.0.113.5:3478?transport=tcp", "turns:relay.example:5349"},
			Username: "1796000600:id7", Credential: Mint(s, "id7", now, 10*time.Minute).Password},
	}, TTL: 600}
	if !reflect.DeepEqual(l, want) {
		t.Fatalf("List:\n got %+v\nwant %+v", l, want)
	}
	// What a client parses is what was handed out.
	body, _ := json.Marshal(l)
	if got, err := ParseList(body); err != nil || !reflect.DeepEqual(got, l) {
		t.Fatalf("ParseList(%s) = %+v, %v", body, got, err)
	}
	// Without relays: an empty list, never null.
	body, _ = json.Marshal(Handout{}.List("x", now))
	if string(body) != `{"iceServers":[]}` {
		t.Errorf("an empty handout: %s", body)
	}
}

func TestParseListRefuses(t *testing.T) {
	many := `{"iceServers":[` + strings.TrimSuffix(strings.Repeat(`{"urls":["stun:a"]},`, MaxServers+1), ",") + `]}`
	for _, bad := range []string{
		`not json`, `{"iceServers":[{"urls":[]}]}`, `{"iceServers":[{"urls":["http://x"]}]}`,
		`{"iceServers":[{"urls":["stun:a"],"username":"` + strings.Repeat("u", MaxFieldBytes+1) + `"}]}`,
		many, `{"iceServers":[],"ttl":-1}`, `{"iceServers":[{"urls":"stun:a"}]}`,
		`{"iceServers":[{"urls":["` + "stun:" + strings.Repeat("a", MaxFieldBytes) + `"]}]}`,
		strings.Repeat(" ", MaxListBytes+1),
	} {
		if _, err := ParseList([]byte(bad)); !errors.Is(err, ErrBadList) {
			t.Errorf("ParseList(%.60q): %v, want %v", bad, err, ErrBadList)
		}
	}
	if l, err := ParseList([]byte(`{}`)); err != nil || l.ICEServers == nil || len(l.ICEServers) != 0 {
		t.Errorf("ParseList({}) = %+v, %v", l, err)
	}
}

// ParseList never panics, and what it accepts encodes to a list it reads
// back the same.
func FuzzParseList(f *testing.F) {
	f.Add([]byte(`{"iceServers":[{"urls":["stun:203.0.113.5:3478"]},{"urls":["turn:203.0.113.5:3478?transport=tcp"],"username":"1:a","credential":"x"}],"ttl":600}`))
	f.Add([]byte(`{"iceServers":[]}`))
	f.Add([]byte(`{"iceServers":[{"urls":["turns:[::1]:5349"]}],"ttl":0}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		l, err := ParseList(body)
		if err != nil {
			return
		}
		again, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		l2, err := ParseList(again)
		if err != nil || !reflect.DeepEqual(l, l2) {
			t.Fatalf("round trip of %q: %+v, %v; want %+v", again, l2, err, l)
		}
	})
}

// Check never panics, and admits only what Mint made under the secret.
func FuzzCheck(f *testing.F) {
	f.Add("1796000600:abc")
	f.Add("9999999999:")
	f.Add(":x")
	s := testSecret(f)
	now := time.Unix(1_796_000_000, 0)
	f.Fuzz(func(t *testing.T, user string) {
		pw, err := Check(s, user, now, 24*time.Hour)
		if err != nil {
			return
		}
		_, id, _ := strings.Cut(user, ":")
		if pw == "" || len(id) > maxUsername {
			t.Fatalf("Check(%q) = %q", user, pw)
		}
	})
}

func ExampleHandout() {
	secret, _ := ParseSecret(testSecretText)
	h := Handout{URLs: []string{"turn:203.0.113.5:3478", "turn:203.0.113.5:3478?transport=tcp"}, Secret: secret, TTL: 10 * time.Minute}
	// A game server hands a joining client this list (GET /ice) ...
	l := h.List("3f9a1c22e0b4", time.Unix(1_796_000_000, 0))
	// ... and the relay, given the same secret, checks the username it is
	// sent a minute later.
	pw, err := Check(secret, l.ICEServers[1].Username, time.Unix(1_796_000_060, 0), 24*time.Hour)
	if err == nil && pw == l.ICEServers[1].Credential {
		os.Stdout.WriteString(l.ICEServers[1].Username + " accepted\n")
	}
	// Output: 1796000600:3f9a1c22e0b4 accepted
}

// The worked example of docs/PROTOCOL.md section 1.3 is what Mint makes.
func TestSpecCredential(t *testing.T) {
	c := Mint(testSecret(t), "3f9a1c22e0b4", time.Unix(1_796_000_000, 0), 10*time.Minute)
	spec, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`"username": %q, "credential": %q`, c.Username, c.Password)
	if !strings.Contains(string(spec), want) || !strings.Contains(string(spec), testSecretText) {
		t.Errorf("PROTOCOL.md 1.3 does not show %s under the secret %s", want, testSecretText)
	}
}

func TestHandoutHasTURN(t *testing.T) {
	s := testSecret(t)
	for _, tc := range []struct {
		h    Handout
		want bool
	}{
		{Handout{}, false},
		{Handout{URLs: []string{"stun:a:3478"}}, false},
		{Handout{URLs: []string{"turn:a:3478"}}, false}, // no secret: no credential
		{Handout{URLs: []string{"stun:a:3478", "turns:a:5349"}, Secret: s}, true},
	} {
		if got := tc.h.HasTURN(); got != tc.want {
			t.Errorf("%+v: HasTURN %v, want %v", tc.h.URLs, got, tc.want)
		}
	}
}

func TestScope(t *testing.T) {
	s := testSecret(t)
	now := time.Unix(1_796_000_000, 0)
	v4, v6 := netip.MustParseAddr("203.0.113.7"), netip.MustParseAddr("2001:db8::7")
	c := Mint(s, "p1", now, 10*time.Minute, v4, netip.AddrFrom16(v4.As16()), v6)
	if want := "1796000600:p1;to=203.0.113.7,203.0.113.7,2001:db8::7"; c.Username != want {
		t.Fatalf("username %q, want %q", c.Username, want)
	}
	peers, err := Scope(c.Username)
	if err != nil || len(peers) != 3 || peers[0] != v4 || peers[1] != v4 || peers[2] != v6 {
		t.Fatalf("Scope(%q) = %v, %v", c.Username, peers, err)
	}
	if pw, err := Check(s, c.Username, now, time.Hour); err != nil || pw != c.Password {
		t.Fatalf("Check of a scoped credential: %q, %v", pw, err)
	}
	// Widening the scope changes the username, so the password no longer fits.
	wider := c.Username + ",198.51.100.1"
	if pw, _ := Check(s, wider, now, time.Hour); pw == c.Password {
		t.Fatal("a widened scope kept its password")
	}
	if peers, err := Scope("1796000600:p1"); err != nil || peers != nil {
		t.Fatalf("unscoped: %v, %v", peers, err)
	}
	for _, bad := range []string{
		"1796000600:p1;to=",
		"1796000600:p1;to=nonsense",
		"1796000600:p1;to=fe80::1%eth0",
		"1796000600:p1;to=1.1.1.1,1.1.1.2,1.1.1.3,1.1.1.4,1.1.1.5",
	} {
		if _, err := Scope(bad); !errors.Is(err, ErrMalformedUsername) {
			t.Errorf("Scope(%q): %v, want ErrMalformedUsername", bad, err)
		}
		if _, err := Check(s, bad, now.Add(-time.Minute), time.Hour); err == nil {
			t.Errorf("Check(%q) accepted it", bad)
		}
	}
	// More than MaxPeers are cut to MaxPeers.
	many := Mint(s, "p", now, time.Minute, v4, v4, v4, v4, v4, v4)
	if peers, err := Scope(many.Username); err != nil || len(peers) != MaxPeers {
		t.Fatalf("Mint of 6 peers: %q: %v, %v", many.Username, peers, err)
	}
}

// Scope never panics, and what it returns round-trips through Mint.
func FuzzScope(f *testing.F) {
	f.Add("1796000600:p1;to=203.0.113.7,2001:db8::7")
	f.Add("1:x;to=::ffff:1.2.3.4")
	f.Add("1796000600:p1")
	f.Fuzz(func(t *testing.T, user string) {
		peers, err := Scope(user)
		if err != nil {
			return
		}
		if len(peers) > MaxPeers {
			t.Fatalf("Scope(%q): %d peers", user, len(peers))
		}
		c := Mint(Secret{text: "x"}, "id", time.Unix(1, 0), time.Second, peers...)
		again, err := Scope(c.Username)
		if err != nil || len(again) != len(peers) {
			t.Fatalf("Scope(Mint(%v)) = %v, %v", peers, again, err)
		}
		for i := range peers {
			if again[i] != peers[i] {
				t.Fatalf("Scope(Mint(%v)) = %v", peers, again)
			}
		}
	})
}

// With a Window, one id's credential is the same all through a window and
// lives at least the TTL; the next window's is another.
func TestHandoutWindow(t *testing.T) {
	h := Handout{URLs: []string{"turn:203.0.113.5:3478"}, Secret: testSecret(t), Window: 5 * time.Minute}
	start := time.Unix(1_796_000_100, 0) // a multiple of 5 minutes
	a, b := h.List("p", start.Add(time.Second)), h.List("p", start.Add(299*time.Second))
	if !reflect.DeepEqual(a.ICEServers[1], b.ICEServers[1]) {
		t.Errorf("one window, two credentials: %+v, %+v", a.ICEServers[1], b.ICEServers[1])
	}
	if b.TTL < int(DefaultTTL/time.Second) || a.TTL > int((DefaultTTL+h.Window)/time.Second) {
		t.Errorf("ttl %d and %d, want between the TTL and the TTL plus the window", a.TTL, b.TTL)
	}
	if c := h.List("p", start.Add(300*time.Second)); c.ICEServers[1].Username == a.ICEServers[1].Username {
		t.Error("the next window kept the credential")
	}
	if DeriveID(testSecret(t), "a") == DeriveID(testSecret(t), "b") || DeriveID(testSecret(t), "a") != DeriveID(testSecret(t), "a") {
		t.Error("DeriveID is not a function of its key")
	}
}
