package delta

// Sizes says where the bits of a delta went.
type Sizes struct {
	Header    int // kind, tick and age
	Removed   int // the removed set
	New       int // the new entities: their ids and rows
	Changed   int // the changed set
	Coding    int // the packet's gamma orders and mask mode
	Masks     int // the changed entities' field masks
	Residuals int // the changed fields' values
	Padding   int // up to the last whole byte
	Check     int // the check byte, if the schema asks for one

	// How many entities the delta removed, added and changed.
	RemovedEntities, NewEntities, ChangedEntities int

	// Of New: the bits of the new entities' ids (slot gaps and
	// generations), and the bits of the rows coded as made by a maker
	// (the made bit, maker and age, and the residuals), with how many
	// such rows. NewIDs is 0 for a schema without new-entity codes,
	// whose new rows go with their ids.
	NewIDs, Made, MadeEntities int

	// ByContext splits the changed entities by the context of their
	// baseline row (snapshot.Contexter; all in 0 for a schema without
	// one): how many, and the bits of their masks and residuals. It is
	// empty for a schema with generic fields.
	ByContext [maxContexts]ContextSizes
}

// maxContexts is the most contexts a snapshot.Contexter has.
const maxContexts = 16

// ContextSizes is what the changed entities of one context took.
type ContextSizes struct {
	Entities, Bits int
}

// sections notes where, in bits from the start of the writer, each
// section of the last delta began (see the package doc, Packet layout),
// and how many bits its mask codewords took.
type sections struct {
	start    int // the packet: its header
	removed  int // the removed set
	new      int // the new entities' ids (and rows, without new-entity codes)
	changed  int // the changed set
	coding   int // the coding: generic gamma orders and mask mode
	changes  int // the changed entities' masks and residuals
	newRows  int // the new entities' rows, with new-entity codes
	end      int // the padding to a whole byte
	maskBits int // the bits of the changed entities' mask codewords, with a mask code
	made     int // the new entities coded as made by a maker
	madeBits int // the bits of their rows
	// byContext is Sizes.ByContext, counted as the changes are written.
	byContext [maxContexts]ContextSizes
}

// LastSizes returns where the bits of the last packet AppendDelta wrote
// went. It is for measuring, not for the hot path.
func (e *Encoder) LastSizes() Sizes {
	z := &e.sections
	s := Sizes{
		Header:  z.removed - z.start,
		Removed: z.new - z.removed,
		New:     z.changed - z.new + z.end - z.newRows,
		Changed: z.coding - z.changed,
		Coding:  z.changes - z.coding,
	}
	nf := len(e.t.bits)
	if z.newRows > z.changes {
		for _, ch := range e.changed {
			switch {
			case nf == 1:
			case e.t.maskEnc != nil && e.t.generic:
				s.Masks += int(e.t.maskEnc[ch.mask] >> 16)
			case e.t.maskEnc != nil: // per context: counted as written
				s.Masks = z.maskBits
			case !e.plan.maskMode:
				s.Masks += nf
			case ch.mask == e.plan.common:
				s.Masks++
			default:
				s.Masks += nf + 1
			}
		}
	}
	s.Residuals = z.newRows - z.changes - s.Masks
	s.Padding = (8 - z.end%8) % 8
	if e.t.check {
		s.Check = 8
	}
	s.RemovedEntities, s.NewEntities, s.ChangedEntities = len(e.removed), len(e.newIdx), len(e.changed)
	if e.t.spawnMode {
		s.NewIDs = z.changed - z.new
	}
	s.Made, s.MadeEntities = z.madeBits, z.made
	s.ByContext = z.byContext
	return s
}

// Bits returns the delta's length in bits: the sum of its sections.
func (s Sizes) Bits() int {
	return s.Header + s.Removed + s.New + s.Changed + s.Coding + s.Masks + s.Residuals + s.Padding + s.Check
}

// Add adds o's bits and counts to s.
func (s *Sizes) Add(o Sizes) {
	s.Header += o.Header
	s.Removed += o.Removed
	s.New += o.New
	s.Changed += o.Changed
	s.Coding += o.Coding
	s.Masks += o.Masks
	s.Residuals += o.Residuals
	s.Padding += o.Padding
	s.Check += o.Check
	s.RemovedEntities += o.RemovedEntities
	s.NewEntities += o.NewEntities
	s.ChangedEntities += o.ChangedEntities
	s.NewIDs += o.NewIDs
	s.Made += o.Made
	s.MadeEntities += o.MadeEntities
	for k, c := range o.ByContext {
		s.ByContext[k].Entities += c.Entities
		s.ByContext[k].Bits += c.Bits
	}
}
