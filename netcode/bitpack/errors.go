package bitpack

import "errors"

var (
	// ErrShort is returned when a read needs more bits than remain.
	ErrShort = errors.New("bitpack: read past end of input")
	// ErrCode is returned when an Exp-Golomb code is longer than any 32-bit value needs.
	ErrCode = errors.New("bitpack: malformed variable-length code")
)

// ErrTable is returned for codeword lengths that do not make a usable prefix code.
var ErrTable = errors.New("bitpack: invalid code table")
