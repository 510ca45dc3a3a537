package interest_test

import (
	"fmt"
	"slices"

	"github.com/sightline-game/sightline/netcode/interest"
)

// Example follows one client at (500, 500) over three ticks. Entities enter
// its area within 100 units but leave only beyond 150 (a margin of 50), so
// that one walking along the edge does not flicker in and out. Each tick the
// grid is rebuilt and queried at the area's reach.
func Example() {
	names := []string{"ann", "bob", "cat"}
	ents := &interest.Entities{
		Slots:       []uint16{0, 1, 2},
		Generations: []uint16{0, 0, 0},
		Ys:          []uint32{500, 500, 900},
	}
	grid := interest.NewGrid(1000, 100)
	area := interest.NewArea(100, 50, 3)
	var near, members []int32
	for tick, xs := range [][]uint32{
		{540, 610, 500}, // ann at 40: enters; bob at 110: not yet
		{630, 590, 500}, // ann at 130: stays; bob at 90: enters
		{660, 590, 500}, // ann at 160: leaves
	} {
		ents.Xs = xs
		grid.Build(ents.Xs, ents.Ys)
		near = grid.Query(near[:0], 500, 500, area.Reach())
		members = area.Update(members[:0], ents, near, 500, 500)
		slices.Sort(near) // both come in grid-cell order
		slices.Sort(members)
		fmt.Printf("tick %d: near", tick)
		for _, e := range near {
			fmt.Printf(" %s", names[e])
		}
		fmt.Print("; sees")
		for _, e := range members {
			fmt.Printf(" %s", names[e])
		}
		fmt.Println()
	}
	// Output:
	// tick 0: near ann bob; sees ann
	// tick 1: near ann bob; sees ann bob
	// tick 2: near bob; sees bob
}

// ExampleArea_Query walks the grid's cells once for a client's area, where
// Grid.Query and Area.Update take two passes: the members are the same,
// in row order rather than the grid's cell order.
func ExampleArea_Query() {
	ents := &interest.Entities{
		Slots:       []uint16{0, 1, 2, 3},
		Generations: []uint16{0, 0, 0, 0},
		Xs:          []uint32{560, 430, 500, 900},
		Ys:          []uint32{500, 520, 580, 900},
	}
	grid := interest.NewGrid(1000, 100)
	grid.Build(ents.Xs, ents.Ys)
	byUpdate := interest.NewArea(100, 50, 4)
	near := grid.Query(nil, 500, 500, byUpdate.Reach())
	fmt.Println("Update:", byUpdate.Update(nil, ents, near, 500, 500))
	byQuery := interest.NewArea(100, 50, 4)
	fmt.Println("Query: ", byQuery.Query(nil, grid, ents, 500, 500))
	// Output:
	// Update: [1 0 2]
	// Query:  [0 1 2]
}
