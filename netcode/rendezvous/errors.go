package rendezvous

import "errors"

var (
	// ErrBadMessage is a message that breaks the wire's rules or limits.
	ErrBadMessage = errors.New("rendezvous: bad message")
	// ErrBadURL is a rendezvous URL Host cannot use.
	ErrBadURL = errors.New("rendezvous: bad URL")
	// ErrNoHandler is a HostConfig without a Handler.
	ErrNoHandler = errors.New("rendezvous: no handler")
	// ErrNoWelcome is a rendezvous whose first message was not a welcome.
	ErrNoWelcome = errors.New("rendezvous: no welcome")
)
