package client

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/sightline-game/sightline/netcode/transport/datachan"
)

// Failure is what a player reads when a join fails: the likely cause and
// what to try, each a short sentence.
type Failure struct {
	Cause string
	Try   string
}

// String is the cause and what to try, on one line.
func (f Failure) String() string {
	if f.Try == "" {
		return f.Cause
	}
	return f.Cause + " " + f.Try
}

// Explain says why joining the server at target (its address as the
// player gave it) failed with err, and what to try, from the sentinel
// errors the join wraps.
func Explain(err error, target string) Failure {
	var refused *datachan.Refused
	switch {
	case err == nil:
		return Failure{}
	case errors.Is(err, context.Canceled):
		return Failure{Cause: "Cancelled."}
	case errors.As(err, &refused):
		return explainRefusal(refused)
	case errors.Is(err, ErrUnreachable):
		return Failure{
			Cause: fmt.Sprintf("Cannot reach the server at %s.", target),
			Try:   "Check the address and port (-join HOST:PORT, the server's -addr, 8080 unless set) and that the server is running.",
		}
	case errors.Is(err, ErrICEFailed):
		return Failure{
			Cause: "The server answered, but no network path to it worked (ICE failed): UDP is likely blocked.",
			Try:   "Open UDP port 8443 (or the server's -udp-port); a server behind NAT or in a cloud needs -public-ip; or join through a relay with an invite link.",
		}
	case errors.Is(err, ErrChannelsNotOpen):
		return Failure{
			Cause: "A network path worked, but the data channels did not open.",
			Try:   "Retry; if it keeps failing, join through a relay with an invite link.",
		}
	case errors.Is(err, ErrNoSnapshot):
		return Failure{
			Cause: "Connected, but no snapshot came from the server.",
			Try:   "Retry; the server may be overloaded: its host can look at its log.",
		}
	case errors.Is(err, context.DeadlineExceeded):
		return Failure{Cause: "The join took too long.", Try: "Retry."}
	}
	return Failure{Cause: "The join failed: " + innermost(err) + "."}
}

// explainRefusal says what a server's refusal of the offer means.
func explainRefusal(r *datachan.Refused) Failure {
	reason := r.Reason
	if reason == "" {
		reason = "status " + strconv.Itoa(r.Status)
	}
	// The statuses by number: net/http's names would link the HTTP stack
	// (1.7 MB of it) into the browser build, which speaks through fetch.
	const (
		badRequest         = 400
		unauthorized       = 401
		forbidden          = 403
		notFound           = 404
		serviceUnavailable = 503
	)
	switch {
	case r.Status == serviceUnavailable && strings.Contains(reason, "full"):
		return Failure{Cause: "The match is full.", Try: "Try again in a moment, or choose another match."}
	case r.Status == unauthorized:
		return Failure{Cause: "The server admits invited players only (" + reason + ").", Try: "Join with the invite link or the -token the host gave you."}
	case r.Status == forbidden:
		return Failure{Cause: "The server refused your join token (" + reason + ").", Try: "Ask the host for a new invite: a token expires, and admits one join."}
	case r.Status == badRequest && strings.Contains(reason, "protocol version"):
		return Failure{Cause: "The server runs another version of the game (" + reason + ").", Try: "Play with the same version as the server."}
	case r.Status == notFound:
		return Failure{Cause: "The server has no such match (" + reason + ").", Try: "Choose a match from its list, or join without naming one."}
	}
	return Failure{Cause: fmt.Sprintf("The server refused the join (%d: %s).", r.Status, reason), Try: "Retry in a moment."}
}

// innermost is the innermost error's text that says something.
func innermost(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil || next.Error() == "" {
			return err.Error()
		}
		err = next
	}
}
