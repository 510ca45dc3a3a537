package varint_test

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/sightline-game/sightline/netcode/varint"
)

// ExampleRead reads a number written by binary.AppendUvarint, bounded by the
// largest value the field may hold, and refuses what a hostile sender could
// make of it: a number over the bound, one not in shortest form, and one cut
// short.
func ExampleRead() {
	p := binary.AppendUvarint(nil, 300)
	v, n, err := varint.Read(p, 1000)
	fmt.Println(v, n, err, varint.Len(300))

	_, _, err = varint.Read(p, 255)
	fmt.Println(errors.Is(err, varint.ErrMalformed))
	_, _, err = varint.Read([]byte{0x81, 0x00}, 1000) // 1 in two bytes
	fmt.Println(errors.Is(err, varint.ErrMalformed))
	_, _, err = varint.Read(p[:1], 1000)
	fmt.Println(errors.Is(err, varint.ErrShort))
	// Output:
	// 300 2 <nil> 2
	// true
	// true
	// true
}
