package datachan

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxAnswerBytes caps the answer a client reads.
const MaxAnswerBytes = 64 << 10

// MaxRetryAfter is the longest Retry-After a client honours; a longer one
// is taken as a plain refusal.
const MaxRetryAfter = 60 * time.Second

// SDPMessage is the JSON body of the signalling exchange. Version is the
// version of the application's protocol an offer speaks, which the
// application numbers from 1 and a server checks; it is 0 in an answer,
// and an offer without one is taken as version 1.
type SDPMessage struct {
	Type    string `json:"type"`
	SDP     string `json:"sdp"`
	Version int    `json:"version,omitempty"`
}

// ErrNotAnswer is wrapped by [Response] for a 200 whose body is not an
// answer.
var ErrNotAnswer = errors.New("response is not an answer")

// OfferBody returns the body a client posts: the JSON offer of sdp in
// version of the application's protocol (0 names none, which a server takes
// as version 1).
func OfferBody(sdp string, version int) []byte {
	b, err := json.Marshal(SDPMessage{Type: "offer", SDP: sdp, Version: version})
	if err != nil {
		panic(err) // a struct of strings and an int always marshals
	}
	return b
}

// AnswerSDP reads a 200 response's body and returns the answer's SDP,
// unchecked: the caller's WebRTC stack parses it.
func AnswerSDP(body []byte) (string, error) {
	var m SDPMessage
	if err := json.Unmarshal(body, &m); err != nil || m.Type != "answer" || m.SDP == "" {
		return "", ErrNotAnswer
	}
	return m.SDP, nil
}

// RetryLater is a refusal that says when to try again (429 or 503 with a
// Retry-After of 1 to 60 seconds).
type RetryLater struct {
	After time.Duration
	Err   error
}

func (r *RetryLater) Error() string { return r.Err.Error() }
func (r *RetryLater) Unwrap() error { return r.Err }

// Refused is a server's refusal of an offer: its status code, with the
// error that says it (wrapping [ErrSignalling]). Dial's errors wrap one
// when the server answered with an error status: errors.As finds the code
// (401 without a join token, 403 with a bad one, 429, 503, ...).
type Refused struct {
	Status int
	// Reason is the server's short reason ("server full", "token
	// expired"), as it sent it, cut to 200 bytes.
	Reason string
	Err    error
}

func (r *Refused) Error() string { return r.Err.Error() }
func (r *Refused) Unwrap() error { return r.Err }

// Response turns the server's reply to an offer into the answer's SDP or an
// error wrapping [ErrSignalling]. status is the status code and statusLine
// the status as shown in errors ("503 Service Unavailable"); retryAfter is
// the Retry-After header ("" if none); body is at most [MaxAnswerBytes] of
// the reply. A 429 or 503 with a usable Retry-After gives a [*RetryLater].
func Response(status int, statusLine, retryAfter string, body []byte) (string, error) {
	if status != 200 {
		reason := Shorten(strings.TrimSpace(string(body)), 200)
		var err error = &Refused{Status: status, Reason: reason, Err: fmt.Errorf("%w: %s: %s", ErrSignalling, statusLine, reason)}
		if status == 429 || status == 503 {
			if secs, perr := strconv.Atoi(retryAfter); perr == nil && secs > 0 && time.Duration(secs)*time.Second <= MaxRetryAfter {
				return "", &RetryLater{After: time.Duration(secs) * time.Second, Err: err}
			}
		}
		return "", err
	}
	sdp, err := AnswerSDP(body)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrSignalling, err)
	}
	return sdp, nil
}

// Exchange calls post (which posts the offer once and returns the answer's
// SDP or an error, as [Response] does) until it gets an answer or a final
// refusal. While the server answers 429 or 503 with a Retry-After (too many
// offers, too many players connecting at once), it waits that long and asks
// again, until ctx ends, telling onRetry (if not nil) before each wait.
func Exchange(ctx context.Context, post func(context.Context) (string, error), onRetry func(time.Duration, error)) (string, error) {
	for {
		answer, err := post(ctx)
		var later *RetryLater
		if err == nil || !errors.As(err, &later) {
			return answer, err
		}
		wait := later.After
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return "", err // no time left to be let in
		}
		if onRetry != nil {
			onRetry(wait, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", fmt.Errorf("%w (waiting to retry: %w)", err, ctx.Err())
		case <-t.C:
		}
	}
}

// Shorten cuts s to at most n bytes on a rune boundary, marking the cut.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
