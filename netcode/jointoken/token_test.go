package jointoken

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func testKey(b byte) Key {
	var k Key
	for i := range k {
		k[i] = b + byte(i)
	}
	return k
}

func TestMintOpenRoundTrip(t *testing.T) {
	key := testKey(1)
	exp := time.Unix(1_900_000_000, 0)
	in := Claims{Match: "2", Name: "ada", Player: 1 << 40, Server: "10.0.0.7:7654", Expires: exp}
	tok, err := Mint(key, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) > MaxText || strings.ContainsAny(tok, "+/=") {
		t.Fatalf("token %q: want unpadded base64url of at most %d characters", tok, MaxText)
	}
	out, err := Open(key, tok)
	if err != nil {
		t.Fatal(err)
	}
	if out.ID == ([16]byte{}) {
		t.Error("minted with a zero id")
	}
	in.ID = out.ID
	if out != in || !out.Expires.Equal(exp) {
		t.Errorf("opened %+v, want %+v", out, in)
	}
	again, _ := Mint(key, in)
	if again == tok {
		t.Error("two tokens of the same claims are the same text: the nonce is not random")
	}
}

func TestOpenRefuses(t *testing.T) {
	key := testKey(1)
	tok, err := Mint(key, Claims{Name: "ada", Expires: time.Unix(1_900_000_000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := b64.DecodeString(tok)
	flip := func(i int) string {
		b := bytes.Clone(raw)
		b[i] ^= 1
		return b64.EncodeToString(b)
	}
	v2 := bytes.Clone(raw)
	v2[0] = 2
	for _, tc := range []struct {
		name, tok string
		key       Key
		want      error
	}{
		{"missing", "", key, ErrMissing},
		{"not base64url", tok[:10] + "*" + tok[11:], key, ErrMalformed},
		{"too long", strings.Repeat("A", MaxText+1), key, ErrMalformed},
		{"too short", b64.EncodeToString(raw[:40]), key, ErrMalformed},
		{"another version", b64.EncodeToString(v2), key, ErrVersion},
		{"another key", tok, testKey(2), ErrForged},
		{"nonce altered", flip(5), key, ErrForged},
		{"claims altered", flip(1 + nonceSize + 3), key, ErrForged},
		{"tag altered", flip(len(raw) - 1), key, ErrForged},
	} {
		if _, err := Open(tc.key, tc.tok); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// clock is a settable time for a Checker.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func TestCheckerRefusals(t *testing.T) {
	key := testKey(1)
	clk := &clock{now: time.Unix(1_800_000_000, 0)}
	ck := NewChecker(CheckerConfig{Key: key, Server: "1.2.3.4:7000", Now: clk.Now})
	mint := func(c Claims) string {
		t.Helper()
		if c.Expires.IsZero() {
			c.Expires = clk.now.Add(30 * time.Second)
		}
		tok, err := Mint(key, c)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	ok := mint(Claims{Match: "2", Name: "ada", Server: "1.2.3.4:7000"})
	// Verify does not spend the token: twice, and Check still admits it.
	for range 2 {
		if c, err := ck.Verify(ok, ""); err != nil || c.Match != "2" {
			t.Fatalf("Verify of a valid token: %+v, %v", c, err)
		}
	}
	if _, err := ck.Verify(ok, "5"); !errors.Is(err, ErrWrongMatch) {
		t.Errorf("Verify for another match: %v, want %v", err, ErrWrongMatch)
	}
	c, err := ck.Check(ok, "")
	if err != nil || c.Match != "2" || c.Name != "ada" {
		t.Fatalf("a valid token: %+v, %v; want match 2, name ada", c, err)
	}
	if _, err := ck.Check(ok, ""); !errors.Is(err, ErrReplayed) {
		t.Errorf("the same token again: %v, want %v", err, ErrReplayed)
	}
	if _, err := ck.Verify(ok, ""); !errors.Is(err, ErrReplayed) {
		t.Errorf("Verify of a spent token: %v, want %v", err, ErrReplayed)
	}
	if c, err := ck.Check(mint(Claims{Name: "any"}), "3"); err != nil || c.Match != "3" {
		t.Errorf("a token for any match and server, asking for 3: %+v, %v", c, err)
	}
	for _, tc := range []struct {
		name, tok, match string
		want             error
	}{
		{"expired", mint(Claims{Expires: clk.now.Add(-time.Second)}), "", ErrExpired},
		{"expiring now", mint(Claims{Expires: clk.now}), "", ErrExpired},
		{"too long a life", mint(Claims{Expires: clk.now.Add(11 * time.Minute)}), "", ErrTooLong},
		{"another server", mint(Claims{Server: "1.2.3.4:7001"}), "", ErrWrongServer},
		{"another match", mint(Claims{Match: "1"}), "2", ErrWrongMatch},
		{"another key", func() string { tok, _ := Mint(testKey(9), Claims{Expires: clk.now.Add(time.Second)}); return tok }(), "", ErrForged},
		{"missing", "", "", ErrMissing},
	} {
		if _, err := ck.Check(tc.tok, tc.match); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		} else if got := Status(err); (tc.want == ErrMissing) != (got == http.StatusUnauthorized) || (tc.want != ErrMissing && got != http.StatusForbidden) {
			t.Errorf("%s: status %d", tc.name, got)
		}
	}
	if n := ck.Used(); n != 2 {
		t.Errorf("remembers %d used ids, want 2 (refused tokens are not remembered)", n)
	}
	open := NewChecker(CheckerConfig{Key: key, Now: clk.Now})
	if _, err := open.Check(mint(Claims{Server: "1.2.3.4:7000"}), ""); !errors.Is(err, ErrWrongServer) {
		t.Errorf("a server that does not know its address took a token naming one: %v", err)
	}
}

// The used ids are bounded: when MaxUsed unexpired ids are held, a new
// token is refused (not another's id forgotten, which would let a replay
// in); once they expire they are forgotten and new tokens join again.
func TestCheckerMemoryBounded(t *testing.T) {
	key := testKey(1)
	clk := &clock{now: time.Unix(1_800_000_000, 0)}
	ck := NewChecker(CheckerConfig{Key: key, MaxUsed: 3, Now: clk.Now})
	var toks []string
	for range 5 {
		tok, _ := Mint(key, Claims{Expires: clk.now.Add(30 * time.Second)})
		toks = append(toks, tok)
	}
	for i, tok := range toks {
		_, err := ck.Check(tok, "")
		if want := i >= 3; (err != nil) != want || (want && !errors.Is(err, ErrFull)) {
			t.Errorf("token %d: %v", i, err)
		}
	}
	if got := Status(ErrFull); got != http.StatusServiceUnavailable {
		t.Errorf("full: status %d, want 503", got)
	}
	clk.now = clk.now.Add(31 * time.Second)
	late, _ := Mint(key, Claims{Expires: clk.now.Add(30 * time.Second)})
	if _, err := ck.Check(late, ""); err != nil || ck.Used() != 1 {
		t.Errorf("after the first three expired: %v, %d remembered; want admitted, 1", err, ck.Used())
	}
}

func TestKeyFile(t *testing.T) {
	k, err := ParseKey(" " + testKey(3).String() + "\n")
	if err != nil || k != testKey(3) {
		t.Fatalf("ParseKey: %v %v", k, err)
	}
	for _, bad := range []string{"", "00", strings.Repeat("g", 64), strings.Repeat("0", 66), strings.Repeat("0", 64)} {
		if _, err := ParseKey(bad); !errors.Is(err, ErrBadKey) {
			t.Errorf("ParseKey(%q): %v, want %v", bad, err, ErrBadKey)
		}
	}
}

func TestFromRequestAndReason(t *testing.T) {
	r, _ := http.NewRequest("POST", "http://x/signal", nil)
	if got := FromRequest(r); got != "" {
		t.Errorf("no header: %q", got)
	}
	r.Header.Set("Authorization", "bearer abc")
	if got := FromRequest(r); got != "abc" {
		t.Errorf("bearer abc: %q", got)
	}
	r.Header.Set("Authorization", "Basic abc")
	if got := FromRequest(r); got != "" {
		t.Errorf("Basic: %q", got)
	}
	if got := Reason(ErrReplayed); got != "replayed" {
		t.Errorf("Reason(replayed) = %q", got)
	}
	if got := Reason(errors.New("x")); got != "other" {
		t.Errorf("Reason(other) = %q", got)
	}
}

// FuzzParseClaims: whatever the bytes, parsing neither panics nor accepts
// a second encoding of the same claims (it re-encodes to the same bytes).
func FuzzParseClaims(f *testing.F) {
	f.Add(appendClaims(nil, Claims{Match: "2", Name: "ada", Player: 300, Server: "h:1", Expires: time.Unix(5, 0)}))
	f.Add([]byte{})
	f.Add(make([]byte, 8+idSize+4))
	f.Fuzz(func(t *testing.T, p []byte) {
		c, err := parseClaims(p)
		if err != nil {
			return
		}
		if again := appendClaims(nil, c); !bytes.Equal(again, p) {
			t.Fatalf("claims %+v re-encode to %x, parsed from %x", c, again, p)
		}
	})
}

// FuzzOpen: any text opens or is refused with one of the package's errors.
func FuzzOpen(f *testing.F) {
	key := testKey(1)
	tok, _ := Mint(key, Claims{Name: "ada", Expires: time.Unix(1_900_000_000, 0)})
	f.Add(tok)
	f.Add("")
	f.Add("AQ")
	f.Fuzz(func(t *testing.T, s string) {
		_, err := Open(key, s)
		if err != nil && Reason(err) == "other" {
			t.Fatalf("Open(%q): %v: not one of the package's errors", s, err)
		}
	})
}

var b64 = base64.RawURLEncoding

// A reserved token is refused to another join while held (503, in_use),
// spent by Commit, and free again after Release.
func TestCheckerReserve(t *testing.T) {
	key := testKey(2)
	clk := &clock{now: time.Unix(1_800_000_000, 0)}
	ck := NewChecker(CheckerConfig{Key: key, Now: clk.Now})
	mint := func() string {
		tok, err := Mint(key, Claims{Name: "ada", Expires: clk.now.Add(time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	tok := mint()
	c, err := ck.Reserve(tok, "1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ck.Reserve(tok, "1"); !errors.Is(err, ErrInUse) || Status(err) != http.StatusServiceUnavailable || Reason(err) != "in_use" {
		t.Errorf("a held token again: %v (status %d, reason %s), want %v, 503, in_use", err, Status(err), Reason(err), ErrInUse)
	}
	ck.Release(c.ID) // the join failed after the check: the retry is admitted
	c, err = ck.Reserve(tok, "1")
	if err != nil {
		t.Fatalf("the token after Release: %v", err)
	}
	ck.Commit(c.ID)
	ck.Release(c.ID) // too late: a committed token stays spent
	if _, err := ck.Reserve(tok, "1"); !errors.Is(err, ErrReplayed) {
		t.Errorf("a committed token again: %v, want %v", err, ErrReplayed)
	}
	if _, err := ck.Check(tok, "1"); !errors.Is(err, ErrReplayed) {
		t.Errorf("Check of a committed token: %v, want %v", err, ErrReplayed)
	}
	// A held token that expires is forgotten with its hold.
	held, _ := ck.Reserve(mint(), "")
	clk.now = clk.now.Add(2 * time.Minute)
	ck.forget(clk.now)
	ck.mu.Lock()
	_, stillHeld := ck.held[held.ID]
	ck.mu.Unlock()
	if stillHeld || ck.Used() != 0 {
		t.Errorf("after expiry: held %v, %d used", stillHeld, ck.Used())
	}
}
