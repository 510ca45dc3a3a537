package session

import (
	"encoding/binary"
	"fmt"
)

// MaxRedundancy is the most inputs one input datagram may carry.
const MaxRedundancy = 16

const (
	inputHeaderSize = 1 + 4 + 4 + 1
	flagVerify      = 1 << 0
)

// InputPacket is a parsed input datagram. Inputs aliases the datagram.
type InputPacket struct {
	Verify    bool   // the client asks for view hashes
	Ack       uint32 // newest snapshot tick the client decoded; 0 if none
	NewestSeq uint32 // sequence number of Inputs[0]
	Count     int
	inputs    []byte
	size      int
}

// Input returns the i-th input, newest first: sequence NewestSeq-i.
func (p *InputPacket) Input(i int) []byte { return p.inputs[i*p.size : (i+1)*p.size] }

// AppendInputPacket appends an input datagram. inputs holds count inputs of
// size bytes each, newest first.
func AppendInputPacket(dst []byte, verify bool, ack, newestSeq uint32, size int, inputs []byte) []byte {
	count := 0
	if size > 0 {
		count = len(inputs) / size
	}
	var flags byte
	if verify {
		flags |= flagVerify
	}
	dst = append(dst, flags)
	dst = binary.LittleEndian.AppendUint32(dst, ack)
	dst = binary.LittleEndian.AppendUint32(dst, newestSeq)
	dst = append(dst, byte(count))
	return append(dst, inputs[:count*size]...)
}

// ParseInputPacket parses an input datagram whose inputs are size bytes each.
func ParseInputPacket(p []byte, size int) (InputPacket, error) {
	if len(p) < inputHeaderSize {
		return InputPacket{}, fmt.Errorf("%w: %d bytes, header is %d", ErrShort, len(p), inputHeaderSize)
	}
	if p[0]&^flagVerify != 0 {
		return InputPacket{}, fmt.Errorf("%w: unknown input flags %#x", ErrMalformed, p[0])
	}
	in := InputPacket{
		Verify:    p[0]&flagVerify != 0,
		Ack:       binary.LittleEndian.Uint32(p[1:]),
		NewestSeq: binary.LittleEndian.Uint32(p[5:]),
		Count:     int(p[9]),
		size:      size,
	}
	if in.Count > MaxRedundancy {
		return InputPacket{}, fmt.Errorf("%w: %d inputs, at most %d", ErrMalformed, in.Count, MaxRedundancy)
	}
	if uint64(in.Count) > uint64(in.NewestSeq) {
		return InputPacket{}, fmt.Errorf("%w: %d inputs up to sequence %d", ErrMalformed, in.Count, in.NewestSeq)
	}
	if want := inputHeaderSize + in.Count*size; len(p) != want {
		return InputPacket{}, fmt.Errorf("%w: %d bytes for %d inputs of %d, want %d", ErrMalformed, len(p), in.Count, size, want)
	}
	in.inputs = p[inputHeaderSize:]
	return in, nil
}
