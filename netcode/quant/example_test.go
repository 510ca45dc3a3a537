package quant_test

import (
	"fmt"
	"math"

	"github.com/sightline-game/sightline/netcode/quant"
)

// ExampleLinear quantizes a coordinate of a 0..1000 map to steps of 1/8:
// 8001 steps need 13 bits. The round trip is off by at most half a step, and
// values off the map are clamped to its edge.
func ExampleLinear() {
	q := quant.MustLinear(0, 1000, 0.125)
	fmt.Println("bits:", q.Bits(), "top:", q.Top())
	for _, v := range []float64{0, 123.456, 1000, -5, 2000} {
		s := q.Quantize(v)
		fmt.Printf("%8.3f -> %4d -> %8.3f\n", v, s, q.Dequantize(s))
	}
	// Output:
	// bits: 13 top: 8000
	//    0.000 ->    0 ->    0.000
	//  123.456 ->  988 ->  123.500
	// 1000.000 -> 8000 -> 1000.000
	//   -5.000 ->    0 ->    0.000
	// 2000.000 -> 8000 -> 1000.000
}

// ExampleAngle quantizes headings to 8 bits (256 steps a turn). Angles wrap:
// -90 degrees and 270 degrees are the same step, and Diff goes the short way
// round.
func ExampleAngle() {
	a := quant.MustAngle(8)
	deg := func(s uint32) float64 { return a.Dequantize(s) * 180 / math.Pi }
	west, south := a.Quantize(-math.Pi/2), a.Quantize(3*math.Pi/2)
	fmt.Println(west, south, deg(west))
	nearlyEast := a.Quantize(2*math.Pi - 0.05)
	fmt.Println(nearlyEast, a.Diff(nearlyEast, a.Quantize(0.05)))
	// Output:
	// 192 192 270
	// 254 4
}
