// Package clipboard puts text on the system clipboard and reads it back:
// the pause menu's "Copy join link".
//
// Each platform through its own means: on Linux and the BSDs the
// clipboard program of the session (wl-copy and wl-paste under Wayland,
// else xclip or xsel under X11), which stays in the background serving
// the text as an X11 or Wayland clipboard owner must; pbcopy and pbpaste
// on macOS; clip.exe and PowerShell's Get-Clipboard on Windows; the
// Clipboard API (navigator.clipboard) in a browser. Where none is there,
// Write and Read return ErrUnavailable, saying what to install.
package clipboard
