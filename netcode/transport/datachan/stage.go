package datachan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// The stages of a dial, in the order they are reached (Stage.Name). A
// dial reports each at most once; a later one is never followed by an
// earlier one.
const (
	// StageICEServers: the server's STUN and TURN servers were asked for
	// (GET /ice); Detail says how many came.
	StageICEServers = "ice servers"
	// StageOfferSent: the offer was posted to the signalling endpoint.
	StageOfferSent = "offer sent"
	// StageAnswer: the server answered the offer.
	StageAnswer = "answer received"
	// StageChecking: ICE connectivity checks run; Detail names the paths
	// being tried (the candidate types of the answer, as PathName names
	// them: host, srflx, prflx, relay).
	StageChecking = "ice checks"
	// StageConnected: ICE found a working pair; Detail names its path
	// (PathName).
	StageConnected = "ice connected"
	// StageChannelsOpen: DTLS and SCTP are up and all four data channels
	// are open: the dial returns.
	StageChannelsOpen = "channels open"
)

// Stages lists the dial's stages in order.
func Stages() []string {
	return []string{StageICEServers, StageOfferSent, StageAnswer, StageChecking, StageConnected, StageChannelsOpen}
}

// Stage is one stage of a dial reached, for a connecting screen.
type Stage struct {
	Name   string        // one of Stages() (or a stage of the application's, like its first snapshot)
	Detail string        // what more there is to say: the path tried or taken, the servers fetched
	At     time.Duration // since the dial started
}

// Progress tracks the stages a dial reached and reports each once, in
// order, to a callback; it also turns the dial's failure into an error
// that names the stage it failed at (ErrUnreachable, ErrICEFailed,
// ErrChannelsNotOpen). Its methods are safe from any goroutine.
type Progress struct {
	start time.Time
	on    func(Stage)

	mu      sync.Mutex
	reached int // index into Stages of the latest stage reached; -1: none
	// waits[i], made by Wait, is closed once stage i (or a later one) is
	// reached.
	waits []chan struct{}
}

// NewProgress starts tracking a dial that starts now, reporting to on (nil:
// nowhere).
func NewProgress(on func(Stage)) *Progress {
	return &Progress{start: time.Now(), on: on, reached: -1, waits: make([]chan struct{}, len(Stages()))}
}

// Reach reports stage name with detail unless that stage or a later one
// was reached already. The callback runs with the lock held, so that
// stages arrive in order.
func (p *Progress) Reach(name, detail string) {
	i := slices.Index(Stages(), name)
	p.mu.Lock()
	defer p.mu.Unlock()
	if i <= p.reached {
		return
	}
	p.reached = i
	for j := range p.waits[:i+1] {
		if p.waits[j] != nil {
			close(p.waits[j])
			p.waits[j] = nil
		}
	}
	if p.on != nil {
		p.on(Stage{Name: name, Detail: detail, At: time.Since(p.start)})
	}
}

// Wait blocks until stage name (or a later one) is reached, and reports
// true; or until done is closed first, and reports false. A stage a dial
// learns of on another goroutine (ICE connected, from the ICE agent) waits
// so for the one before it (the checks, which the dial reports once the
// answer is set), or Reach would drop the earlier one as late.
func (p *Progress) Wait(name string, done <-chan struct{}) bool {
	i := slices.Index(Stages(), name)
	p.mu.Lock()
	if i <= p.reached {
		p.mu.Unlock()
		return true
	}
	if p.waits[i] == nil {
		p.waits[i] = make(chan struct{})
	}
	w := p.waits[i]
	p.mu.Unlock()
	select {
	case <-w:
		return true
	case <-done:
		return false
	}
}

// Reached reports whether stage name (or a later one) was reached.
func (p *Progress) Reached(name string) bool {
	i := slices.Index(Stages(), name)
	p.mu.Lock()
	defer p.mu.Unlock()
	return i >= 0 && i <= p.reached
}

// AfterAnswer wraps err, a failure after the server answered, with the
// sentinel of the stage that did not come: ErrICEFailed before ICE
// connected, ErrChannelsNotOpen after.
func (p *Progress) AfterAnswer(err error) error {
	if p.Reached(StageConnected) {
		return fmt.Errorf("%w: %w", ErrChannelsNotOpen, err)
	}
	return fmt.Errorf("%w: %w", ErrICEFailed, err)
}

// Posting wraps err, the failure of posting the offer, with
// ErrUnreachable when no reply came at all (no connection, no response in
// time); a server's refusal ([Refused]) is returned as it is.
func Posting(err error) error {
	var refused *Refused
	if err == nil || errors.As(err, &refused) || errors.Is(err, ErrNotAnswer) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrUnreachable, err)
}

// CandidatePaths names the paths an SDP's candidates offer, farthest last
// ("host", "host srflx", "relay"): each a=candidate line's type.
func CandidatePaths(sdp string) string {
	var seen []string
	for line := range strings.Lines(sdp) {
		if !strings.HasPrefix(line, "a=candidate:") {
			continue
		}
		f := strings.Fields(line)
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "typ" && !slices.Contains(seen, f[i+1]) {
				seen = append(seen, f[i+1])
			}
		}
	}
	order := []string{PathHost, PathPeerRefl, PathSrvRefl, PathRelay}
	var out []string
	for _, t := range order {
		if slices.Contains(seen, t) {
			out = append(out, t)
		}
	}
	return strings.Join(out, " ")
}
