package snapshot

import (
	"fmt"
	"slices"
)

// EntityID names an entity: the slot it occupies and the generation of that slot.
// A slot that is freed and reused gets a new generation.
type EntityID struct {
	Index      uint16
	Generation uint16
}

func (id EntityID) String() string { return fmt.Sprintf("%d/%d", id.Index, id.Generation) }

// Snapshot is the quantized state of every entity at one tick, as flat arrays.
// Entities are kept sorted by slot index, one entity per slot.
// The zero Snapshot is not usable; make one with New.
type Snapshot struct {
	schema *Schema
	ids    []EntityID
	values []uint32 // len(ids) rows of NumFields values
}

// initialCapacity is how many entities a new snapshot has room for before it
// grows. Storage grows to the largest population the snapshot has held and
// is then reused, so a snapshot in steady use allocates nothing, and one that
// holds a client's view of a hundred entities does not carry room for every
// entity the schema allows.
const initialCapacity = 64

// New returns an empty snapshot of schema s.
func New(s *Schema) *Snapshot {
	n := min(s.MaxEntities, initialCapacity)
	return &Snapshot{
		schema: s,
		ids:    make([]EntityID, 0, n),
		values: make([]uint32, 0, n*len(s.Fields)),
	}
}

// Schema returns the snapshot's schema.
func (s *Snapshot) Schema() *Schema { return s.schema }

// Len returns the number of entities.
func (s *Snapshot) Len() int { return len(s.ids) }

// Grow makes room for n more entities (at most MaxEntities in all) than
// the snapshot holds, so that appending them allocates nothing.
func (s *Snapshot) Grow(n int) {
	n = min(n, s.schema.MaxEntities-len(s.ids))
	if n <= 0 {
		return
	}
	s.ids = slices.Grow(s.ids, n)
	s.values = slices.Grow(s.values, n*len(s.schema.Fields))
}

// Reset empties the snapshot, keeping its storage.
func (s *Snapshot) Reset() {
	s.ids = s.ids[:0]
	s.values = s.values[:0]
}

// ID returns the id of the i-th entity in slot order.
func (s *Snapshot) ID(i int) EntityID { return s.ids[i] }

// IDs returns the ids in slot order. The slice is the snapshot's own: do not modify it.
func (s *Snapshot) IDs() []EntityID { return s.ids }

// Row returns the field values of the i-th entity. The slice aliases the
// snapshot; writing it changes the entity (values must fit their fields).
func (s *Snapshot) Row(i int) []uint32 {
	n := len(s.schema.Fields)
	return s.values[i*n : i*n+n : i*n+n]
}

// Value returns field f of the i-th entity.
func (s *Snapshot) Value(i, f int) uint32 { return s.values[i*len(s.schema.Fields)+f] }

// Find returns the position of the entity in slot index, if present.
func (s *Snapshot) Find(index uint16) (int, bool) {
	return slices.BinarySearchFunc(s.ids, index, func(id EntityID, t uint16) int { return int(id.Index) - int(t) })
}

// Append adds an entity after all others. Its slot must be greater than the
// last one's, and values must hold one value per field, each within its width.
func (s *Snapshot) Append(id EntityID, values ...uint32) error {
	if err := s.checkAppend(id, values); err != nil {
		return err
	}
	s.ids = append(s.ids, id)
	s.values = append(s.values, values...)
	return nil
}

func (s *Snapshot) checkAppend(id EntityID, values []uint32) error {
	if len(s.ids) >= s.schema.MaxEntities {
		return ErrFull
	}
	if len(values) != len(s.schema.Fields) {
		return fmt.Errorf("%w: %d values for %d fields", ErrRange, len(values), len(s.schema.Fields))
	}
	if int(id.Index) >= 1<<s.schema.IndexBits || id.Generation > s.schema.MaxGeneration() {
		return fmt.Errorf("%w: id %v", ErrRange, id)
	}
	if n := len(s.ids); n > 0 && s.ids[n-1].Index >= id.Index {
		return fmt.Errorf("%w: %v after %v", ErrOrder, id, s.ids[n-1])
	}
	for f, v := range values {
		if v > s.schema.Fields[f].Max() {
			return fmt.Errorf("%w: %s = %d (max %d)", ErrRange, s.schema.Fields[f].Name, v, s.schema.Fields[f].Max())
		}
	}
	return nil
}

// AppendUnchecked adds an entity without validating it and returns its row for
// the caller to fill. Decoders use it after checking order and room themselves.
// The caller must keep slots increasing and values within their widths.
func (s *Snapshot) AppendUnchecked(id EntityID) []uint32 {
	n := len(s.schema.Fields)
	s.ids = append(s.ids, id)
	if len(s.values)+n > cap(s.values) {
		s.values = append(s.values[:cap(s.values)], make([]uint32, cap(s.values)+n)...)[:len(s.values)]
	}
	s.values = s.values[:len(s.values)+n]
	return s.values[len(s.values)-n:]
}

// Extend adds n entities after all others and returns their ids and their
// values (n rows of NumFields values) for the caller to write; what they
// hold until then is unspecified. Like AppendUnchecked it validates
// nothing: the caller must keep slots increasing and values within their
// widths, and write every id and value it added.
func (s *Snapshot) Extend(n int) ([]EntityID, []uint32) {
	nf := len(s.schema.Fields)
	li, lv := len(s.ids), len(s.values)
	s.ids = slices.Grow(s.ids, n)[:li+n]
	s.values = slices.Grow(s.values, n*nf)[:lv+n*nf]
	return s.ids[li:], s.values[lv:]
}

// Full reports whether the snapshot holds MaxEntities entities.
func (s *Snapshot) Full() bool { return len(s.ids) >= s.schema.MaxEntities }

// CopyFrom makes s an exact copy of o (same schema), allocating only to
// grow beyond the largest population s has held.
func (s *Snapshot) CopyFrom(o *Snapshot) {
	s.schema = o.schema
	s.ids = append(s.ids[:0], o.ids...)
	s.values = append(s.values[:0], o.values...)
}

// Equal reports whether both snapshots hold the same entities with the same values.
func (s *Snapshot) Equal(o *Snapshot) bool {
	return slices.Equal(s.ids, o.ids) && slices.Equal(s.values, o.values)
}

// Diff counts the entities that differ between s and o: present in one only,
// with another generation, or with any other value.
func (s *Snapshot) Diff(o *Snapshot) int {
	n := 0
	i, j := 0, 0
	for i < len(s.ids) || j < len(o.ids) {
		switch {
		case j >= len(o.ids) || (i < len(s.ids) && s.ids[i].Index < o.ids[j].Index):
			n++
			i++
		case i >= len(s.ids) || o.ids[j].Index < s.ids[i].Index:
			n++
			j++
		default:
			if s.ids[i] != o.ids[j] || !slices.Equal(s.Row(i), o.Row(j)) {
				n++
			}
			i++
			j++
		}
	}
	return n
}
