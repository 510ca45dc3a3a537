package protocol

import (
	"encoding/binary"
	"math"
)

// WatchQuery is the query parameter of a signalling request that joins a
// match to watch it, not to play: POST /signal?watch=1 (with ?match=ID
// beside it on a server hosting several). A spectator sends no inputs, is
// not on the scoreboard and takes no player's place; the server welcomes
// it as player 0.
const WatchQuery = "watch"

// KindWatch is a spectator's camera: sent by a spectator, it asks to follow
// a player or to fly a free camera; sent by the server to a spectator, it
// says whom the spectator's views now follow (at its welcome, and whenever
// that changes: the player it followed left, or it asked).
const KindWatch = KindRoundOver + 1

// How a spectator watches, in a Watch body.
const (
	// WatchFollow follows a player: the views are chosen from that
	// player's position and aim, as that player's own would be.
	WatchFollow uint8 = iota
	// WatchFree flies a free camera: the views are chosen from X, Y.
	WatchFree
)

// Watch is the body of a KindWatch event.
type Watch struct {
	// Mode is WatchFollow or WatchFree; other values are carried as they
	// are (a server takes them as WatchFollow).
	Mode uint8
	// Player is the player followed (WatchFollow). From a spectator, 0
	// lets the server choose: the leader, the player with the highest
	// score. From the server, 0 means nobody is in the match to follow and
	// the views are chosen from X, Y.
	Player uint32
	// Slot, from the server, is the slot of the followed player's entity
	// (a player keeps its slot while connected), so that the spectator
	// can find it in its views; 0 from a spectator, which the server
	// ignores.
	Slot uint16
	// X and Y are the camera's centre in the snapshot's quantized units
	// (PosQuant), for WatchFree; a server clamps them to the world.
	X, Y uint32
}

// AppendWatch appends the body of a Watch: mode byte, then player, slot, x
// and y as varints.
func AppendWatch(dst []byte, w Watch) []byte {
	dst = append(dst, w.Mode)
	dst = binary.AppendUvarint(dst, uint64(w.Player))
	dst = binary.AppendUvarint(dst, uint64(w.Slot))
	dst = binary.AppendUvarint(dst, uint64(w.X))
	return binary.AppendUvarint(dst, uint64(w.Y))
}

func readWatch(r *bodyReader) Watch {
	return Watch{
		Mode:   r.byte(),
		Player: uint32(r.uvarint(math.MaxUint32)),
		Slot:   uint16(r.uvarint(math.MaxUint16)),
		X:      uint32(r.uvarint(math.MaxUint32)),
		Y:      uint32(r.uvarint(math.MaxUint32)),
	}
}

// ParseWatch decodes a Watch body.
func ParseWatch(b []byte) (Watch, error) {
	r := bodyReader{p: b}
	w := readWatch(&r)
	if err := r.done(); err != nil {
		return Watch{}, err
	}
	return w, nil
}
