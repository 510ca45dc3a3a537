// Command token mints a join token for a match server run with
// -token-key: what a host's backend calls (or copies) once it has allocated
// a server, one token per player, handed to the player with the server's
// address.
//
//	token -key FILE -match ID -name NAME [-ttl 30s] [-server HOST:PORT] [-player N]
//	token -new-key FILE
//
// It prints the token on one line. A player joins with it from the desktop
// game (game -join URL -token TOKEN), the browser (URL/?token=TOKEN) or the
// load tester (which mints its own with -token-key). -new-key writes a new
// random key (64 hex digits) to FILE, for the backend and the servers to
// share (in a fleet, as a Kubernetes Secret).
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/sightline-game/sightline/netcode/jointoken"
)

func main() {
	keyFile := flag.String("key", "", "the file holding the servers' key (64 hex digits)")
	newKey := flag.String("new-key", "", "write a new random key to this file (mode 0600) and exit")
	match := flag.String("match", "", "the match the token joins (an id from the server's /matches); empty: any")
	name := flag.String("name", "", "the player's name in the match")
	player := flag.Uint64("player", 0, "the player's id, as the backend knows it")
	server := flag.String("server", "", "host:port of the one server the token is good for; empty: any of the key's servers")
	ttl := flag.Duration("ttl", jointoken.DefaultTTL, "how long the token may be used to join")
	flag.Parse()
	if err := run(*keyFile, *newKey, jointoken.Claims{Match: *match, Name: *name, Player: *player, Server: *server}, *ttl); err != nil {
		fmt.Fprintln(os.Stderr, "token:", err)
		os.Exit(2)
	}
}

func run(keyFile, newKey string, c jointoken.Claims, ttl time.Duration) error {
	if newKey != "" {
		k, err := jointoken.NewKey()
		if err != nil {
			return err
		}
		return os.WriteFile(newKey, []byte(k.String()+"\n"), 0o600)
	}
	if keyFile == "" {
		return errors.New("-key is required (or -new-key to make one)")
	}
	if ttl <= 0 {
		return fmt.Errorf("-ttl %v: must be positive", ttl)
	}
	key, err := jointoken.LoadKey(keyFile)
	if err != nil {
		return err
	}
	c.Expires = time.Now().Add(ttl)
	tok, err := jointoken.Mint(key, c)
	if err != nil {
		return err
	}
	fmt.Println(tok)
	return nil
}
