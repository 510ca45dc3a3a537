package delta

import (
	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

const (
	kindFull  = 0
	kindDelta = 1

	tickBits      = 32
	deltaTickBits = 16
	countOrder    = 4 // gamma order of a full snapshot's entity count
	newOrder      = 0 // gamma order of a delta's count of new entities
	ageOrder      = 1
	orderBits     = 3 // width of a gamma order chosen per packet (0..7)
)

// rawBits is the widest generic field written raw: its wrapped difference
// in bits_f bits, shorter than any gamma code can be.
const rawBits = 2

// Tables are what both ends of a stream know of a schema before the first
// packet: its fields' widths, its prefix codes laid out for the encoder's
// and the decoder's loops, per context, its predictor and spawner. They
// are built once (NewTables) and never change: any number of Encoders and
// Decoders, on any goroutines, may share one Tables.
type Tables struct {
	schema  *snapshot.Schema
	pred    snapshot.Predictor
	mover   snapshot.Mover // the Predictor, if it says which rows it moves
	bits    []uint8        // width of each field
	fmasks  []uint32       // per field: its values' mask
	kbits   []uint8        // width of each field's gamma order in a packet; 0: none written
	codes   []*bitpack.Code
	generic bool     // some field has no code
	maskEnc []uint32 // the mask code's codewords (packCode); nil: masks coded per packet
	maskDec *bitpack.Code
	recip   uint64 // ceil(2^32 / number of fields): j*recip>>32 = j/fields for any value index j
	check   bool   // deltas end with a check byte

	// Changed entities coded per context (see snapshot.Contexter); with
	// none, one context of the schema's codes:
	ctx        snapshot.Contexter // nil: one context
	nctx       int
	ctxEnc     []*[32 * 33]uint32 // per context: field f's codeword for bit length n at f*33+n (packLengthCode)
	ctxMask    []uint32           // per context and mask: the codeword at k<<fields | m; nil without a mask code
	ctxCodes   []*bitpack.Code    // per context and field, at k*fields+f
	ctxMaskDec []*bitpack.Code    // per context

	// New entities coded against guesses (every field has a NewCode):
	spawnMode bool
	newCodes  [2][]*bitpack.Code  // per field: against the entity before, and as made (nil: exact)
	newFlat   *[2][32 * 33]uint32 // the new-entity codes (newCodes), laid out like ctxEnc
	exact     uint32              // fields a made entity does not write: they are the guess
	spawner   snapshot.Spawner
	zeroRow   []uint32 // the guess before the first slot
}

// NewTables returns the tables of s. The schema must not change after.
func NewTables(s *snapshot.Schema) (*Tables, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	nf := len(s.Fields)
	t := &Tables{
		schema:    s,
		pred:      s.Predictor,
		check:     s.Check,
		bits:      make([]uint8, nf),
		kbits:     make([]uint8, nf),
		codes:     make([]*bitpack.Code, nf),
		fmasks:    make([]uint32, nf),
		newCodes:  [2][]*bitpack.Code{make([]*bitpack.Code, nf), make([]*bitpack.Code, nf)},
		newFlat:   new([2][32 * 33]uint32),
		zeroRow:   make([]uint32, nf),
		spawnMode: true,
	}
	t.mover, _ = s.Predictor.(snapshot.Mover)
	t.recip = (1<<32 + uint64(nf) - 1) / uint64(nf)
	if s.MaskCode != nil {
		t.maskEnc, t.maskDec = packCode(s.MaskCode), s.MaskCode
	}
	for f, fd := range s.Fields {
		if fd.NewCode == nil {
			t.spawnMode = false
		} else {
			t.newCodes[0][f], t.newCodes[1][f] = fd.NewCode, fd.SpawnCode
			copy(t.newFlat[0][f*33:], packCode(fd.NewCode))
			if fd.SpawnCode == nil {
				t.exact |= 1 << f
			} else {
				copy(t.newFlat[1][f*33:], packCode(fd.SpawnCode))
			}
		}
		t.bits[f] = fd.Bits
		t.fmasks[f] = fieldMask(fd.Bits)
		t.codes[f] = fd.Code
		switch {
		case fd.Code != nil:
		case fd.Bits > rawBits:
			t.kbits[f] = uint8(bitpack.Len(uint32(fd.Bits - 1)))
			t.generic = true
		default:
			t.generic = true
		}
	}
	if t.spawnMode {
		t.spawner = s.Spawner
	}
	t.setContexts(s)
	return t, nil
}

// MustTables is NewTables for schemas written in code; it panics on an
// invalid schema.
func MustTables(s *snapshot.Schema) *Tables {
	t, err := NewTables(s)
	if err != nil {
		panic(err)
	}
	return t
}

// Schema returns the tables' schema.
func (t *Tables) Schema() *snapshot.Schema { return t.schema }

// setContexts lays out the codes of changed entities per context: the
// schema's, or with a Contexter and context codes, each context's, when
// every field and the masks have codes.
func (t *Tables) setContexts(s *snapshot.Schema) {
	nf := len(t.bits)
	t.nctx = 1
	if cx, ok := s.Predictor.(snapshot.Contexter); ok && len(s.Contexts) > 0 && !t.generic && t.maskEnc != nil {
		t.ctx, t.nctx = cx, len(s.Contexts)
	}
	t.ctxCodes = make([]*bitpack.Code, t.nctx*nf)
	t.ctxMaskDec = make([]*bitpack.Code, t.nctx)
	if !t.generic {
		t.ctxEnc = make([]*[32 * 33]uint32, t.nctx)
		for k := range t.ctxEnc {
			t.ctxEnc[k] = new([32 * 33]uint32)
		}
	}
	if t.maskEnc != nil {
		t.ctxMask = make([]uint32, t.nctx<<nf)
	}
	for k := range t.nctx {
		var cc snapshot.Codes
		if t.ctx != nil {
			cc = s.Contexts[k]
		}
		for f, fd := range s.Fields {
			code := fd.Code
			if f < len(cc.Fields) && cc.Fields[f] != nil {
				code = cc.Fields[f]
			}
			t.ctxCodes[k*nf+f] = code
			if !t.generic {
				packLengthCode(t.ctxEnc[k][f*33:f*33+33], code)
			}
		}
		mask := s.MaskCode
		if cc.Mask != nil {
			mask = cc.Mask
		}
		t.ctxMaskDec[k] = mask
		if t.maskEnc != nil {
			copy(t.ctxMask[k<<nf:], packCode(mask))
		}
	}
}

// context returns the context of an entity whose baseline row is brow.
func (t *Tables) context(brow []uint32) int {
	if t.ctx == nil {
		return 0
	}
	if k := t.ctx.Context(brow); uint(k) < uint(t.nctx) {
		return k
	}
	return 0
}

// packCode returns code's codewords, one per symbol, as word | length<<16.
func packCode(code *bitpack.Code) []uint32 {
	enc := make([]uint32, code.Symbols())
	for s := range enc {
		word, l := code.Word(s)
		enc[s] = word | uint32(l)<<16
	}
	return enc
}

// packLengthCode fills dst, one entry per bit length n, with the codeword
// of n in code and what the whole of a value of that length costs:
// word | length<<16 | (length+max(n-1, 0))<<24, the codeword then the n-1
// bits below the value's leading one. Lengths past code's symbols cost
// their extra bits only.
func packLengthCode(dst []uint32, code *bitpack.Code) {
	for n := range dst {
		var word uint32
		var l uint
		if n < code.Symbols() {
			word, l = code.Word(n)
		}
		dst[n] = word | uint32(l)<<16 | (uint32(l)+uint32(max(n-1, 0)))<<24
	}
}

// wrapDiff returns cur-base as a signed number of bits-wide steps, wrapping.
func wrapDiff(cur, base uint32, bits uint8) int32 {
	sh := 32 - bits
	return int32((cur-base)<<sh) >> sh
}

func fieldMask(bits uint8) uint32 {
	if bits >= 32 {
		return ^uint32(0)
	}
	return 1<<bits - 1
}
