package protocol

import (
	"encoding/binary"
	"fmt"
	"github.com/sightline-game/sightline/game/arena"

	"github.com/sightline-game/sightline/netcode/events"
)

// KindWelcome is the first event a client receives: who it is in the match.
// Its body is not checked by ValidateEventBody.
const KindWelcome events.Kind = 16

// Welcome tells a client its player id, its entity's slot and the map.
type Welcome struct {
	Player  arena.PlayerID
	Slot    uint16
	MapSeed uint64
}

// AppendWelcome appends the event body.
func AppendWelcome(dst []byte, w Welcome) []byte {
	dst = binary.AppendUvarint(dst, uint64(w.Player))
	dst = binary.AppendUvarint(dst, uint64(w.Slot))
	return binary.LittleEndian.AppendUint64(dst, w.MapSeed)
}

// ParseWelcome reads an event body written by AppendWelcome.
func ParseWelcome(b []byte) (Welcome, error) {
	p, n := binary.Uvarint(b)
	if n <= 0 || p > 1<<32-1 {
		return Welcome{}, fmt.Errorf("protocol: welcome: bad player")
	}
	b = b[n:]
	s, n := binary.Uvarint(b)
	if n <= 0 || s > 1<<16-1 {
		return Welcome{}, fmt.Errorf("protocol: welcome: bad slot")
	}
	b = b[n:]
	if len(b) != 8 {
		return Welcome{}, fmt.Errorf("protocol: welcome: %d bytes for the map seed", len(b))
	}
	return Welcome{Player: arena.PlayerID(p), Slot: uint16(s), MapSeed: binary.LittleEndian.Uint64(b)}, nil
}
