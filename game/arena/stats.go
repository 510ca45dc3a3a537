package arena

// Stats are a world's counters since it was made.
type Stats struct {
	// InputsQueued counts inputs ApplyInput accepted; InputsApplied those a
	// Step consumed.
	InputsQueued, InputsApplied uint64
	// InputWaitTicks sums the ticks each applied input waited in its
	// player's queue beyond the first step it could have been applied on:
	// / InputsApplied is the mean wait, latency a player feels and a shot
	// judged in the past has to cover.
	InputWaitTicks uint64
	// InputsTrimmed counts queued inputs dropped because the queue had
	// held a spare input for SpareTicks (its movement lost, its buttons
	// carried over).
	InputsTrimmed uint64
	// InputsClamped counts accepted inputs that needed correcting: a stick
	// longer than 1 or at -128, unknown buttons, or a non-finite aim.
	InputsClamped uint64
	// Dropped inputs, by reason: the player is not in the match, the seq was
	// consumed already, it is queued already, it claims to be more than
	// MaxInputAhead ahead, or InputQueue newer ones wait.
	DroppedUnknown, DroppedOld, DroppedDuplicate, DroppedTooFar, DroppedQueueFull uint64
	// ShotsFired counts projectiles (a spread shot's pellets each);
	// ShotsRefused counts fire requests sooner than the interval of the
	// weapon that fired the player's last shot (holding the button between
	// shots counts too) or during the intermission.
	ShotsFired, ShotsRefused uint64
	// SpreadShots counts spread shots (each SpreadPellets projectiles);
	// PoweredShots counts shots (gun or spread) fired with a power-up.
	SpreadShots, PoweredShots uint64
	// Dashes counts dashes started; DashesRefused counts presses of the
	// dash button that started none: during the cooldown, or dead.
	Dashes, DashesRefused uint64
	// Hits counts projectiles that hit a player or a creature.
	Hits uint64
	// Kills counts players killed by players' shots, SpreadKills those of
	// them by a spread pellet; Deaths counts players killed by anything;
	// CreatureKills counts creatures shot dead.
	Kills, SpreadKills, Deaths, CreatureKills uint64
	// Shielded counts hits and bites a spawn shield took.
	Shielded uint64
	// PickupsTaken counts health packs taken, SpreadTaken spread guns,
	// PowerTaken power-ups; Rounds counts rounds ended.
	PickupsTaken, SpreadTaken, PowerTaken, Rounds uint64
	// PlayersRefused counts AddPlayer calls with no free slot or a bad id.
	PlayersRefused uint64
	// EventsDropped counts happenings lost because nobody took them.
	EventsDropped uint64
	// Rewind counts the shots judged by what their shooters saw.
	Rewind RewindStats
}

// InputsDropped returns the inputs dropped for any reason.
func (s Stats) InputsDropped() uint64 {
	return s.DroppedUnknown + s.DroppedOld + s.DroppedDuplicate + s.DroppedTooFar + s.DroppedQueueFull
}
