package options

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Parse reads the command line's arguments (without the program's name)
// into Options. For -h, -help or --help it returns flag.ErrHelp; for a bad
// command line an error naming what is wrong.
func Parse(name string, args []string) (Options, error) {
	var o Options
	fs := FlagSet(name, &o)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, fmt.Errorf("%w: %w", ErrCommandLine, err)
	}
	return o, nil
}
