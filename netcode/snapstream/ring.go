package snapstream

import "github.com/sightline-game/sightline/netcode/snapshot"

// ring holds the snapshots of the last len(slots) ticks, each in the slot of
// its tick modulo the ring's size. A slot names the tick it holds, so a tick
// that was overwritten or never stored is simply absent.
type ring struct {
	ticks []uint32
	snaps []*snapshot.Snapshot
}

func newRing(s *snapshot.Schema, size int) ring {
	r := ring{ticks: make([]uint32, size), snaps: make([]*snapshot.Snapshot, size)}
	for i := range r.snaps {
		r.snaps[i] = snapshot.New(s)
	}
	return r
}

// get returns the snapshot of tick, or nil if the ring does not hold it.
func (r *ring) get(tick uint32) *snapshot.Snapshot {
	if tick == 0 {
		return nil
	}
	i := tick % uint32(len(r.ticks))
	if r.ticks[i] != tick {
		return nil
	}
	return r.snaps[i]
}

// slot returns the storage for tick, marking it as holding tick.
func (r *ring) slot(tick uint32) *snapshot.Snapshot {
	i := tick % uint32(len(r.ticks))
	r.ticks[i] = tick
	return r.snaps[i]
}

// swap stores s as the snapshot of tick and returns the snapshot the slot held.
func (r *ring) swap(tick uint32, s *snapshot.Snapshot) *snapshot.Snapshot {
	i := tick % uint32(len(r.ticks))
	old := r.snaps[i]
	r.ticks[i], r.snaps[i] = tick, s
	return old
}

func (r *ring) reset() { clear(r.ticks) }
