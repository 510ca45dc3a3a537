package jointoken

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
)

// The Checker's defaults.
const (
	// DefaultMaxTTL is how far ahead a token may expire.
	DefaultMaxTTL = 10 * time.Minute
	// DefaultMaxUsed is how many used ids a Checker remembers.
	DefaultMaxUsed = 1 << 16
)

// CheckerConfig sets up a Checker. Zero fields take the defaults noted.
type CheckerConfig struct {
	// Key opens the tokens.
	Key Key
	// Server is this server's address as tokens name it (host:port, the
	// address a fleet hands its players). A token naming another server
	// is refused; so is any token naming a server when Server is empty.
	Server string
	// MaxTTL refuses tokens that expire further ahead than this, which
	// bounds how long a used id is remembered (default DefaultMaxTTL).
	MaxTTL time.Duration
	// MaxUsed bounds the used ids remembered (default DefaultMaxUsed, about 2 MB);
	// when that many unexpired ids are held, new tokens get ErrFull until
	// some expire.
	MaxUsed int
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Checker admits tokens for one server, each once.
type Checker struct {
	cfg CheckerConfig

	mu   sync.Mutex
	used map[[idSize]byte]time.Time // accepted ids, until they expire
	held map[[idSize]byte]struct{}  // of those, the ids Reserve holds, not yet committed
}

// NewChecker returns a Checker of cfg.
func NewChecker(cfg CheckerConfig) *Checker {
	if cfg.MaxTTL <= 0 {
		cfg.MaxTTL = DefaultMaxTTL
	}
	if cfg.MaxUsed <= 0 {
		cfg.MaxUsed = DefaultMaxUsed
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Checker{cfg: cfg, used: make(map[[idSize]byte]time.Time), held: make(map[[idSize]byte]struct{})}
}

// Check opens token and admits it for the match called match (empty: the
// one the token names, or any) and returns its claims, with Match set to
// the match it joins. A token is admitted once: its id is remembered until
// it expires.
func (c *Checker) Check(token, match string) (Claims, error) {
	return c.check(token, match, true)
}

// Reserve checks token as Check does and holds it for the join it comes
// with: the token is then refused to any other join (ErrInUse) until
// Commit spends it, once the join has succeeded, or Release frees it, if
// the join failed after the check (no room, a broken offer, a peer that
// never connected), so that the player's retry is admitted.
func (c *Checker) Reserve(token, match string) (Claims, error) {
	cl, err := c.check(token, match, true)
	if err != nil {
		return Claims{}, err
	}
	c.mu.Lock()
	c.held[cl.ID] = struct{}{}
	c.mu.Unlock()
	return cl, nil
}

// Commit spends the token Reserve holds with id.
func (c *Checker) Commit(id [idSize]byte) {
	c.mu.Lock()
	delete(c.held, id)
	c.mu.Unlock()
}

// Release frees the token Reserve holds with id, as if it was never
// checked. A token already committed stays spent.
func (c *Checker) Release(id [idSize]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.held[id]; ok {
		delete(c.held, id)
		delete(c.used, id)
	}
}

// Verify checks token as Check does, a used one included, but does not
// spend it: for what a player may ask before joining with the token (the
// ICE servers it gathers with), so that the join itself still counts once.
func (c *Checker) Verify(token, match string) (Claims, error) {
	return c.check(token, match, false)
}

// check opens and checks token for match, and remembers its id if spend.
func (c *Checker) check(token, match string, spend bool) (Claims, error) {
	cl, err := Open(c.cfg.Key, token)
	if err != nil {
		return Claims{}, err
	}
	now := c.cfg.Now()
	switch {
	case !now.Before(cl.Expires):
		return Claims{}, fmt.Errorf("%w %v ago", ErrExpired, now.Sub(cl.Expires).Round(time.Second))
	case cl.Expires.Sub(now) > c.cfg.MaxTTL:
		return Claims{}, fmt.Errorf("%w: expires in %v, at most %v", ErrTooLong, cl.Expires.Sub(now).Round(time.Second), c.cfg.MaxTTL)
	case cl.Server != "" && cl.Server != c.cfg.Server:
		return Claims{}, fmt.Errorf("%w (%s)", ErrWrongServer, cl.Server)
	case cl.Match != "" && match != "" && cl.Match != match:
		return Claims{}, fmt.Errorf("%w (%s)", ErrWrongMatch, cl.Match)
	}
	if cl.Match == "" {
		cl.Match = match
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if until, ok := c.used[cl.ID]; ok && now.Before(until) {
		if _, held := c.held[cl.ID]; held {
			return Claims{}, ErrInUse
		}
		return Claims{}, ErrReplayed
	}
	if !spend {
		return cl, nil
	}
	if len(c.used) >= c.cfg.MaxUsed {
		c.forget(now)
		if len(c.used) >= c.cfg.MaxUsed {
			return Claims{}, ErrFull
		}
	}
	c.used[cl.ID] = cl.Expires
	return cl, nil
}

// forget drops the ids of tokens that have expired.
func (c *Checker) forget(now time.Time) {
	for id, until := range c.used {
		if !now.Before(until) {
			delete(c.used, id)
			delete(c.held, id)
		}
	}
}

// Used returns how many used ids the Checker remembers.
func (c *Checker) Used() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.used)
}

// Status is the HTTP status a server answers a refusal err of Check with:
// 401 for a missing token, 503 when full or held by a join under way, 403
// otherwise.
func Status(err error) int {
	switch {
	case err == nil:
		return http.StatusOK
	case errors.Is(err, ErrMissing):
		return http.StatusUnauthorized
	case errors.Is(err, ErrFull), errors.Is(err, ErrInUse):
		return http.StatusServiceUnavailable
	}
	return http.StatusForbidden
}

// FromRequest returns the token an offer carries: the credentials of its
// "Authorization: Bearer TOKEN" header, or "".
func FromRequest(r *http.Request) string {
	const prefix = "Bearer "
	h := r.Header.Get("Authorization")
	if len(h) > len(prefix) && strings.EqualFold(h[:len(prefix)], prefix) {
		return strings.TrimSpace(h[len(prefix):])
	}
	return ""
}

// Reason names the cause of a refusal err of Check in a few words without
// spaces, one of a fixed set (for a metric's label): missing, malformed,
// version, forged, expired, too_long, wrong_server, wrong_match, replayed,
// in_use, full, or other.
func Reason(err error) string {
	for _, r := range reasons {
		if errors.Is(err, r.err) {
			return r.name
		}
	}
	return "other"
}

// Reasons returns every name Reason gives, "other" last.
func Reasons() []string {
	names := make([]string, 0, len(reasons)+1)
	for _, r := range reasons {
		names = append(names, r.name)
	}
	return append(names, "other")
}

var reasons = [...]struct {
	err  error
	name string
}{
	{ErrMissing, "missing"}, {ErrMalformed, "malformed"}, {ErrVersion, "version"},
	{ErrForged, "forged"}, {ErrExpired, "expired"}, {ErrTooLong, "too_long"},
	{ErrWrongServer, "wrong_server"}, {ErrWrongMatch, "wrong_match"},
	{ErrReplayed, "replayed"}, {ErrInUse, "in_use"}, {ErrFull, "full"},
}
