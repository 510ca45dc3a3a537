package broadcast

import "strconv"

// Index is what an origin says of its broadcast: GET index.json.
type Index struct {
	// Format is the chunks' format version (Version).
	Format int `json:"format"`
	// Protocol is the game's protocol version, whose snapshot format,
	// records and events the chunks carry.
	Protocol uint32 `json:"protocol"`
	// TickRate is the match's ticks a second.
	TickRate float64 `json:"tick_rate"`
	// FragmentTicks is the ticks a fragment of deltas holds.
	FragmentTicks int `json:"fragment_ticks"`
	// DelayMillis is how long after its last tick a fragment is published.
	DelayMillis int64 `json:"delay_ms"`
	// Ready says whether any fragment is published: Oldest, Newest and
	// NewestTick mean nothing before.
	Ready bool `json:"ready"`
	// Oldest is the oldest fragment whose keyframe and deltas are still
	// held; Newest the newest published. A viewer starts at keyframe
	// Newest and goes on with deltas Newest, Newest+1 ...
	Oldest uint32 `json:"oldest"`
	Newest uint32 `json:"newest"`
	// NewestTick is the last tick of deltas Newest.
	NewestTick uint32 `json:"newest_tick"`
	// NextMillis is how long after this index was made the next fragment
	// is published (0: not known). A viewer that reads the index from a
	// cache takes off the Age the cache gives it, and asks for the
	// fragment when it is due, without reading the index again.
	NextMillis int64 `json:"next_ms"`
	// Ended says that the match is over: no fragment follows Newest.
	Ended bool `json:"ended"`
}

// ChunkPath returns the path of a chunk under a broadcast's base URL:
// "N/key" or "N/delta".
func ChunkPath(k Kind, n uint32) string {
	return strconv.FormatUint(uint64(n), 10) + "/" + k.String()
}

// MaxIndex is the longest index a viewer reads, in bytes.
const MaxIndex = 4 << 10
