package delta

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
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

// Codec encodes and decodes snapshots of one schema. It implements
// snapstream.Format. Make one with NewCodec; it is not safe for concurrent use.
type Codec struct {
	schema  *snapshot.Schema
	pred    snapshot.Predictor
	mover   snapshot.Mover // the Predictor, if it says which rows it moves
	bits    []uint8        // width of each field
	kbits   []uint8        // width of each field's gamma order in a packet; 0: none written
	enc     [][]uint32     // per field: its code's codewords (packCode); nil: a generic field
	codes   []*bitpack.Code
	generic bool     // some field has no code
	maskEnc []uint32 // the mask code's codewords (packCode); nil: masks coded per packet
	maskDec *bitpack.Code
	// Changed entities coded per context (see snapshot.Contexter); with
	// none, one context of the schema's codes:
	ctx        snapshot.Contexter // nil: one context
	nctx       int
	ctxEnc     []*[32 * 33]uint32 // per context: field f's codeword for bit length n at f*33+n (packLengthCode)
	ctxMask    []uint32           // per context and mask: the codeword at k<<fields | m; nil without a mask code
	ctxCodes   []*bitpack.Code    // per context and field, at k*fields+f
	ctxMaskDec []*bitpack.Code    // per context
	check      bool               // deltas end with a check byte
	// New entities coded against guesses (every field has a NewCode):
	spawnMode bool
	newCodes  [2][]*bitpack.Code // per field: against the entity before, and as made (nil: exact)
	exact     uint32             // fields a made entity does not write: they are the guess
	spawner   snapshot.Spawner
	zeroRow   []uint32 // the guess before the first slot
	recip     uint64   // ceil(2^32 / number of fields): j*recip>>32 = j/fields for any value index j

	// Scratch, grown to the largest snapshot met (see fit), then reused:
	// a codec meets a player's view, far below the schema's maximum.
	removed  []int32  // positions in the baseline of removed entities
	chgPos   []int32  // positions among the baseline's survivors of changed entities
	changed  []change // encoder: changed entities, in slot order
	moved    []change // encoder: changed entities with movers, being listed
	movedPos []int32  // encoder: their positions among the survivors
	sbase    []int32  // decoder: per survivor, its baseline index
	sout     []int32  // decoder: per survivor, its index in the output
	resid    []uint32 // encoder: zigzagged residuals of the changed fields, in order
	newIdx   []int32  // encoder: indices in cur of new entities
	newIDs   []snapshot.EntityID
	newVals  []uint32
	predRow  []uint32         // one predicted row
	side     []byte           // encoder: the changes, packed apart (see writeChanges)
	fmasks   []uint32         // per field: its values' mask
	makers   []maker          // surviving entities that can make others, in slot order (listed when there are new entities)
	cmp      snapshot.Changes // encoder: the changes analyse found by the plain comparison
	newOut   []int32          // decoder: per new entity, its index in the output
	spawnRow []uint32         // the guess of the new entity's chosen maker
	spawnTry []uint32         // encoder: a maker's guess being tried

	rhist    [32][33]uint32 // per generic field: residuals by bit length
	maskHist [256]uint16
	plan     plan
	sizes    sizes
	newFlat  [2][32 * 33]uint32 // the new-entity codes (newCodes), laid out like encFlat
}

// change is one changed entity: where it is in the baseline and in the
// current snapshot, and which fields differ.
type change struct {
	base, cur int32
	mask      uint32
}

// plan is what the encoder decided for one delta.
type plan struct {
	order    [32]uint8 // gamma order per generic field
	maskMode bool      // common-mask coding on
	common   uint32
}

var (
	_ snapstream.Format          = (*Codec)(nil)
	_ snapstream.FullBounder     = (*Codec)(nil)
	_ snapstream.ChangesAppender = (*Codec)(nil)
)

// NewCodec returns a codec for s.
func NewCodec(s *snapshot.Schema) (*Codec, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	nf := len(s.Fields)
	c := &Codec{
		schema:    s,
		pred:      s.Predictor,
		check:     s.Check,
		bits:      make([]uint8, nf),
		kbits:     make([]uint8, nf),
		codes:     make([]*bitpack.Code, nf),
		enc:       make([][]uint32, nf),
		predRow:   make([]uint32, nf),
		fmasks:    make([]uint32, nf),
		newCodes:  [2][]*bitpack.Code{make([]*bitpack.Code, nf), make([]*bitpack.Code, nf)},
		zeroRow:   make([]uint32, nf),
		spawnRow:  make([]uint32, nf),
		spawnTry:  make([]uint32, nf),
		spawnMode: true,
		// Never nil: writeEntities reads a nil list as "every entity".
		newIdx: make([]int32, 0, 64),
	}
	if c.spawnMode {
		c.spawner = s.Spawner
	}
	c.mover, _ = s.Predictor.(snapshot.Mover)
	c.recip = (1<<32 + uint64(nf) - 1) / uint64(nf)
	if s.MaskCode != nil {
		c.maskEnc, c.maskDec = packCode(s.MaskCode), s.MaskCode
	}
	for f, fd := range s.Fields {
		if fd.NewCode == nil {
			c.spawnMode = false
		} else {
			c.newCodes[0][f], c.newCodes[1][f] = fd.NewCode, fd.SpawnCode
			copy(c.newFlat[0][f*33:], packCode(fd.NewCode))
			if fd.SpawnCode == nil {
				c.exact |= 1 << f
			} else {
				copy(c.newFlat[1][f*33:], packCode(fd.SpawnCode))
			}
		}
		c.bits[f] = fd.Bits
		c.fmasks[f] = fieldMask(fd.Bits)
		c.codes[f] = fd.Code
		switch {
		case fd.Code != nil:
			c.enc[f] = packCode(fd.Code)
		case fd.Bits > rawBits:
			c.kbits[f] = uint8(bitpack.Len(uint32(fd.Bits - 1)))
			c.generic = true
		default:
			c.generic = true
		}
	}
	c.setContexts(s)
	return c, nil
}

// setContexts lays out the codes of changed entities per context: the
// schema's, or with a Contexter and context codes, each context's, when
// every field and the masks have codes.
func (c *Codec) setContexts(s *snapshot.Schema) {
	nf := len(c.bits)
	c.nctx = 1
	if cx, ok := s.Predictor.(snapshot.Contexter); ok && len(s.Contexts) > 0 && !c.generic && c.maskEnc != nil {
		c.ctx, c.nctx = cx, len(s.Contexts)
	}
	c.ctxCodes = make([]*bitpack.Code, c.nctx*nf)
	c.ctxMaskDec = make([]*bitpack.Code, c.nctx)
	if !c.generic {
		c.ctxEnc = make([]*[32 * 33]uint32, c.nctx)
		for k := range c.ctxEnc {
			c.ctxEnc[k] = new([32 * 33]uint32)
		}
	}
	if c.maskEnc != nil {
		c.ctxMask = make([]uint32, c.nctx<<nf)
	}
	for k := range c.nctx {
		var cc snapshot.Codes
		if c.ctx != nil {
			cc = s.Contexts[k]
		}
		for f, fd := range s.Fields {
			code := fd.Code
			if f < len(cc.Fields) && cc.Fields[f] != nil {
				code = cc.Fields[f]
			}
			c.ctxCodes[k*nf+f] = code
			if !c.generic {
				packLengthCode(c.ctxEnc[k][f*33:f*33+33], code)
			}
		}
		mask := s.MaskCode
		if cc.Mask != nil {
			mask = cc.Mask
		}
		c.ctxMaskDec[k] = mask
		if c.maskEnc != nil {
			copy(c.ctxMask[k<<nf:], packCode(mask))
		}
	}
}

// context returns the context of an entity whose baseline row is brow.
func (c *Codec) context(brow []uint32) int {
	if c.ctx == nil {
		return 0
	}
	if k := c.ctx.Context(brow); uint(k) < uint(c.nctx) {
		return k
	}
	return 0
}

// fit makes the per-baseline-entity scratch hold n entities. It grows by
// doubling (from 64), so a codec that meets views of a steady size stops
// allocating after its first packets. The contents are not kept.
func (c *Codec) fit(n int) {
	if n <= cap(c.removed) {
		return
	}
	n = max(n, 2*cap(c.removed), 64)
	c.removed = make([]int32, 0, n)
	c.chgPos = make([]int32, 0, n)
	c.changed = make([]change, 0, n)
	if c.mover != nil {
		c.moved = make([]change, 0, n)
		c.movedPos = make([]int32, 0, n)
	}
	c.sbase = make([]int32, n)
	c.sout = make([]int32, n)
	c.resid = make([]uint32, 0, n*len(c.bits))
}

// MustCodec is NewCodec for schemas written in code; it panics on an invalid schema.
func MustCodec(s *snapshot.Schema) *Codec {
	c, err := NewCodec(s)
	if err != nil {
		panic(err)
	}
	return c
}

// Schema returns the codec's schema.
func (c *Codec) Schema() *snapshot.Schema { return c.schema }

// ReadHeader reads the tick and baseline of a packet. Deltas carry only the
// low 16 bits of their tick; newest, the receiver's newest decoded tick,
// supplies the rest. A delta cannot be read before any full snapshot.
func (c *Codec) ReadHeader(p []byte, newest uint32) (snapstream.Header, error) {
	r := bitpack.NewReader(p)
	h, err := c.readHeader(&r, newest)
	return h, err
}

func (c *Codec) readHeader(r *bitpack.Reader, newest uint32) (snapstream.Header, error) {
	kind := r.Read(1)
	if kind == kindFull {
		tick := r.Read(tickBits)
		if err := r.Err(); err != nil {
			return snapstream.Header{}, fmt.Errorf("%w: header: %w", ErrMalformed, err)
		}
		if tick == 0 {
			return snapstream.Header{}, fmt.Errorf("%w: tick 0", ErrMalformed)
		}
		return snapstream.Header{Tick: tick}, nil
	}
	low := uint16(r.Read(deltaTickBits))
	age := int64(r.ReadGamma(ageOrder)) + 1
	if err := r.Err(); err != nil {
		return snapstream.Header{}, fmt.Errorf("%w: header: %w", ErrMalformed, err)
	}
	if newest == 0 {
		return snapstream.Header{}, fmt.Errorf("%w: delta before any full snapshot", ErrBaseline)
	}
	tick := int64(newest) + int64(int16(low-uint16(newest)))
	base := tick - age
	if base <= 0 || tick > 1<<32-1 {
		return snapstream.Header{}, fmt.Errorf("%w: tick %d age %d", ErrBaseline, tick, age)
	}
	return snapstream.Header{Tick: uint32(tick), Baseline: uint32(base)}, nil
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

// bestOrder returns the gamma order (the index into costs) with the fewest
// bits, and that many bits.
func bestOrder(costs []int) (uint, int) {
	best, bestCost := uint(0), costs[0]
	for k := 1; k < len(costs); k++ {
		if costs[k] < bestCost {
			best, bestCost = uint(k), costs[k]
		}
	}
	return best, bestCost
}

// addGammaCosts adds to costs[k] the length of v coded gamma(k), for every k.
func addGammaCosts(costs []int, v uint32) {
	for k := range costs {
		costs[k] += bitpack.GammaLen(v, uint(k))
	}
}
