package lobby

import "errors"

// errNothingToWatch is the watch key's answer on the "host a match" row.
var errNothingToWatch = errors.New("choose a match to watch: the host row starts a match of your own")
