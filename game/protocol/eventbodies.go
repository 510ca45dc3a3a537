package protocol

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/sightline-game/sightline/netcode/events"
	"github.com/sightline-game/sightline/netcode/varint"
)

// The kinds of events a match sends (and a client's join and chat). The
// events package frames them without knowing them; KindWelcome (16) is the
// server's first event to each client.
const (
	KindHit       events.Kind = iota + 1 // body: Hit
	KindKill                             // body: Kill
	KindJoin                             // body: Join
	KindLeave                            // body: Leave
	KindChat                             // body: Chat
	KindRoundOver                        // body: RoundOver
)

// KindName returns the name of one of the game's event kinds, or "Kind(n)"
// for another.
func KindName(k events.Kind) string {
	switch k {
	case KindHit:
		return "hit"
	case KindKill:
		return "kill"
	case KindJoin:
		return "join"
	case KindLeave:
		return "leave"
	case KindChat:
		return "chat"
	case KindRoundOver:
		return "round-over"
	case KindWatch:
		return "watch"
	case KindWelcome:
		return "welcome"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Limits of the bodies.
const (
	// MaxJoinNameBytes is the longest name a Join body may carry on the
	// wire. The names the game gives are shorter (arena.MaxNameBytes): a
	// client cuts its name before sending it, and the server cuts it again.
	MaxJoinNameBytes = 64
)

// Hit is the body of a KindHit event: Attacker's shot or blow took Damage
// health from Target.
type Hit struct {
	Attacker, Target uint32 // player ids
	Damage           uint16
	// Shot is the sequence number of the attacker's input that fired the
	// projectile: 0 for a creature's bite. The shooter's client knows by
	// it which of its predicted shots hit.
	Shot uint32
}

// Kill is the body of a KindKill event: Killer's blow (0: a creature's
// bite) killed Victim with Weapon, and how the server judged that blow
// (since version 7), so that the victim's client can show it (the
// killcam).
type Kill struct {
	Killer, Victim uint32 // player ids
	Weapon         uint8
	// Judged says how the blow was judged: JudgedRewound, JudgedBounded,
	// JudgedClamped (bits 0 to 2; the others are 0).
	Judged uint8
	// Behind is how far before the kill's tick the moment of the world
	// the blow was judged against lies, in 256ths of a tick (at most
	// MaxJudgedBehind); 0 for a blow judged in the present. For a shot
	// judged in the past that moment is the view its shooter drew when
	// firing (as the server bounded it) plus the projectile's flight to
	// the hit: Behind is how far the killer's screen drew the victim
	// behind the server.
	Behind uint16
	// X and Y are where the victim stood at that moment as the server's
	// hit test placed it, in the snapshot's quantized units (PosQuant,
	// section 4.1), at most PosQuant.Top().
	X, Y uint16
	// By is the slot of the killer's entity plus one (the shooter's
	// player, the biting creature), so that a client can find it in its
	// snapshots; 0 when it is unknown (a shooter who left).
	By uint32
}

// A Kill's Judged bits.
const (
	// JudgedRewound: the blow was judged in the past, against the victim
	// as the killer's screen drew it (lag compensation).
	JudgedRewound uint8 = 1 << iota
	// JudgedBounded: the killer claimed a view older than the server's
	// estimate of it; the flight was judged from the estimate.
	JudgedBounded
	// JudgedClamped: the killer claimed a view older than the rewind cap;
	// it was cut to the cap.
	JudgedClamped

	judgedBits = JudgedRewound | JudgedBounded | JudgedClamped
)

// MaxJudgedBehind is the largest Behind a Kill carries: 255 ticks and
// 255/256 (a server's rewind is at most arena.MaxRewindTicks, a second).
const MaxJudgedBehind = math.MaxUint16

// Join is the body of a KindJoin event: a player joined. Name is at most
// MaxJoinNameBytes bytes; pass it through CleanChat before showing it.
type Join struct {
	Player uint32
	Name   string
}

// Why a player left, in a Leave body.
const (
	LeaveQuit    uint8 = iota // the player quit
	LeaveTimeout              // the connection timed out or failed
	LeaveKicked               // the server disconnected the player
)

// Leave is the body of a KindLeave event. Reason is one of the Leave
// constants; other values are carried as they are.
type Leave struct {
	Player uint32
	Reason uint8
}

// Chat is the body of a KindChat event: a line of text from player From, at
// most MaxChatBytes bytes. The decoder checks only the length: servers pass
// every line a client sends through CleanChat before relaying it, and
// clients may do the same before showing one.
type Chat struct {
	From uint32
	Text string
}

// RoundOver is the body of a KindRoundOver event.
type RoundOver struct {
	Round  uint32
	Winner uint32 // the player id with the highest score, 0 if nobody scored
}

// Body encodings: unsigned LEB128 varints in shortest form for numbers, one
// byte for Weapon and Reason, a varint length and the bytes for text.
//
//	Hit        attacker, target, damage (< 2^16), shot
//	Kill       killer, victim, weapon byte, judged byte (bits 0-2),
//	           behind (< 2^16), x, y (<= PosQuant.Top()), by (<= 2^16)
//	Join       player, name length (<= MaxJoinNameBytes), name
//	Leave      player, reason byte
//	Chat       from, text length (<= MaxChatBytes), text
//	RoundOver  round, winner

// AppendHit appends the body of a Hit.
func AppendHit(dst []byte, h Hit) []byte {
	dst = binary.AppendUvarint(dst, uint64(h.Attacker))
	dst = binary.AppendUvarint(dst, uint64(h.Target))
	dst = binary.AppendUvarint(dst, uint64(h.Damage))
	return binary.AppendUvarint(dst, uint64(h.Shot))
}

// AppendKill appends the body of a Kill.
func AppendKill(dst []byte, k Kill) []byte {
	dst = binary.AppendUvarint(dst, uint64(k.Killer))
	dst = binary.AppendUvarint(dst, uint64(k.Victim))
	dst = append(dst, k.Weapon, k.Judged)
	dst = binary.AppendUvarint(dst, uint64(k.Behind))
	dst = binary.AppendUvarint(dst, uint64(k.X))
	dst = binary.AppendUvarint(dst, uint64(k.Y))
	return binary.AppendUvarint(dst, uint64(k.By))
}

// AppendJoin appends the body of a Join. A name longer than
// MaxJoinNameBytes is a programming error and panics.
func AppendJoin(dst []byte, j Join) []byte {
	dst = binary.AppendUvarint(dst, uint64(j.Player))
	return appendText(dst, j.Name, MaxJoinNameBytes)
}

// AppendLeave appends the body of a Leave.
func AppendLeave(dst []byte, l Leave) []byte {
	dst = binary.AppendUvarint(dst, uint64(l.Player))
	return append(dst, l.Reason)
}

// AppendChat appends the body of a Chat. Text longer than MaxChatBytes is a
// programming error and panics: pass user input through CleanChat first.
func AppendChat(dst []byte, c Chat) []byte {
	dst = binary.AppendUvarint(dst, uint64(c.From))
	return appendText(dst, c.Text, MaxChatBytes)
}

// AppendRoundOver appends the body of a RoundOver.
func AppendRoundOver(dst []byte, r RoundOver) []byte {
	dst = binary.AppendUvarint(dst, uint64(r.Round))
	return binary.AppendUvarint(dst, uint64(r.Winner))
}

func appendText(dst []byte, s string, limit int) []byte {
	if len(s) > limit {
		panic(fmt.Sprintf("protocol: text of %d bytes, at most %d", len(s), limit))
	}
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// bodyReader reads the fields of an event body; its first error sticks. It
// allocates only to report an error.
type bodyReader struct {
	p   []byte
	err error
}

func (r *bodyReader) uvarint(max uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n, err := varint.Read(r.p, max)
	if err != nil {
		r.err = fmt.Errorf("%w: %w", ErrEventBody, err)
		return 0
	}
	r.p = r.p[n:]
	return v
}

func (r *bodyReader) byte() byte {
	if r.err != nil {
		return 0
	}
	if len(r.p) == 0 {
		r.err = fmt.Errorf("%w: body cut", ErrEventBody)
		return 0
	}
	b := r.p[0]
	r.p = r.p[1:]
	return b
}

// text returns the bytes of a length-prefixed text, aliasing the input.
func (r *bodyReader) text(limit int) []byte {
	n := r.uvarint(uint64(limit))
	if r.err != nil {
		return nil
	}
	if uint64(len(r.p)) < n {
		r.err = fmt.Errorf("%w: text of %d bytes, %d left", ErrEventBody, n, len(r.p))
		return nil
	}
	t := r.p[:n]
	r.p = r.p[n:]
	return t
}

// done returns the first error, or an error if bytes are left over.
func (r *bodyReader) done() error {
	if r.err == nil && len(r.p) > 0 {
		r.err = fmt.Errorf("%w: %d bytes after the body", ErrEventBody, len(r.p))
	}
	return r.err
}

// ParseHit decodes a Hit body.
func ParseHit(b []byte) (Hit, error) {
	r := bodyReader{p: b}
	h := Hit{
		Attacker: uint32(r.uvarint(math.MaxUint32)),
		Target:   uint32(r.uvarint(math.MaxUint32)),
		Damage:   uint16(r.uvarint(math.MaxUint16)),
		Shot:     uint32(r.uvarint(math.MaxUint32)),
	}
	if err := r.done(); err != nil {
		return Hit{}, err
	}
	return h, nil
}

func readKill(r *bodyReader) Kill {
	k := Kill{
		Killer: uint32(r.uvarint(math.MaxUint32)),
		Victim: uint32(r.uvarint(math.MaxUint32)),
		Weapon: r.byte(),
		Judged: r.byte(),
		Behind: uint16(r.uvarint(MaxJudgedBehind)),
		X:      uint16(r.uvarint(uint64(PosQuant.Top()))),
		Y:      uint16(r.uvarint(uint64(PosQuant.Top()))),
		By:     uint32(r.uvarint(1 << 16)),
	}
	if r.err == nil && k.Judged&^judgedBits != 0 {
		r.err = fmt.Errorf("%w: kill judged bits %#02x, only bits 0-2 defined", ErrEventBody, k.Judged)
	}
	return k
}

// ParseKill decodes a Kill body.
func ParseKill(b []byte) (Kill, error) {
	r := bodyReader{p: b}
	k := readKill(&r)
	if err := r.done(); err != nil {
		return Kill{}, err
	}
	return k, nil
}

func readJoin(r *bodyReader) (uint32, []byte) {
	return uint32(r.uvarint(math.MaxUint32)), r.text(MaxJoinNameBytes)
}

// ParseJoin decodes a Join body.
func ParseJoin(b []byte) (Join, error) {
	r := bodyReader{p: b}
	player, name := readJoin(&r)
	if err := r.done(); err != nil {
		return Join{}, err
	}
	return Join{Player: player, Name: string(name)}, nil
}

// ParseLeave decodes a Leave body.
func ParseLeave(b []byte) (Leave, error) {
	r := bodyReader{p: b}
	l := Leave{Player: uint32(r.uvarint(math.MaxUint32)), Reason: r.byte()}
	if err := r.done(); err != nil {
		return Leave{}, err
	}
	return l, nil
}

func readChat(r *bodyReader) (uint32, []byte) {
	return uint32(r.uvarint(math.MaxUint32)), r.text(MaxChatBytes)
}

// ParseChat decodes a Chat body. The text is returned as sent: clean it
// with CleanChat before relaying or showing it.
func ParseChat(b []byte) (Chat, error) {
	r := bodyReader{p: b}
	from, text := readChat(&r)
	if err := r.done(); err != nil {
		return Chat{}, err
	}
	return Chat{From: from, Text: string(text)}, nil
}

// ParseRoundOver decodes a RoundOver body.
func ParseRoundOver(b []byte) (RoundOver, error) {
	r := bodyReader{p: b}
	ro := RoundOver{Round: uint32(r.uvarint(math.MaxUint32)), Winner: uint32(r.uvarint(math.MaxUint32))}
	if err := r.done(); err != nil {
		return RoundOver{}, err
	}
	return ro, nil
}

// ValidateEventBody checks that body is a well-formed body for kind k,
// without allocating: the events.Validator both ends give their Outbox and
// Inbox, so every event an Inbox delivers has a body its Parse function
// accepts. Kinds other than KindHit to KindWatch (the welcome
// included) are not checked; kind 0 never reaches it (the events package
// refuses it).
func ValidateEventBody(k events.Kind, body []byte) error {
	r := bodyReader{p: body}
	switch k {
	case KindHit:
		r.uvarint(math.MaxUint32)
		r.uvarint(math.MaxUint32)
		r.uvarint(math.MaxUint16)
		r.uvarint(math.MaxUint32)
	case KindRoundOver:
		r.uvarint(math.MaxUint32)
		r.uvarint(math.MaxUint32)
	case KindKill:
		readKill(&r)
	case KindJoin:
		readJoin(&r)
	case KindLeave:
		r.uvarint(math.MaxUint32)
		r.byte()
	case KindChat:
		readChat(&r)
	case KindWatch:
		readWatch(&r)
	default:
		return nil
	}
	return r.done()
}
