package lobby

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// DefaultHTTPPort is the port a typed address without one gets: the one
// `cmd/game -host` listens on by default.
const DefaultHTTPPort = 8080

// ParseAddress turns an address typed by hand into the base URL of a match
// server: "http://HOST:PORT" (or https), with the port added when missing.
// It accepts "HOST:PORT", "HOST", "[IPv6]:PORT" and URLs with a trailing
// slash; anything with a path, query or credentials is refused.
func ParseAddress(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("type an address: http://HOST:PORT or HOST:PORT")
	}
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", fmt.Errorf("not an address: %q", s)
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%s:// is not a match server's address: use http://HOST:PORT", u.Scheme)
	case u.User != nil:
		return "", errors.New("an address with a user name is not a match server's")
	case u.Path != "" && u.Path != "/", u.RawQuery != "", u.Fragment != "":
		return "", errors.New("just the server, please: http://HOST:PORT, no path")
	}
	host := u.Hostname()
	if host == "" {
		return "", errors.New("the address has no host: http://HOST:PORT")
	}
	if strings.ContainsAny(host, " %") {
		return "", fmt.Errorf("%q is not a host name", host)
	}
	port := DefaultHTTPPort
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return "", fmt.Errorf("port %q is not a port number (1-65535)", p)
		}
		port = n
	} else if strings.HasSuffix(u.Host, ":") {
		return "", errors.New("the address ends in ':' with no port")
	}
	return u.Scheme + "://" + net.JoinHostPort(host, strconv.Itoa(port)), nil
}

// ParseJoin reads the server a player names to join (cmd/game -join): an
// address as ParseAddress takes it ("HOST:PORT", "HOST", "http://HOST:PORT"),
// or a URL with a path, such as an invite link
// ("http://RENDEZVOUS/i/CODE"), kept as given less a trailing slash;
// "http://" is added to either when the scheme is missing.
func ParseJoin(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s != "" && !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Path == "" || u.Path == "/" {
		return ParseAddress(s)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("%s:// is not a match server's address: use http://HOST:PORT", u.Scheme)
	}
	if u.Hostname() == "" {
		return "", errors.New("the address has no host: http://HOST:PORT")
	}
	return strings.TrimRight(s, "/"), nil
}
