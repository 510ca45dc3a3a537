package snapshot

import "errors"

var (
	// ErrFull is returned when a snapshot already holds MaxEntities entities.
	ErrFull = errors.New("snapshot: full")
	// ErrOrder is returned when entities are not appended in increasing slot order.
	ErrOrder = errors.New("snapshot: entity slots must increase")
	// ErrRange is returned when a value does not fit its field's width, or an id does not fit the schema.
	ErrRange = errors.New("snapshot: value out of range")
	// ErrSchema is returned for an invalid schema.
	ErrSchema = errors.New("snapshot: invalid schema")
)
