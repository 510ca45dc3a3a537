package broadcast

import (
	"strconv"
	"time"
)

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
	// cache takes off the index's age (see MadeUnixMillis), and asks for
	// the fragment when it is due, without reading the index again.
	NextMillis int64 `json:"next_ms"`
	// MadeUnixMillis is when the origin made this index, by its wall
	// clock, in milliseconds since the Unix epoch (0: not told). A cache
	// that sends no Age header (nginx's proxy_cache) may serve an index a
	// second old: a viewer takes as the index's age the larger of the
	// cache's Age and its own clock's now less MadeUnixMillis, the latter
	// only when it lies between 0 and MaxMadeAge (outside, the viewer's
	// clock is not the origin's and it goes by Age alone).
	MadeUnixMillis int64 `json:"made_unix_ms"`
	// Ended says that the match is over: no fragment follows Newest.
	Ended bool `json:"ended"`

	// PartTicks is the ticks a part of a fragment holds (0: the broadcast
	// publishes no parts). Parts is how many parts of fragment Newest+1
	// are published: a viewer that has taken deltas Newest goes on with
	// parts 0, 1 ... of Newest+1 (PartPath), each of which it may take as
	// soon as it is published, and then with the parts or the deltas of
	// the fragments after. NextPartMillis is how long after this index was
	// made the next part is published (0: not known), as NextMillis is for
	// fragments.
	PartTicks      int   `json:"part_ticks"`
	Parts          int   `json:"parts"`
	NextPartMillis int64 `json:"next_part_ms"`
}

// PartsPerFragment returns how many parts a whole fragment has (0 without
// parts).
func (ix Index) PartsPerFragment() int {
	if ix.PartTicks <= 0 || ix.FragmentTicks <= 0 {
		return 0
	}
	n := ix.FragmentTicks / ix.PartTicks
	if ix.FragmentTicks%ix.PartTicks != 0 {
		n++
	}
	return n
}

// Age returns how old the index is at now, by a viewer's clock, given the
// age the cache it came from told (its Age header; 0 from the origin, or
// from a cache that tells none): the larger of cacheAge and now less
// MadeUnixMillis, the latter only when it lies between 0 and MaxMadeAge.
func (ix Index) Age(now time.Time, cacheAge time.Duration) time.Duration {
	if ix.MadeUnixMillis <= 0 {
		return cacheAge
	}
	ms := now.UnixMilli() - ix.MadeUnixMillis
	if ms < 0 || ms > MaxMadeAge.Milliseconds() {
		return cacheAge
	}
	return max(cacheAge, time.Duration(ms)*time.Millisecond)
}

// ChunkPath returns the path of a chunk under a broadcast's base URL:
// "N/key" or "N/delta" (for a part, see PartPath).
func ChunkPath(k Kind, n uint32) string {
	return strconv.FormatUint(uint64(n), 10) + "/" + k.String()
}

// PartPath returns the path of part p of fragment n: "N/part/P".
func PartPath(n uint32, p int) string {
	return strconv.FormatUint(uint64(n), 10) + "/part/" + strconv.Itoa(p)
}

// MaxMadeAge is the oldest an index may seem by a viewer's clock, now less
// MadeUnixMillis, for the viewer to believe it: an older one, or one made
// in the viewer's future, says that the two clocks differ.
const MaxMadeAge = 10 * time.Second

// MaxIndex is the longest index a viewer reads, in bytes.
const MaxIndex = 4 << 10
