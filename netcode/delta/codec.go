package delta

import (
	"github.com/sightline-game/sightline/netcode/snapshot"
	"github.com/sightline-game/sightline/netcode/snapstream"
)

// Codec is one end's encoder and decoder of a schema's snapshots, sharing
// its Tables: the snapstream.Format a Sender or Receiver takes. Make one
// with NewCodec, or CodecOf for tables already built. It is not safe for
// concurrent use: give each sender and receiver its own (codecs of one
// Tables are independent).
type Codec struct {
	Encoder // writes the packets: AppendFull, AppendDelta, LastSizes ...
	Decoder // reads them: ReadHeader, Decode
}

var (
	_ snapstream.Format          = (*Codec)(nil)
	_ snapstream.FullBounder     = (*Codec)(nil)
	_ snapstream.ChangesAppender = (*Codec)(nil)
)

// NewCodec returns a codec for s, with tables of its own.
func NewCodec(s *snapshot.Schema) (*Codec, error) {
	t, err := NewTables(s)
	if err != nil {
		return nil, err
	}
	return CodecOf(t), nil
}

// MustCodec is NewCodec for schemas written in code; it panics on an invalid schema.
func MustCodec(s *snapshot.Schema) *Codec {
	c, err := NewCodec(s)
	if err != nil {
		panic(err)
	}
	return c
}

// CodecOf returns a codec that codes with t.
func CodecOf(t *Tables) *Codec {
	c := new(Codec)
	c.Encoder.init(t)
	c.Decoder.init(t)
	return c
}

// Tables returns the tables the codec codes with.
func (c *Codec) Tables() *Tables { return c.Encoder.t }

// Schema returns the codec's schema.
func (c *Codec) Schema() *snapshot.Schema { return c.Encoder.t.schema }
