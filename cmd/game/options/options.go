package options

import (
	"flag"
	"time"
)

// DefaultLANPort is the UDP port of the LAN beacons unless -lan-port says
// otherwise (the same as netcode/lan.DefaultPort).
const DefaultLANPort = 47800

// Options are the command line's settings.
type Options struct {
	// Join is the match server's address or invite link to join (-join).
	Join string
	// Watch is the match server's address or invite link to watch,
	// without playing (-watch).
	Watch string
	// Replay is a replay file to play (-replay), Broadcast the base URL of
	// a live broadcast to watch (-broadcast): as a spectator, through the
	// game's own decoder.
	Replay    string
	Broadcast string
	// ReplaySpeed is the speed a replay starts at, 0.25-4 (-replay-speed).
	ReplaySpeed float64
	// ReplayAt is how far into a replay it starts (-replay-at).
	ReplayAt time.Duration
	// Spectate is set by the caller when Join came from Watch.
	Spectate bool
	// Follow is the player a spectator follows from the start (-follow;
	// 0: the leader).
	Follow uint
	// Match is the match to join on a server hosting several (-match).
	Match string
	// Token is the join token for a server admitting only invited players (-token).
	Token string
	// Addr is the HTTP address where LAN players join a hosted match (-addr).
	Addr string
	// WebDir is the browser build a hosted match serves at / (-web).
	WebDir string
	// MatchName names the hosted match on the LAN (-match-name).
	MatchName string
	// Name is the player's name for this run (-name).
	Name string
	// Screenshot is the PNG to save the frame drawn at ExitAfter in (-screenshot).
	Screenshot string
	// Level is the log level: debug, info, warn or error (-log-level).
	Level string
	// ExitWhen is what ends a timed run sooner (-exit-when).
	ExitWhen string
	// Invite is the rendezvous URL to host through (-invite).
	Invite string
	// Replays is the folder that keeps each match hosted here as a replay
	// and that the LAN menu lists (-replays; "" the config folder's
	// replays, "off" none).
	Replays string
	// Relay lists the STUN and TURN servers for the players (-relay).
	Relay string
	// RelaySecret is the file of the relay's secret (-relay-secret).
	RelaySecret string
	// RelayOnly sends everything through the TURN relay when joining (-relay-only).
	RelayOnly bool
	// ICETimeout gives up on a join whose network path does not work this
	// long after the server answered; 0: the join's own limit (-ice-timeout).
	ICETimeout time.Duration
	// Host hosts a match in this process (-host).
	Host bool
	// Browse starts at the menu of the matches on the LAN (-browse).
	Browse bool
	// Announce announces a hosted match to LAN browsers (-announce).
	Announce bool
	// Autopilot lets a bot steer the player (-autopilot).
	Autopilot bool
	// Overlay starts with the network overlay shown (-overlay).
	Overlay bool
	// EchoInput says on stdout each key and button the window sees (-echo-input).
	EchoInput bool
	// HowToPlay shows the how-to-play card at the match's start (-how-to-play).
	HowToPlay bool
	// UDPPort is the UDP port of a hosted match's data channels (-udp-port).
	UDPPort int
	// Bots is the number of server-side bots in a hosted match (-bots).
	Bots int
	// MaxClients is the most players who may join a hosted match (-max-clients).
	MaxClients int
	// LANPort is the UDP port of the LAN beacons (-lan-port).
	LANPort int
	// FPS caps the frames per second; 0: vsync (-fps).
	FPS int
	// Seed is a hosted match's seed; 0 picks one (-seed).
	Seed uint64
	// ExitAfter quits this long after the match is on screen (-exit-after).
	ExitAfter time.Duration
	// Latency is the latency the link conditioner adds each way (-latency).
	Latency time.Duration
	// Jitter is the jitter the link conditioner adds each way (-jitter).
	Jitter time.Duration
	// Loss is the share of unreliable messages lost both ways (-loss).
	Loss float64
	// Burst is the mean length of runs of losses (-burst).
	Burst float64
}

// FlagSet returns the command line's flags, named name, each bound to
// its field of o; parsing it fills o. Errors and -h stop the parse with
// an error (flag.ContinueOnError) and the usage on the set's output.
func FlagSet(name string, o *Options) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&o.Join, "join", "", "join the match server at this address (HOST:PORT or http://HOST:PORT) or invite link instead of hosting")
	fs.StringVar(&o.Watch, "watch", "", "watch the match at this address (as -join) without playing: Space next player, L leader, K last killer, F free camera")
	fs.StringVar(&o.Replay, "replay", "", "play this replay `file` (cmd/server -record) as a spectator: P pause, Left/Right 5 s back/on, [ ] (or - =) half/twice the speed, Space next player, L leader, F free camera")
	fs.StringVar(&o.Broadcast, "broadcast", "", "watch the live broadcast at this base `URL` (http://HOST:8080/broadcast/1/) as a spectator, a second or two behind: P pause, Space next player, L leader, F free camera")
	fs.Float64Var(&o.ReplaySpeed, "replay-speed", 1, "with -replay: the speed to start at, 0.25-4")
	fs.DurationVar(&o.ReplayAt, "replay-at", 0, "with -replay: start this far into the replay (a seek: from the keyframe before, every tick up to it at once)")
	fs.UintVar(&o.Follow, "follow", 0, "with -watch, -replay or -broadcast: follow this player (its id) from the start (0: the leader)")
	fs.StringVar(&o.Match, "match", "", "with -join: the match to join on a server hosting several (an id from its /matches); empty: the server picks")
	fs.StringVar(&o.Token, "token", "", "with -join: the join token the host gave you (for a server run with -token-key)")
	fs.BoolVar(&o.Host, "host", false, "host a match in this process (the default without -join or -browse)")
	fs.BoolVar(&o.Browse, "browse", false, "start at a menu of the matches on the LAN (join one, type an address, or host)")
	fs.StringVar(&o.Addr, "addr", ":8080", "with -host: HTTP address where LAN players join (\"off\": nobody)")
	fs.StringVar(&o.WebDir, "web", "out/web", "with -host: the `dir`ectory of the browser build to serve at / (built by make web)")
	fs.IntVar(&o.UDPPort, "udp-port", 8443, "with -host: UDP `port` of the players' data channels (when taken, as by a second host on this machine, a free port instead, with a warning; 0: any free port)")
	fs.IntVar(&o.Bots, "bots", 8, "with -host: server-side bots in the match")
	fs.IntVar(&o.MaxClients, "max-clients", 16, "with -host: most players who may join over the LAN")
	fs.Uint64Var(&o.Seed, "seed", 0, "with -host: the match's seed (map, spawns); 0 picks one")
	fs.StringVar(&o.MatchName, "match-name", "", "with -host: the match's name on the LAN (default \"<your name>'s match\")")
	fs.StringVar(&o.Replays, "replays", "", "keep each match hosted here as a replay in this `folder`, the newest 10, which the LAN menu lists and plays (default: replays in the config folder; off: none)")
	fs.StringVar(&o.Invite, "invite", "", "with -host: host through the rendezvous at this `URL` (cmd/relay -http): friends anywhere join with the invite link it gives, no port forwarding")
	fs.StringVar(&o.Relay, "relay", "", "with -host: STUN and TURN servers for your players (turn:HOST:PORT,...); with -invite, default: those the rendezvous hands out")
	fs.StringVar(&o.RelaySecret, "relay-secret", "", "with -host -relay: the relay's secret (a `file` of 64 hex digits), to mint your players' TURN credentials")
	fs.DurationVar(&o.ICETimeout, "ice-timeout", 0, "with -join: give up when no network path to the server works this long after it answered (0: at the join's 15 s limit)")
	fs.BoolVar(&o.RelayOnly, "relay-only", false, "with -join: send everything through the TURN relay the server hands out (for testing the relay)")
	fs.BoolVar(&o.Announce, "announce", true, "with -host: announce the match to LAN browsers (needs -addr)")
	fs.IntVar(&o.LANPort, "lan-port", DefaultLANPort, "UDP `port` of the LAN beacons: where hosts announce and -browse listens")
	fs.StringVar(&o.Name, "name", "", "your name for this run (default: the name in the settings, else the system user's)")
	fs.IntVar(&o.FPS, "fps", 0, "cap the frames per second (0: vsync)")
	fs.StringVar(&o.Screenshot, "screenshot", "", "save the frame drawn at -exit-after as this PNG `file`")
	fs.DurationVar(&o.ExitAfter, "exit-after", 0, "quit this long after the match is on screen (its first frame with the server's world; at the menu, its first frame), however long the start took (0: play until the window closes)")
	fs.StringVar(&o.ExitWhen, "exit-when", "", "with -exit-after: quit (and take the screenshot) as soon as this `condition` holds, -exit-after at the latest: confirmed=N (the server's copies of N of your predicted shots were seen), listed=N (the menu lists N matches with a ping), sounds=N (N sound effects were asked for), paused=1 (the pause menu is on screen), copied=1 (the pause menu says what became of \"Copy join link\"), stages=N (the connecting screen shows N stages of a join reached), failed=1 (the connecting screen shows why a join failed), followed=1 (a spectator drew the player it follows), replayed=N (a replay or broadcast delivered N ticks, seeks counted), killcam=N (the killcam drew its verdict, the fatal moment, N frames); for tests, on a machine of any speed")
	fs.BoolVar(&o.EchoInput, "echo-input", false, "say on stdout each key and mouse button the window sees go down and up (\"input: key Escape down\"), and \"input: live\" when the scene is on screen: for tests that drive the window through XTEST and wait for each press to be seen")
	fs.BoolVar(&o.Autopilot, "autopilot", false, "let a bot steer your player (demos, tests)")
	fs.BoolVar(&o.Overlay, "overlay", false, "start with the network overlay (F3) shown, whatever the settings")
	fs.BoolVar(&o.HowToPlay, "how-to-play", false, "show the how-to-play card at the match's start, even if you dismissed it before (a match shows it until you first do; Esc > How to play shows it any time)")
	fs.Float64Var(&o.Loss, "loss", 0, "start with this share (0-0.5) of unreliable messages lost, both ways (F3: 1/2)")
	fs.DurationVar(&o.Latency, "latency", 0, "start with this much latency added, each way (F3: 3/4)")
	fs.DurationVar(&o.Jitter, "jitter", 0, "start with up to this much jitter added, each way (F3: 5/6)")
	fs.Float64Var(&o.Burst, "burst", 0, "start with losses in runs of this mean length, 2-8 (F3: 7/8; <= 1: independent)")
	fs.StringVar(&o.Level, "log-level", "warn", "debug, info, warn or error")
	fs.Usage = func() { Usage(fs) }
	return fs
}
