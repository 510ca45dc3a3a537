package view

import (
	"fmt"
	"math"

	"github.com/sightline-game/sightline/netcode/snapshot"
)

// The sender's cost model, in bits: what it charges a tick's budget for the
// packet and for each entity it writes.
const (
	// headerBits is a generous estimate of a packet's fixed cost.
	headerBits = 96
	// newEntityOverhead is what an entering entity costs beyond its
	// generation and fields at full width (its slot gap).
	newEntityOverhead = 8
	// changedOverhead is what a changed entity costs beyond its field mask
	// and its fields (its place in the changed set).
	changedOverhead = 6
	// removedBits is what an entity leaving the view costs.
	removedBits = 8
)

// maxEntityBits is the most the sender's cost model charges for one entity
// of schema s: entering (slot gap, generation, every field at full width)
// or changed in every field by a difference that only fits at full width
// (its place in the changed set, the field mask, and per field a flag and
// the value).
func maxEntityBits(s *snapshot.Schema) int {
	entering := newEntityOverhead + int(s.GenerationBits) + s.EntityBits()
	changed := changedOverhead
	if len(s.Fields) > 1 {
		changed += len(s.Fields)
	}
	for _, f := range s.Fields {
		changed += 1 + int(f.Bits)
	}
	return max(entering, changed)
}

// GuaranteedBytes is the most one tick's guaranteed packet costs the budget,
// in bytes: the caller's framing (cfg.Overhead), the packet's fixed cost and
// one entity of schema s at its largest, as the sender's cost model counts
// them. The player's own entity is sent whenever it changed, so every tick
// costs at least this much at worst.
func GuaranteedBytes(s *snapshot.Schema, cfg Config) int {
	cfg = cfg.withDefaults()
	return cfg.Overhead + (headerBits+maxEntityBits(s)+7)/8
}

// MinRate is the floor of a client's budget for schema s, in bytes per
// second: GuaranteedBytes every tick at cfg.TickRate, rounded up. At or
// above it each tick's allowance covers the packet header and the player's
// own entity at its largest, so sending them every tick never puts the
// client in debt. A Sender sends them every tick whatever its budget; the
// floor is what keeps that within the budget, and NewSender refuses a Rate
// below it.
//
// For the match's schema (12-bit slots, 4-bit generations, fields of 16,
// 16, 10, 2, 4 and 7 bits), 10 bytes of framing and 30 ticks a second the
// floor is 32 bytes a tick: 960 B/s.
func MinRate(s *snapshot.Schema, cfg Config) int {
	cfg = cfg.withDefaults()
	return int(math.Ceil(float64(GuaranteedBytes(s, cfg)) * cfg.TickRate))
}

// Validate reports whether cfg (with its defaults) can serve schema s: its
// Rate is at least MinRate and its PacketCap holds the header and one
// entity at its largest.
func (c Config) Validate(s *snapshot.Schema) error {
	c = c.withDefaults()
	if need := (headerBits + maxEntityBits(s) + 7) / 8; c.PacketCap < need {
		return fmt.Errorf("%w: %d bytes, the header and one entity need %d", ErrPacketCapTooSmall, c.PacketCap, need)
	}
	if floor := MinRate(s, c); c.Rate < float64(floor) {
		return fmt.Errorf("%w: %.0f B/s, the floor is %d B/s (%d bytes a tick at %g ticks/s: %d of framing, the packet header and the player's own entity at its largest)",
			ErrRateBelowFloor, c.Rate, floor, GuaranteedBytes(s, c), c.TickRate, c.Overhead)
	}
	return nil
}
