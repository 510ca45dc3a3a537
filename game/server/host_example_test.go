package server_test

import (
	"fmt"

	"github.com/sightline-game/sightline/game/arena"
	"github.com/sightline-game/sightline/game/server"
)

// A server hosting two matches of 8 seats, each with 4 bots, picks the
// match an arriving player joins: the one named, or the fullest with room.
func ExampleHost_Pick() {
	var ms []server.Hosted
	for i, id := range []string{"1", "2"} {
		w, err := arena.NewWorld(arena.Config{Seed: uint64(i + 1), MaxPlayers: 8})
		if err != nil {
			panic(err)
		}
		srv, err := server.New(server.Config{MaxClients: 8}, server.NewMatch(w))
		if err != nil {
			panic(err)
		}
		ms = append(ms, server.Hosted{ID: id, Name: "Match " + id, Server: srv, Bots: 4})
	}
	host, err := server.NewHost(ms...)
	if err != nil {
		panic(err)
	}
	people := map[string]int{"1": 1, "2": 3} // connected or joining
	count := func(id string) int { return people[id] }
	for _, asked := range []string{"", "1", "2", "7"} {
		id, err := host.Pick(asked, count)
		fmt.Printf("asked %q: %q %v\n", asked, id, err)
		if err == nil {
			people[id]++
		}
	}
	// Output:
	// asked "": "2" <nil>
	// asked "1": "1" <nil>
	// asked "2": "" match "2" is full: match full
	// asked "7": "" no match "7" on this server (GET /matches lists them): no such match
}
