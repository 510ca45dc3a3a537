// Command token mints a join token for a match server run with
// -token-key: what a host's backend calls (or copies) once it has allocated
// a server, one token per player, handed to the player with the server's
// address.
//
//	token -key FILE -server HOST:PORT|any -match ID -name NAME [-ttl 30s] [-player N]
//	token -new-key FILE
//
// It prints the token on one line. A player joins with it from the desktop
// game (game -join URL -token TOKEN), the browser (URL/?token=TOKEN) or the
// load tester (which mints its own with -token-key). -new-key writes a new
// random key (64 hex digits) to FILE, for the backend and the servers to
// share (in a fleet, as a Kubernetes Secret); it never overwrites a file.
// A -ttl beyond what servers accept (10 minutes) is refused. -server names
// the one server the token joins; a token for any server that holds the
// key (every server of a fleet) takes -server any, said explicitly.
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
	server := flag.String("server", "", "host:port of the one server the token is good for (required; \"any\": any server that holds the key, every server of a fleet)")
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
		// A new file only, mode 0600: overwriting a key would lock every
		// player out of the servers that hold the old one.
		f, err := os.OpenFile(newKey, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return fmt.Errorf("-new-key: %w", err)
		}
		if _, err := f.WriteString(k.String() + "\n"); err != nil {
			f.Close()
			return fmt.Errorf("-new-key: %w", err)
		}
		return f.Close()
	}
	if keyFile == "" {
		return errors.New("-key is required (or -new-key to make one)")
	}
	if ttl <= 0 {
		return fmt.Errorf("-ttl %v: must be positive", ttl)
	}
	switch c.Server {
	case "":
		return errors.New("-server is required: the host:port of the server the token joins, or \"any\" for any server that holds the key")
	case "any":
		c.Server = ""
	}
	if ttl > jointoken.DefaultMaxTTL {
		return fmt.Errorf("-ttl %v: servers refuse a token that expires more than %v ahead", ttl, jointoken.DefaultMaxTTL)
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
