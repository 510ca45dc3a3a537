package options

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
)

// init answers a command line asking for help (-h, -help or --help, where
// a flag may stand) with the usage on stdout and exit code 0. It runs
// before the window toolkit initializes, which fails on a machine with no
// display, so help works there too.
func init() {
	if len(os.Args) < 2 {
		return
	}
	name := filepath.Base(os.Args[0])
	if _, err := Parse(name, os.Args[1:]); !errors.Is(err, flag.ErrHelp) {
		return
	}
	var o Options
	fs := FlagSet(name, &o)
	fs.SetOutput(os.Stdout)
	fs.Usage()
	os.Exit(0)
}
