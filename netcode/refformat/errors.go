package refformat

import "errors"

var (
	// ErrShort is returned when a packet ends before what it announces.
	ErrShort = errors.New("refformat: packet too short")
	// ErrTrailing is returned when bytes follow the end of a packet's content.
	ErrTrailing = errors.New("refformat: trailing bytes")
	// ErrMalformed is returned for a packet whose content is invalid or not canonical.
	ErrMalformed = errors.New("refformat: malformed packet")
	// ErrRange is returned when a value does not fit its field's width.
	ErrRange = errors.New("refformat: value out of range")
	// ErrTooMany is returned when a packet claims more entities than the output holds.
	ErrTooMany = errors.New("refformat: too many entities")
	// ErrBaseline is returned when a delta cannot apply to the baseline given:
	// none given, another entity count, another layout, or ids other than 0..N-1.
	ErrBaseline = errors.New("refformat: baseline mismatch")
	// ErrSchema is returned when a snapshot's schema does not match the format's.
	ErrSchema = errors.New("refformat: schema mismatch")
)
