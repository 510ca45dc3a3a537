package ratelimit

import (
	"context"
	"net/http"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestKeyedBounded(t *testing.T) {
	l := New(2, 5, 100)
	now := time.Unix(1000, 0)
	for i := range 2000 {
		if ok, _ := l.Allow(strconv.Itoa(i), now); !ok {
			t.Fatalf("new client %d limited", i)
		}
		if n := l.Size(); n > 100 {
			t.Fatalf("table holds %d clients, max 100", n)
		}
	}
	// A busy client keeps its bucket while the table churns.
	for range 5 {
		l.Allow("busy", now)
	}
	if ok, d := l.Allow("busy", now); ok || d != 500*time.Millisecond {
		t.Fatalf("busy client's 6th offer: %v, %v", ok, d)
	}
	// Idle buckets go at the next sweep.
	later := now.Add(l.idle)
	l.Allow("new", later)
	if n := l.Size(); n != 1 {
		t.Fatalf("after idle sweep: %d clients, want 1", n)
	}
	if ok, _ := New(rate.Inf, 1, 1).Allow("x", now); !ok {
		t.Fatal("rate.Inf limited")
	}
}

func TestKeys(t *testing.T) {
	for remote, want := range map[string][2]string{
		"198.51.100.7:5000":           {"198.51.100.7", "198.51.100.7"},
		"[2001:db8:1:2:3:4:5:6]:5000": {"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		"[2001:db8:1:2:ffff::1]:6000": {"2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"},
		"[::ffff:198.51.100.7]:5000":  {"::ffff:198.51.100.7", "198.51.100.7"},
		"not an address":              {"not an address", "not an address"},
	} {
		r := &http.Request{RemoteAddr: remote}
		if got := RemoteIP(r); got != want[0] {
			t.Errorf("RemoteIP(%q) = %q, want %q", remote, got, want[0])
		}
		if got := Subscriber(r); got != want[1] {
			t.Errorf("Subscriber(%q) = %q, want %q", remote, got, want[1])
		}
	}
	for a, want := range map[string]string{
		"198.51.100.7":              "198.51.100.7",
		"::ffff:198.51.100.7":       "198.51.100.7",
		"2001:db8:1:2:3:4:5:6":      "2001:db8:1:2::",
		"2001:db8:1:2:ffff::1%eth0": "2001:db8:1:2::",
	} {
		if got := SubscriberAddr(netip.MustParseAddr(a)); got != netip.MustParseAddr(want) {
			t.Errorf("SubscriberAddr(%s) = %v, want %s", a, got, want)
		}
	}
	for d, want := range map[time.Duration]string{0: "1", 300 * time.Millisecond: "1", 1500 * time.Millisecond: "2", 5 * time.Second: "5"} {
		if got := RetryAfter(d); got != want {
			t.Errorf("RetryAfter(%v) = %q, want %q", d, got, want)
		}
	}
}

// WaitN paces one key to its rate beyond the burst, and another key not
// at all.
func TestKeyedWaitN(t *testing.T) {
	l := New(1000, 500, 10)
	ctx := context.Background()
	began := time.Now()
	for range 4 {
		if err := l.WaitN(ctx, "a", 500); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(began); d < 1400*time.Millisecond {
		t.Errorf("2000 tokens at 1000 a second, burst 500: took %v, want at least 1.5 s", d)
	}
	// Another key's burst is there at once: given less time than a's
	// bucket would make it wait (0.5 s), it need not wait at all.
	soon, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if err := l.WaitN(soon, "b", 500); err != nil {
		t.Errorf("another key's burst: %v", err)
	}
	if err := l.WaitN(ctx, "b", 501); err == nil {
		t.Error("WaitN beyond the burst succeeded")
	}
}
