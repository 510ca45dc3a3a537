package snapshot

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
)

// Field is one quantized value every entity carries.
type Field struct {
	// Name is for people: logs, tables and error messages.
	Name string
	// Bits is the width of the field's values: 1 to 32.
	Bits uint8
	// Code, if not nil, is the prefix code a delta writes the field's
	// residuals with (the difference of a changed value from its prediction,
	// zigzagged): one symbol per bit length of the residual, 0 to Bits, each
	// with a codeword. Trained on the game's traffic, it is part of the
	// protocol. nil: a generic code (see package delta).
	Code *bitpack.Code
	// NewCode, if not nil, is the prefix code a delta writes a new
	// entity's value of the field with: its difference from a guess the
	// receiver computes too (the entity before it, or the one that made it:
	// see Spawner), zigzagged, one symbol per bit length like Code. A delta
	// codes its new entities this way only if every field has a NewCode;
	// otherwise it writes them at full width.
	NewCode *bitpack.Code
	// SpawnCode is the code of a new entity's value of the field when the
	// entity is coded as made by another (see Spawner), whose guesses are
	// far closer than the entity before it. nil: a made entity does not
	// write the field, which must be the Spawner's guess (an entity whose
	// value differs is not coded as made).
	SpawnCode *bitpack.Code
}

// Max returns the largest value the field can hold.
func (f Field) Max() uint32 { return uint32(1<<f.Bits - 1) }

// Schema describes the entities of a world: their fields and how ids are numbered.
type Schema struct {
	// Fields are the values each entity carries, in wire order.
	Fields []Field
	// IndexBits is the width of an entity's slot index; slots run from 0 to 1<<IndexBits - 1.
	IndexBits uint8
	// GenerationBits is the width of a slot's generation counter (0 to 16).
	GenerationBits uint8
	// MaxEntities bounds how many entities a snapshot holds; decoders never
	// accept more, whatever a packet claims.
	MaxEntities int
	// MaskCode, if not nil, is the prefix code a delta writes each changed
	// entity's field mask with: one symbol per mask (1<<len(Fields) of
	// them, at most 8 fields), every mask but 0 with a codeword. Trained on
	// the game's traffic, it is part of the protocol. nil: a generic coding
	// (see package delta).
	MaskCode *bitpack.Code
	// Check, if true, ends every delta with a check byte over its bytes
	// (see package delta): a delta damaged on the way, which entropy-coded
	// bits would often still let parse, is refused instead of decoded into
	// a wrong state. It costs a byte a delta; a protocol whose datagrams may
	// arrive cut or damaged wants it.
	Check bool
	// Predictor, if not nil, predicts a changed entity's row from its
	// baseline row; a delta codes each changed field as its difference from
	// the prediction. nil predicts the baseline row itself. Both ends must
	// use the same one: it is part of the protocol.
	Predictor Predictor
	// Spawner, if not nil, guesses a new entity's row from an entity that
	// may have made it (a shot from its shooter); used only with the
	// fields' NewCodes. Both ends must use the same one: it is part of the
	// protocol.
	Spawner Spawner
	// Contexts, if not empty, are the codes of changed entities per
	// context, when the Predictor is a Contexter (one entry per context;
	// ignored otherwise, and for a schema whose fields or masks are not all
	// coded: see package delta):
	// an entity of context k writes its mask with Contexts[k].Mask and its
	// residuals with Contexts[k].Fields, each nil code standing for the
	// schema's (MaskCode, Field.Code). Trained on the game's traffic, they
	// are part of the protocol.
	Contexts []Codes
}

// Codes are the codes of one context's changed entities (see
// Schema.Contexts): the field mask's and, per field in schema order, the
// residuals'. A nil code, or a missing field, stands for the schema's.
type Codes struct {
	Mask   *bitpack.Code
	Fields []*bitpack.Code
}

// NewSchema checks and returns a schema. maxEntities of 0 means one entity per slot.
func NewSchema(indexBits, generationBits uint8, maxEntities int, fields ...Field) (*Schema, error) {
	s := &Schema{Fields: fields, IndexBits: indexBits, GenerationBits: generationBits, MaxEntities: maxEntities}
	if s.MaxEntities == 0 {
		s.MaxEntities = 1 << indexBits
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// MustSchema is NewSchema for schemas written in code; it panics on an invalid schema.
func MustSchema(indexBits, generationBits uint8, maxEntities int, fields ...Field) *Schema {
	s, err := NewSchema(indexBits, generationBits, maxEntities, fields...)
	if err != nil {
		panic(err)
	}
	return s
}

// Validate reports whether the schema is usable.
func (s *Schema) Validate() error {
	if len(s.Fields) == 0 || len(s.Fields) > 32 {
		return fmt.Errorf("%w: %d fields (want 1 to 32)", ErrSchema, len(s.Fields))
	}
	for i, f := range s.Fields {
		if f.Bits == 0 || f.Bits > 32 {
			return fmt.Errorf("%w: field %d (%s) has %d bits (want 1 to 32)", ErrSchema, i, f.Name, f.Bits)
		}
		for _, code := range [3]*bitpack.Code{f.Code, f.NewCode, f.SpawnCode} {
			if code == nil {
				continue
			}
			if code.Symbols() != int(f.Bits)+1 {
				return fmt.Errorf("%w: field %d (%s): a code of %d symbols for %d bits (want %d)", ErrSchema, i, f.Name, code.Symbols(), f.Bits, f.Bits+1)
			}
			for sym := range code.Symbols() {
				if code.Len(sym) == 0 {
					return fmt.Errorf("%w: field %d (%s): bit length %d has no codeword", ErrSchema, i, f.Name, sym)
				}
			}
		}
	}
	if c := s.MaskCode; c != nil {
		if len(s.Fields) > 8 || c.Symbols() != 1<<len(s.Fields) {
			return fmt.Errorf("%w: a mask code of %d symbols for %d fields (want 1<<fields, at most 8 fields)", ErrSchema, c.Symbols(), len(s.Fields))
		}
		for m := 1; m < c.Symbols(); m++ {
			if c.Len(m) == 0 {
				return fmt.Errorf("%w: mask %#x has no codeword", ErrSchema, m)
			}
		}
	}
	if err := s.validateContexts(); err != nil {
		return err
	}
	if s.IndexBits == 0 || s.IndexBits > 16 {
		return fmt.Errorf("%w: %d index bits (want 1 to 16)", ErrSchema, s.IndexBits)
	}
	if s.GenerationBits > 16 {
		return fmt.Errorf("%w: %d generation bits (want 0 to 16)", ErrSchema, s.GenerationBits)
	}
	if s.MaxEntities <= 0 || s.MaxEntities > 1<<s.IndexBits {
		return fmt.Errorf("%w: MaxEntities %d (want 1 to %d)", ErrSchema, s.MaxEntities, 1<<s.IndexBits)
	}
	return nil
}

// NumFields returns the number of fields per entity.
func (s *Schema) NumFields() int { return len(s.Fields) }

// EntityBits returns the bits of one entity's field values at full width.
func (s *Schema) EntityBits() int {
	n := 0
	for _, f := range s.Fields {
		n += int(f.Bits)
	}
	return n
}

// MaxGeneration returns the largest generation the schema can carry.
func (s *Schema) MaxGeneration() uint16 { return uint16(1<<s.GenerationBits - 1) }

// SameLayout reports whether o describes the same wire layout as s: the
// same field widths and id widths (names, MaxEntities, codes and predictor
// may differ: they say how a delta is coded, not what a snapshot holds).
func (s *Schema) SameLayout(o *Schema) bool {
	if s == o {
		return true
	}
	if s.IndexBits != o.IndexBits || s.GenerationBits != o.GenerationBits || len(s.Fields) != len(o.Fields) {
		return false
	}
	for i := range s.Fields {
		if s.Fields[i].Bits != o.Fields[i].Bits {
			return false
		}
	}
	return true
}

// validateContexts checks the context codes against the fields and the
// Predictor.
func (s *Schema) validateContexts() error {
	if len(s.Contexts) == 0 {
		return nil
	}
	if len(s.Contexts) > 16 {
		return fmt.Errorf("%w: %d contexts (at most 16)", ErrSchema, len(s.Contexts))
	}
	if cx, ok := s.Predictor.(Contexter); ok && cx.Contexts() != len(s.Contexts) {
		return fmt.Errorf("%w: %d context codes for a Contexter of %d contexts", ErrSchema, len(s.Contexts), cx.Contexts())
	}
	for k, cc := range s.Contexts {
		if len(cc.Fields) > len(s.Fields) {
			return fmt.Errorf("%w: context %d has codes of %d fields", ErrSchema, k, len(cc.Fields))
		}
		for f, code := range cc.Fields {
			if code == nil {
				continue
			}
			if code.Symbols() != int(s.Fields[f].Bits)+1 {
				return fmt.Errorf("%w: context %d, field %d: a code of %d symbols for %d bits", ErrSchema, k, f, code.Symbols(), s.Fields[f].Bits)
			}
			for sym := range code.Symbols() {
				if code.Len(sym) == 0 {
					return fmt.Errorf("%w: context %d, field %d: bit length %d has no codeword", ErrSchema, k, f, sym)
				}
			}
		}
		if c := cc.Mask; c != nil {
			if len(s.Fields) > 8 || c.Symbols() != 1<<len(s.Fields) {
				return fmt.Errorf("%w: context %d: a mask code of %d symbols (want 1<<fields, at most 8 fields)", ErrSchema, k, c.Symbols())
			}
			for m := 1; m < c.Symbols(); m++ {
				if c.Len(m) == 0 {
					return fmt.Errorf("%w: context %d: mask %#x has no codeword", ErrSchema, k, m)
				}
			}
		}
	}
	return nil
}
