package snapshot

// Hash returns a 32-bit FNV-1a hash of the snapshot's ids and values. Server
// and client hash the same tick to detect a desync without sending state.
func (s *Snapshot) Hash() uint32 {
	const prime = 16777619
	h := uint32(2166136261)
	mix := func(v uint32) {
		for range 4 {
			h ^= v & 0xff
			h *= prime
			v >>= 8
		}
	}
	mix(uint32(len(s.ids)))
	for _, id := range s.ids {
		mix(uint32(id.Index) | uint32(id.Generation)<<16)
	}
	for _, v := range s.values {
		mix(v)
	}
	return h
}
