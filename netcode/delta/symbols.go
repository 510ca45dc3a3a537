package delta

import (
	"math/bits"

	"github.com/sightline-game/sightline/netcode/bitpack"
	"github.com/sightline-game/sightline/netcode/snapshot"
)

// SymbolKind says which part of a delta a Symbol is coded in.
type SymbolKind uint8

const (
	// SymbolChange is a changed entity's field mask (Field -1, Value the
	// mask) or the bit length of one of its residuals (Field f, Value the
	// length), coded with the schema's codes or its context's.
	SymbolChange SymbolKind = iota
	// SymbolNew is a new entity coded against the entity before it in
	// slot order (Field -1), or the bit length of one of its fields'
	// differences from that guess (Field f, Value the length), coded with
	// the field's NewCode.
	SymbolNew
	// SymbolMade is SymbolNew for a new entity coded as made by a maker
	// (snapshot.Spawner), its fields coded with their SpawnCode; a field
	// without one is the guess and gives no symbol.
	SymbolMade
)

// Symbol is one thing a delta codes with the schema's codes: a changed
// entity's field mask or a residual's bit length, or for a schema with
// new-entity codes a new entity's guess or one of its fields (see
// SymbolKind). Context is a changed entity's context by the schema's
// snapshot.Contexter (0 without one, or for a new entity), whether or not
// the schema has context codes yet.
type Symbol struct {
	Context, Field, Value int
	Kind                  SymbolKind
}

// Symbols calls fn with the symbols of a delta of cur against base, gap
// ticks older, in the packet's order: per changed entity its mask, then
// each changed field's residual length; then, with new-entity codes, per
// new entity its guess (with the guess AppendDelta would choose) and each
// field's length, last field first. It is what package train counts to
// make a schema's codes, and how another way of coding the same traffic
// can be measured: it writes no packet, and is not for the hot path. It
// uses e's scratch, as AppendDelta does.
func (e *Encoder) Symbols(base, cur *snapshot.Snapshot, gap uint32, fn func(Symbol)) {
	e.analyse(base, cur)
	if e.t.mover != nil {
		e.moveChanges(base, cur, gap)
	}
	e.residuals(base, cur, gap) // computes them for coded fields too
	cx, _ := e.t.pred.(snapshot.Contexter)
	resid := e.resid
	for _, ch := range e.changed {
		k := 0
		if cx != nil {
			if k = cx.Context(base.Row(int(ch.base))); uint(k) >= uint(cx.Contexts()) {
				k = 0
			}
		}
		fn(Symbol{Context: k, Field: -1, Value: int(ch.mask)})
		for m := ch.mask; m != 0; m &= m - 1 {
			fn(Symbol{Context: k, Field: bits.TrailingZeros32(m), Value: bits.Len32(resid[0])})
			resid = resid[1:]
		}
	}
	if !e.t.spawnMode {
		return
	}
	for _, j := range e.newIdx {
		g, _ := e.chooseNew(base, cur, gap, int(j))
		guess, codes, kind := e.t.before(cur, int(j)), e.t.newCodes[0], SymbolNew
		if g.maker >= 0 {
			guess, codes, kind = e.spawnRow, e.t.newCodes[1], SymbolMade
		}
		fn(Symbol{Field: -1, Kind: kind})
		row := cur.Row(int(j))
		for f := len(row) - 1; f >= 0; f-- {
			if codes[f] == nil {
				continue // exactly the guess
			}
			n := bits.Len32(bitpack.Zigzag(wrapDiff(row[f], guess[f], e.t.bits[f])))
			fn(Symbol{Field: f, Value: n, Kind: kind})
		}
	}
}
