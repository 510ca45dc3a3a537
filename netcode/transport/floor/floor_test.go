package floor

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/binary"
	"net"
	"testing"

	"golang.org/x/net/ipv4"
)

// payload is the size of a datagram measured: about a game's snapshot.
const payload = 100

// batch is how many datagrams one batched system call carries.
const batch = 32

func newAEAD(b *testing.B) cipher.AEAD {
	key := make([]byte, 16)
	block, err := aes.NewCipher(key)
	if err != nil {
		b.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		b.Fatal(err)
	}
	return aead
}

// loopbackPair returns two UDP sockets on 127.0.0.1, the first connected
// to send to the second.
func loopbackPair(b *testing.B) (*net.UDPConn, *net.UDPConn) {
	rx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		b.Fatal(err)
	}
	tx, err := net.DialUDP("udp4", nil, rx.LocalAddr().(*net.UDPAddr))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { rx.Close(); tx.Close() })
	return tx, rx
}

// BenchmarkSeal100: AES-128-GCM over 100 bytes, the cryptography of one
// DTLS record.
func BenchmarkSeal100(b *testing.B) {
	aead := newAEAD(b)
	nonce := make([]byte, aead.NonceSize())
	plain := make([]byte, payload)
	out := make([]byte, 0, payload+aead.Overhead())
	b.ReportAllocs()
	b.SetBytes(payload)
	for i := 0; b.Loop(); i++ {
		binary.BigEndian.PutUint64(nonce[4:], uint64(i))
		out = aead.Seal(out[:0], nonce, plain, nil)
	}
}

// BenchmarkDatagram: one datagram as a transport at its leanest pays for
// it: sealed, sent with one sendto, received with one recvfrom, opened.
func BenchmarkDatagram(b *testing.B) {
	aead := newAEAD(b)
	tx, rx := loopbackPair(b)
	nonce := make([]byte, aead.NonceSize())
	plain := make([]byte, payload)
	sealed := make([]byte, 0, payload+aead.Overhead())
	buf := make([]byte, 2048)
	opened := make([]byte, 0, payload)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		binary.BigEndian.PutUint64(nonce[4:], uint64(i))
		sealed = aead.Seal(sealed[:0], nonce, plain, nil)
		if _, err := tx.Write(sealed); err != nil {
			b.Fatal(err)
		}
		n, err := rx.Read(buf)
		if err != nil {
			b.Fatal(err)
		}
		if opened, err = aead.Open(opened[:0], nonce, buf[:n], nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/packet")
}

// BenchmarkDatagramBatched: the same, batch datagrams to a sendmmsg and a
// recvmmsg; reported per packet.
func BenchmarkDatagramBatched(b *testing.B) {
	aead := newAEAD(b)
	tx, rx := loopbackPair(b)
	txc, rxc := ipv4.NewPacketConn(tx), ipv4.NewPacketConn(rx)
	nonce := make([]byte, aead.NonceSize())
	plain := make([]byte, payload)
	out := make([]ipv4.Message, batch)
	in := make([]ipv4.Message, batch)
	for i := range batch {
		out[i].Buffers = [][]byte{make([]byte, 0, payload+aead.Overhead())}
		in[i].Buffers = [][]byte{make([]byte, 2048)}
	}
	opened := make([]byte, 0, payload)
	packets := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for k := range out {
			binary.BigEndian.PutUint64(nonce[4:], uint64(i*batch+k))
			out[k].Buffers[0] = aead.Seal(out[k].Buffers[0][:0], nonce, plain, nil)
		}
		for sent := 0; sent < batch; {
			n, err := txc.WriteBatch(out[sent:], 0)
			if err != nil {
				b.Fatal(err)
			}
			sent += n
		}
		for got := 0; got < batch; {
			n, err := rxc.ReadBatch(in[got:], 0)
			if err != nil {
				b.Fatal(err)
			}
			for k := got; k < got+n; k++ {
				binary.BigEndian.PutUint64(nonce[4:], uint64(i*batch+k))
				var err error
				if opened, err = aead.Open(opened[:0], nonce, in[k].Buffers[0][:in[k].N], nil); err != nil {
					b.Fatal(err)
				}
			}
			got += n
		}
		packets += batch
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(packets), "ns/packet")
}
