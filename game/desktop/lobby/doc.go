// Package lobby is the pure part of the desktop client's start menu: the
// list of matches heard on the LAN (sorted, with a selection that follows
// its match as the list changes), the address typed by hand and what it
// parses to, what Enter does, and the pinger that measures each listed
// match's round trip. It draws nothing and links no Ebitengine, so it is
// tested without a display; package desktop reads the keys and draws it.
package lobby
