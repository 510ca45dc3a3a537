package rendezvous

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
)

// The message types.
const (
	TypeWelcome  = "welcome"
	TypeRequest  = "request"
	TypeResponse = "response"
	TypeICE      = "ice"
	TypeRelay    = "relay"
)

// The limits of a message (ParseMessage refuses what breaks them).
const (
	MaxMessageBytes = 512 << 10 // a whole message, its body in base64 included
	MaxBodyBytes    = 256 << 10 // a request's or response's body
	MaxHeaders      = 32        // header names in a message
	MaxHeaderBytes  = 4 << 10   // the values of one header name together
	MaxPathBytes    = 256
	MaxQueryBytes   = 1024
	MaxURLBytes     = 512
	MaxICEBytes     = 16 << 10
	MaxRemoteBytes  = 64
	MaxAddrs        = 3 // a host's own addresses in a relay message
	maxAddrBytes    = 45
	codeLen         = 26 // 16 random bytes in unpadded base32
	codeAlphabet    = "abcdefghijklmnopqrstuvwxyz234567"
	maxTTLSeconds   = 24 * 3600
	minStatus       = 100
	maxStatus       = 599
	maxRequestID    = 1 << 53 // exact in JSON numbers
	allowedMethods  = "GET HEAD POST"
)

// Message is one message on a host's WebSocket; Type says which fields
// it uses.
type Message struct {
	Type string `json:"type"`
	// ID pairs a response with its request.
	ID uint64 `json:"id,omitempty"`
	// Code and URL are the invite (welcome).
	Code string `json:"code,omitempty"`
	URL  string `json:"url,omitempty"`
	// ICEServers and TTL are STUN and TURN servers the rendezvous hands the
	// host for its players, and how many seconds their credentials live
	// (welcome, ice).
	ICEServers json.RawMessage `json:"iceServers,omitempty"`
	TTL        int             `json:"ttl,omitempty"`
	// Method, Path, Query and Remote are the client's request and address
	// (request).
	Method string `json:"method,omitempty"`
	Path   string `json:"path,omitempty"`
	Query  string `json:"query,omitempty"`
	Remote string `json:"remote,omitempty"`
	// Addrs are the public IPs a host learnt for itself (STUN), which it
	// asks the rendezvous to scope its players' credentials to beside its
	// connection's (relay).
	Addrs []string `json:"addrs,omitempty"`
	// Status is the answer's (response).
	Status int `json:"status,omitempty"`
	// Header and Body are the request's or the response's.
	Header map[string][]string `json:"header,omitempty"`
	Body   []byte              `json:"body,omitempty"`
}

// ParseMessage reads a message, as hostile input.
func ParseMessage(data []byte) (Message, error) {
	if len(data) > MaxMessageBytes {
		return Message{}, fmt.Errorf("%w: %d bytes, at most %d", ErrBadMessage, len(data), MaxMessageBytes)
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		return Message{}, fmt.Errorf("%w: %v", ErrBadMessage, err)
	}
	if err := m.check(); err != nil {
		return Message{}, err
	}
	return m, nil
}

// check holds m to the rules of its type.
func (m *Message) check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: "+format, append([]any{ErrBadMessage, m.Type}, args...)...)
	}
	if len(m.Body) > MaxBodyBytes {
		return bad("body of %d bytes", len(m.Body))
	}
	if len(m.Header) > MaxHeaders {
		return bad("%d headers", len(m.Header))
	}
	for k, vs := range m.Header {
		n := len(k)
		for _, v := range vs {
			n += len(v)
		}
		if k == "" || n > MaxHeaderBytes {
			return bad("header %.40q", k)
		}
	}
	if m.TTL < 0 || m.TTL > maxTTLSeconds || len(m.ICEServers) > MaxICEBytes || m.ID > maxRequestID {
		return bad("ttl, ice servers or id out of range")
	}
	switch m.Type {
	case TypeWelcome:
		if !validCode(m.Code) || m.URL == "" || len(m.URL) > MaxURLBytes {
			return bad("code %.40q, url of %d bytes", m.Code, len(m.URL))
		}
	case TypeRequest:
		if !strings.Contains(allowedMethods, m.Method) || m.Method == "" || strings.Contains(m.Method, " ") {
			return bad("method %.20q", m.Method)
		}
		if !strings.HasPrefix(m.Path, "/") || len(m.Path) > MaxPathBytes || len(m.Query) > MaxQueryBytes || len(m.Remote) > MaxRemoteBytes {
			return bad("path %.40q, query or remote too long", m.Path)
		}
	case TypeResponse:
		if m.Status < minStatus || m.Status > maxStatus {
			return bad("status %d", m.Status)
		}
	case TypeICE:
		if len(m.ICEServers) == 0 {
			return bad("no ice servers")
		}
	case TypeRelay:
		if len(m.Addrs) > MaxAddrs {
			return bad("%d addresses, at most %d", len(m.Addrs), MaxAddrs)
		}
		for _, a := range m.Addrs {
			if ip, err := netip.ParseAddr(a); len(a) > maxAddrBytes || err != nil || ip.Zone() != "" {
				return bad("address %.50q", a)
			}
		}
	default:
		return fmt.Errorf("%w: type %.20q", ErrBadMessage, m.Type)
	}
	return nil
}

// validCode reports whether s is an invite code's form.
func validCode(s string) bool {
	if len(s) != codeLen {
		return false
	}
	for i := range len(s) {
		if !strings.ContainsRune(codeAlphabet, rune(s[i])) {
			return false
		}
	}
	return true
}
