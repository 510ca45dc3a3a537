package options

import (
	"flag"
	"fmt"
)

// summary is the usage text's head: what the command does and its modes.
const summary = `Sightline: the desktop game.

  game                         host a local match with 8 bots and play it
  game -host -addr :8080       host a LAN match others can join, and play it
  game -join http://HOST:8080  join a match server (cmd/server or another game's -host)
  game -browse                 start at a menu of the matches on the LAN
  game -replay FILE            play a replay (P pause, Left/Right seek, [ ] speed)
  game -broadcast URL          watch a live broadcast (http://HOST:8080/broadcast/1/)

Flags:
`

// Usage writes the usage text, the summary and then every flag of fs with
// its default, to fs's output.
func Usage(fs *flag.FlagSet) {
	fmt.Fprint(fs.Output(), summary)
	fs.PrintDefaults()
}
