package datachan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestCandidatePaths(t *testing.T) {
	for _, c := range []struct{ sdp, want string }{
		{"v=0\r\n", ""},
		{"a=candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host\r\n", "host"},
		{"a=candidate:2 1 udp 1 203.0.113.9 5000 typ relay raddr 0.0.0.0 rport 0\r\n" +
			"a=candidate:1 1 udp 2 10.0.0.2 5000 typ host\r\na=candidate:3 1 udp 3 198.51.100.1 5 typ srflx\r\n", "host srflx relay"},
		{"a=candidate:1 1 udp 2 10.0.0.2 5000 typ host\na=candidate:1 1 udp 2 10.0.0.3 5000 typ host", "host"},
		{"a=candidate:1 1 udp 2 10.0.0.2 5000 typ", ""},
		{"a=candidate:1 typ magic\r\n", ""},
	} {
		if got := CandidatePaths(c.sdp); got != c.want {
			t.Errorf("CandidatePaths(%q) = %q, want %q", c.sdp, got, c.want)
		}
	}
}

// Progress reports each stage once, in order, and names where a dial
// failed by the stage it reached.
func TestProgress(t *testing.T) {
	var got []string
	p := NewProgress(func(s Stage) { got = append(got, s.Name+"/"+s.Detail) })
	p.Reach(StageOfferSent, "")
	p.Reach(StageOfferSent, "again") // the offer posted again after a Retry-After
	p.Reach(StageAnswer, "")
	p.Reach(StageOfferSent, "late")
	if err := p.AfterAnswer(errors.New("x")); !errors.Is(err, ErrICEFailed) {
		t.Errorf("before ICE connected: %v", err)
	}
	p.Reach(StageConnected, "host")
	if err := p.AfterAnswer(errors.New("x")); !errors.Is(err, ErrChannelsNotOpen) || errors.Is(err, ErrICEFailed) {
		t.Errorf("after ICE connected: %v", err)
	}
	if want := []string{"offer sent/", "answer received/", "ice connected/host"}; !slices.Equal(got, want) {
		t.Errorf("reported %q, want %q", got, want)
	}
	if !p.Reached(StageChecking) || p.Reached(StageChannelsOpen) {
		t.Error("Reached does not follow the order of the stages")
	}
	refused := &Refused{Status: 403, Err: fmt.Errorf("%w: 403", ErrSignalling)}
	if err := Posting(refused); errors.Is(err, ErrUnreachable) {
		t.Errorf("a refusal taken as unreachable: %v", err)
	}
	if err := Posting(errors.New("connection refused")); !errors.Is(err, ErrUnreachable) {
		t.Errorf("no reply not taken as unreachable: %v", err)
	}
}

// FuzzCandidatePaths: any answer's SDP (from the network) gives a list of
// known path names, without panicking.
func FuzzCandidatePaths(f *testing.F) {
	f.Add("a=candidate:1 1 udp 2130706431 127.0.0.1 5000 typ host\r\n")
	f.Add("a=candidate:2 1 udp 1 203.0.113.9 5000 typ relay raddr 0.0.0.0 rport 0\r\na=candidate:x typ prflx typ srflx\n")
	f.Add("a=candidate:typ")
	f.Fuzz(func(t *testing.T, sdp string) {
		got := CandidatePaths(sdp)
		if got == "" {
			return
		}
		for _, p := range strings.Split(got, " ") {
			if !slices.Contains([]string{PathHost, PathPeerRefl, PathSrvRefl, PathRelay}, p) {
				t.Fatalf("CandidatePaths(%q) = %q: %q is no path", sdp, got, p)
			}
		}
	})
}

// A stage learnt of on another goroutine waits for the one before it, so
// that both are reported, in order; a wait ended by done reports nothing.
func TestProgressWaitKeepsTheOrder(t *testing.T) {
	var got []string
	p := NewProgress(func(s Stage) { got = append(got, s.Name) })
	p.Reach(StageAnswer, "")
	reported := make(chan bool)
	go func() {
		ok := p.Wait(StageChecking, nil)
		if ok {
			p.Reach(StageConnected, "host")
		}
		reported <- ok
	}()
	p.Reach(StageChecking, "host")
	if !<-reported {
		t.Fatal("Wait reported false with no done")
	}
	if want := []string{StageAnswer, StageChecking, StageConnected}; !slices.Equal(got, want) {
		t.Errorf("stages %q, want %q", got, want)
	}
	if !p.Wait(StageAnswer, nil) {
		t.Error("Wait for a stage already passed reported false")
	}
	done := make(chan struct{})
	close(done)
	if p.Wait(StageChannelsOpen, done) {
		t.Error("Wait ended by done reported true")
	}
}
