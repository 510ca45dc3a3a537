package assets

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrWAV is returned (wrapped) for bytes that are not a WAV file of 16-bit
// PCM.
var ErrWAV = errors.New("assets: not a 16-bit PCM WAV file")

// WAV describes a RIFF WAVE file of 16-bit PCM.
type WAV struct {
	SampleRate int
	Channels   int
	Frames     int    // samples per channel
	Data       []byte // the samples, little-endian, channels interleaved
}

// ParseWAV reads the header of a RIFF WAVE file of 16-bit PCM and finds
// its samples. Data aliases b.
func ParseWAV(b []byte) (WAV, error) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return WAV{}, fmt.Errorf("%w: no RIFF WAVE header", ErrWAV)
	}
	var w WAV
	haveFmt := false
	for p := b[12:]; len(p) >= 8; {
		id, size := string(p[:4]), int(binary.LittleEndian.Uint32(p[4:8]))
		p = p[8:]
		if size > len(p) {
			return WAV{}, fmt.Errorf("%w: chunk %q of %d bytes, %d left", ErrWAV, id, size, len(p))
		}
		chunk := p[:size]
		p = p[size+size%2:]
		switch id {
		case "fmt ":
			if size < 16 || binary.LittleEndian.Uint16(chunk) != 1 || binary.LittleEndian.Uint16(chunk[14:]) != 16 {
				return WAV{}, fmt.Errorf("%w: format is not 16-bit PCM", ErrWAV)
			}
			w.Channels = int(binary.LittleEndian.Uint16(chunk[2:]))
			w.SampleRate = int(binary.LittleEndian.Uint32(chunk[4:]))
			haveFmt = true
		case "data":
			if !haveFmt {
				return WAV{}, fmt.Errorf("%w: data before format", ErrWAV)
			}
			if w.Channels < 1 || w.SampleRate < 1 || size%(2*w.Channels) != 0 {
				return WAV{}, fmt.Errorf("%w: %d channels at %d Hz, %d data bytes", ErrWAV, w.Channels, w.SampleRate, size)
			}
			w.Data = chunk
			w.Frames = size / (2 * w.Channels)
			return w, nil
		}
		if len(p) == 0 {
			break
		}
	}
	return WAV{}, fmt.Errorf("%w: no data chunk", ErrWAV)
}

// AppendWAV appends a RIFF WAVE file of 16-bit PCM holding samples
// (channels interleaved) to dst.
func AppendWAV(dst []byte, sampleRate, channels int, samples []int16) []byte {
	data := 2 * len(samples)
	dst = append(dst, "RIFF"...)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(36+data))
	dst = append(dst, "WAVEfmt "...)
	dst = binary.LittleEndian.AppendUint32(dst, 16)
	dst = binary.LittleEndian.AppendUint16(dst, 1) // PCM
	dst = binary.LittleEndian.AppendUint16(dst, uint16(channels))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(sampleRate))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(sampleRate*channels*2))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(channels*2))
	dst = binary.LittleEndian.AppendUint16(dst, 16)
	dst = append(dst, "data"...)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(data))
	for _, s := range samples {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(s))
	}
	return dst
}
