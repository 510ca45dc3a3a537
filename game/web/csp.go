package web

import (
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"
)

// inlineScript finds a page's inline scripts: a <script> without
// attributes, and its text.
var inlineScript = regexp.MustCompile(`(?s)<script>(.*?)</script>`)

// PagePolicy is the Content-Security-Policy a page is served under where
// it must run nothing but itself (under a rendezvous's invite links): its
// own origin's scripts and the inline scripts page holds, each by its
// SHA-256, WebAssembly compiled from its own origin ('wasm-unsafe-eval'),
// requests to its own origin only, inline styles (the page's and those its
// scripts set), images from itself and data: URLs (the icon), and no
// plugins, frames, forms or base URL.
func PagePolicy(page []byte) string {
	var hashes strings.Builder
	for _, m := range inlineScript.FindAllSubmatch(page, -1) {
		sum := sha256.Sum256(m[1])
		hashes.WriteString(" 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'")
	}
	return "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'" + hashes.String() +
		"; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
