package clipboard

import "errors"

// ErrUnavailable is a system with no clipboard this package can reach: no
// display, or none of the clipboard programs installed.
var ErrUnavailable = errors.New("no clipboard")

// ErrRefused is a clipboard that was there but refused the text (the
// program failed, or the browser denied the permission).
var ErrRefused = errors.New("the clipboard refused")
