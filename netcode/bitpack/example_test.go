package bitpack_test

import (
	"fmt"

	"github.com/sightline-game/sightline/netcode/bitpack"
)

// Example packs four fields of odd widths (5, 11, 1 and 3 bits: 20 in all)
// into three bytes and reads them back in the same order and widths.
func Example() {
	w := bitpack.NewWriter(nil)
	w.Write(21, 5)    // a player index, 0..31
	w.Write(1500, 11) // an x coordinate, 0..2047
	w.WriteBool(true) // alive
	w.Write(6, 3)     // a weapon, 0..7
	buf := w.Bytes()
	fmt.Printf("%d bits in %d bytes\n", w.BitLen(), len(buf))

	r := bitpack.NewReader(buf)
	index, x, alive, weapon := r.Read(5), r.Read(11), r.ReadBool(), r.Read(3)
	fmt.Println(index, x, alive, weapon, r.Err())
	fmt.Println("only padding left:", r.AtPadding())
	// Output:
	// 24 bits in 3 bytes
	// 21 1500 true 6 <nil>
	// only padding left: true
}

// ExampleWriter_WriteGamma shows the Exp-Golomb code of order 0: the smaller
// the value, the fewer the bits.
func ExampleWriter_WriteGamma() {
	for _, v := range []uint32{0, 1, 2, 6, 1000} {
		fmt.Printf("%4d: %2d bits\n", v, bitpack.GammaLen(v, 0))
	}
	w := bitpack.NewWriter(nil)
	w.WriteGamma(1000, 0)
	w.WriteGamma(bitpack.Zigzag(-3), 0) // a small signed delta
	r := bitpack.NewReader(w.Bytes())
	fmt.Println(r.ReadGamma(0), bitpack.Unzigzag(r.ReadGamma(0)))
	// Output:
	//    0:  1 bits
	//    1:  3 bits
	//    2:  3 bits
	//    6:  5 bits
	// 1000: 19 bits
	// 1000 -3
}

// ExampleNewCode makes a prefix code from codeword lengths: symbol 0, the
// most frequent, gets one bit. Two ends that share the lengths share the code.
func ExampleNewCode() {
	code := bitpack.MustCode(1, 2, 3, 3) // codewords 0, 10, 110, 111
	w := bitpack.NewWriter(nil)
	for _, s := range []int{0, 0, 3, 1, 0} {
		w.WriteCode(code, s)
	}
	fmt.Println(w.BitLen(), "bits")
	r := bitpack.NewReader(w.Bytes())
	for range 5 {
		fmt.Print(r.ReadCode(code), " ")
	}
	fmt.Println(r.Err())
	// Output:
	// 8 bits
	// 0 0 3 1 0 <nil>
}

// ExampleWriter_WriteLengthCode writes values as the codeword of their bit
// length, then the bits below their leading one: with a code that favours
// short lengths, small values are cheap and any value fits.
func ExampleWriter_WriteLengthCode() {
	// Bit lengths 0 to 8: lengths 1 and 2 are the usual ones.
	code := bitpack.MustCode(3, 2, 1, 4, 5, 6, 7, 8, 8)
	for _, v := range []uint32{0, 1, 2, 3, 200} {
		w := bitpack.NewWriter(nil)
		w.WriteLengthCode(code, v)
		fmt.Printf("%3d: %2d bits\n", v, w.BitLen())
	}
	// Output:
	//   0:  3 bits
	//   1:  2 bits
	//   2:  2 bits
	//   3:  2 bits
	// 200: 15 bits
}
