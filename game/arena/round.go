package arena

// stepRound runs the round clock. On the Step that reaches the round's end
// it ends the round (endRound); on the Step that reaches the next round's
// start, IntermissionTicks later, it starts the next (startRound). With no
// intermission both happen on one Step.
func (w *World) stepRound() {
	if !w.intermission && w.tick >= w.roundEnd {
		w.endRound()
	}
	if w.intermission && w.tick >= w.nextStart {
		w.startRound()
	}
}

// endRound ends the round: a RoundOver event names the winner (highest
// score; ties go to fewer deaths, then the lower slot; 0 if nobody scored),
// the projectiles in flight vanish, every spread gun and power-up is taken
// away, and the intermission starts. The scores stay as they are for the
// intermission's results; every score record is published once more so
// that its accuracy (Score.Shots, Score.Hits) is exact.
func (w *World) endRound() {
	var winner PlayerID
	var best, bestDeaths uint32
	for i := range w.players {
		p := &w.players[i]
		if !p.active || p.score == 0 {
			continue
		}
		if p.score > best || (p.score == best && p.deaths < bestDeaths) {
			winner, best, bestDeaths = p.id, p.score, p.deaths
		}
	}
	w.emit(Event{Kind: EventRoundOver, RoundOver: RoundOver{Round: w.round, Winner: winner}})
	for k := range w.shots {
		if w.shots[k].live {
			w.freeShot(k)
		}
	}
	for i := range w.players {
		if p := &w.players[i]; p.active {
			w.dropLoadout(p)
			p.dirty = true
		}
	}
	w.stats.Rounds++
	w.intermission = true
}

// startRound ends the intermission: every score and accuracy goes back to
// zero and the next round starts, its clock published.
func (w *World) startRound() {
	for i := range w.players {
		if p := &w.players[i]; p.active {
			p.kills, p.deaths, p.score, p.shots, p.hits = 0, 0, 0, 0, 0
			p.dirty = true
		}
	}
	w.intermission = false
	w.round++
	w.roundStart = w.tick
	w.roundEnd = w.tick + uint32(w.cfg.RoundTicks)
	w.nextStart = w.roundEnd + uint32(w.cfg.IntermissionTicks)
	w.clockDirty = true
}
