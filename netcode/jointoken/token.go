package jointoken

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/chacha20poly1305"
)

// Limits of a token's fields and text.
const (
	// Version is the token format this package mints and opens.
	Version = 1
	// MaxMatch, MaxName and MaxServer bound the claims' strings, in bytes.
	MaxMatch  = 64
	MaxName   = 64
	MaxServer = 255
	// MaxText bounds a token's text: a longer one is refused unread.
	MaxText = 1024
	// DefaultTTL is how long a token minted without a TTL lives.
	DefaultTTL = 30 * time.Second

	nonceSize = chacha20poly1305.NonceSizeX
	idSize    = 16
	tagSize   = chacha20poly1305.Overhead
)

// Key is the secret a backend and its servers share.
type Key [chacha20poly1305.KeySize]byte

// ParseKey reads a key written as 64 hex digits (surrounding space is
// ignored). An all-zero key, which a mistaken setup might write and
// anyone could guess, is refused.
func ParseKey(text string) (Key, error) {
	var k Key
	b, err := hex.DecodeString(strings.TrimSpace(text))
	if err != nil || len(b) != len(k) {
		return k, ErrBadKey
	}
	copy(k[:], b)
	if k == (Key{}) {
		return Key{}, ErrBadKey
	}
	return k, nil
}

// LoadKey reads the key in the file at path (see ParseKey).
func LoadKey(path string) (Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Key{}, fmt.Errorf("jointoken: %w", err)
	}
	k, err := ParseKey(string(b))
	if err != nil {
		return Key{}, fmt.Errorf("jointoken: %s: %w", path, err)
	}
	return k, nil
}

// NewKey returns a random key, as 64 hex digits go into a key file with
// its String.
func NewKey() (Key, error) {
	var k Key
	if _, err := io.ReadFull(rand.Reader, k[:]); err != nil {
		return k, fmt.Errorf("jointoken: %w", err)
	}
	return k, nil
}

// String returns the key as 64 hex digits.
func (k Key) String() string { return hex.EncodeToString(k[:]) }

// Claims are what a token says.
type Claims struct {
	// Match is the id of the match the token joins; empty: any.
	Match string
	// Name is the player's name in the match.
	Name string
	// Player is the player's id, as the backend knows it.
	Player uint64
	// Server is the host:port of the server the token is good for; empty:
	// any of the key's servers.
	Server string
	// Expires is when the token stops being good (to the second).
	Expires time.Time
	// ID is the token's random id; a server admits each once.
	ID [idSize]byte
}

// Mint seals c with key into a token. A zero c.ID gets a random id, a
// zero c.Expires DefaultTTL from now.
func Mint(key Key, c Claims) (string, error) {
	if len(c.Match) > MaxMatch || len(c.Name) > MaxName || len(c.Server) > MaxServer {
		return "", fmt.Errorf("jointoken: mint: match, name or server too long (limits %d, %d, %d bytes)", MaxMatch, MaxName, MaxServer)
	}
	if c.ID == ([idSize]byte{}) {
		if _, err := io.ReadFull(rand.Reader, c.ID[:]); err != nil {
			return "", fmt.Errorf("jointoken: mint: %w", err)
		}
	}
	if c.Expires.IsZero() {
		c.Expires = time.Now().Add(DefaultTTL)
	}
	aead, err := chacha20poly1305.NewX(key[:])
	if err != nil {
		return "", fmt.Errorf("jointoken: mint: %w", err)
	}
	b := make([]byte, 1+nonceSize, 1+nonceSize+8+idSize+3*binary.MaxVarintLen64+len(c.Match)+len(c.Name)+len(c.Server)+tagSize)
	b[0] = Version
	if _, err := io.ReadFull(rand.Reader, b[1:1+nonceSize]); err != nil {
		return "", fmt.Errorf("jointoken: mint: %w", err)
	}
	plain := appendClaims(nil, c)
	b = aead.Seal(b, b[1:1+nonceSize], plain, b[:1])
	return base64.RawURLEncoding.EncodeToString(b), nil
}

func appendClaims(dst []byte, c Claims) []byte {
	dst = binary.BigEndian.AppendUint64(dst, uint64(c.Expires.Unix()))
	dst = append(dst, c.ID[:]...)
	dst = binary.AppendUvarint(dst, c.Player)
	for _, s := range []string{c.Match, c.Name, c.Server} {
		dst = binary.AppendUvarint(dst, uint64(len(s)))
		dst = append(dst, s...)
	}
	return dst
}

// Open opens token with key and returns its claims; it checks nothing
// they say (see Checker).
func Open(key Key, token string) (Claims, error) {
	if token == "" {
		return Claims{}, ErrMissing
	}
	if len(token) > MaxText {
		return Claims{}, fmt.Errorf("%w: %d characters, at most %d", ErrMalformed, len(token), MaxText)
	}
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return Claims{}, fmt.Errorf("%w: not base64url", ErrMalformed)
	}
	if len(b) < 1+nonceSize+tagSize {
		return Claims{}, fmt.Errorf("%w: %d bytes", ErrMalformed, len(b))
	}
	if b[0] != Version {
		return Claims{}, fmt.Errorf("%w: %d (this server reads %d)", ErrVersion, b[0], Version)
	}
	aead, err := chacha20poly1305.NewX(key[:])
	if err != nil {
		return Claims{}, fmt.Errorf("jointoken: %w", err)
	}
	plain, err := aead.Open(nil, b[1:1+nonceSize], b[1+nonceSize:], b[:1])
	if err != nil {
		return Claims{}, ErrForged
	}
	return parseClaims(plain)
}

// parseClaims reads the claims' encoding (see the package documentation).
func parseClaims(p []byte) (Claims, error) {
	var c Claims
	if len(p) < 8+idSize {
		return c, fmt.Errorf("%w: claims of %d bytes", ErrMalformed, len(p))
	}
	secs := int64(binary.BigEndian.Uint64(p))
	c.Expires = time.Unix(secs, 0)
	copy(c.ID[:], p[8:8+idSize])
	p = p[8+idSize:]
	player, n := uvarint(p)
	if n == 0 {
		return c, fmt.Errorf("%w: player id", ErrMalformed)
	}
	c.Player, p = player, p[n:]
	fields := [...]struct {
		dst   *string
		limit int
		what  string
	}{{&c.Match, MaxMatch, "match"}, {&c.Name, MaxName, "name"}, {&c.Server, MaxServer, "server"}}
	for _, f := range fields {
		l, n := uvarint(p)
		if n == 0 || l > uint64(f.limit) || l > uint64(len(p)-n) {
			return c, fmt.Errorf("%w: %s", ErrMalformed, f.what)
		}
		*f.dst, p = string(p[n:n+int(l)]), p[n+int(l):]
	}
	if len(p) != 0 {
		return c, fmt.Errorf("%w: %d bytes after the claims", ErrMalformed, len(p))
	}
	return c, nil
}

// uvarint reads a shortest-form varint at the start of p and returns it
// with its length, or n 0 if there is none.
func uvarint(p []byte) (v uint64, n int) {
	v, n = binary.Uvarint(p)
	if n <= 0 || (n > 1 && p[n-1] == 0) {
		return 0, 0
	}
	return v, n
}
