// Package options is the desktop game's command line: its flags, their
// defaults and its usage text.
//
// It imports only the standard library, so that it is initialized before
// the window toolkit: asked for help (-h, -help or --help), its init prints
// the usage on stdout and exits 0, on a machine with no display too, where
// the toolkit's own initialization would fail.
package options
