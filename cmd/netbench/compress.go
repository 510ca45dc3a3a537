package main

import "github.com/klauspost/compress/zstd"

// batch is a tick's full packets, one after another.
type batch struct {
	buf  []byte
	ends []int
}

func (b *batch) add(p []byte) {
	b.buf = append(b.buf, p...)
	b.ends = append(b.ends, len(b.buf))
}

func (b *batch) reset() { b.buf, b.ends = b.buf[:0], b.ends[:0] }

// compressor compresses full packets each alone with zstd: one encoder
// reused, no dictionary, zstd's best level (its default level sends these
// packets, a few hundred bytes of positions, a little larger than they
// are), no checksum (the datagram has its own).
type compressor struct {
	enc            *zstd.Encoder
	out            []byte
	bytes, packets uint64
}

func newCompressor() (*compressor, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression), zstd.WithEncoderCRC(false), zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
	if err != nil {
		return nil, err
	}
	return &compressor{enc: enc}, nil
}

// compress counts the compressed bytes of every packet of b.
func (c *compressor) compress(b *batch) {
	start := 0
	for _, end := range b.ends {
		c.out = c.enc.EncodeAll(b.buf[start:end], c.out[:0])
		c.bytes += uint64(len(c.out))
		c.packets++
		start = end
	}
}
