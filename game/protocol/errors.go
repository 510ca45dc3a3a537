package protocol

import "errors"

var (
	// ErrRecord is returned (wrapped) for a malformed record payload.
	ErrRecord = errors.New("protocol: malformed record")
	// ErrEventBody is returned (wrapped) for an event body that is not well
	// formed for its kind: cut short, a number over its range or not in
	// shortest form, a text over its limit, bytes left over.
	ErrEventBody = errors.New("protocol: malformed event body")
)
