package duel

// Result is what a duel measured.
type Result struct {
	// Shots counts the aimer's counted shots: fired while the strafer, as
	// the aimer drew it, was in sight at MinRange to MaxRange, less those
	// whose outcome a kill cut short. Hits counts the server's hits of the
	// aimer on the strafer; HitRate is Hits / Shots.
	Shots   int     `json:"shots"`
	Hits    int     `json:"hits"`
	HitRate float64 `json:"hit_rate"`
	Kills   int     `json:"kills"`
	// Agreement is the share of the counted shots on which the aimer's
	// own verdict (its predicted shot stopped on the strafer as it drew
	// it) and the server's (a hit on the strafer named the shot) agree.
	// The disagreements by cause: the aimer saw a hit the server did not
	// make, or missed where the server hit. UnjudgedShots are counted
	// shots whose own verdict was never taken (a respawn reset the
	// predicted shots); a kill's last shots, whose flight it cut short,
	// are left out.
	Agreement        float64 `json:"agreement"`
	Agreed           int     `json:"agreed_shots"`
	OwnHitServerMiss int     `json:"own_hit_server_miss"`
	OwnMissServerHit int     `json:"own_miss_server_hit"`
	UnjudgedShots    int     `json:"unjudged_shots"`
	// The aimer's predicted shots (smooth.Shots): the distance between a
	// predicted shot and the server's copy when the copy arrived, and the
	// predicted shots the server did not make.
	Predicted      uint64  `json:"predicted_shots"`
	Confirmed      uint64  `json:"confirmed_shots"`
	Rejected       uint64  `json:"rejected_shots"`
	HandoverMeanPx float64 `json:"handover_mean_px"`
	HandoverMaxPx  float64 `json:"handover_max_px"`
	// The server's rewind counters over the counted period (from the
	// first bout on), when the duel could read them (RewindKnown).
	RewindKnown     bool    `json:"rewind_known"`
	RewoundShots    uint64  `json:"rewound_shots"`
	RewindClamped   uint64  `json:"rewind_clamped"`
	RewindBounded   uint64  `json:"rewind_bounded"` // judged at the server's estimate of the view
	RewoundHits     uint64  `json:"rewound_hits"`
	BehindCoverHits uint64  `json:"behind_cover_hits"`
	MeanRewindMs    float64 `json:"mean_rewind_ms"`
	// ViewLagMsMean and ViewLagMsP95 are how far the views the counted
	// shots claimed trailed the tick they were judged on, as the aimer
	// measures it (unbounded and unclamped: what an honest client's view
	// lag really is), mean and 95th percentile.
	ViewLagMsMean float64 `json:"view_lag_ms_mean"`
	ViewLagMsP95  float64 `json:"view_lag_ms_p95"`
	// Movement, both duellists: their own player's corrections over a pixel
	// (smooth.CorrectionPx) a minute of the duel and their mean size; the
	// share of frames that drew the own player over a pixel off (its
	// visual error); the share of the aimer's frames that drew the
	// strafer past the newest tick (extrapolated) and the strafer's jumps
	// a minute (drawn moving over 1.5 times a player's top speed between
	// two frames); and an input's delay from its send to the step that
	// applied it: the time to the snapshot that said so, less OneWay.
	CorrectionsPerMin float64 `json:"corrections_per_min"`
	CorrectionMeanPx  float64 `json:"correction_mean_px"`
	FramesOffShare    float64 `json:"frames_off_share"`
	ExtrapolatedShare float64 `json:"extrapolated_share"`
	RemoteJumpsPerMin float64 `json:"remote_jumps_per_min"`
	InputDelayMsP50   float64 `json:"input_delay_ms_p50"`
	InputDelayMsP95   float64 `json:"input_delay_ms_p95"`
	// LateInputs counts the snapshots, to either duellist, that said none
	// of its inputs was there for their tick's step.
	LateInputs uint64 `json:"late_inputs"`
	// Both clients verify every tick against the server's hash.
	VerifiedTicks   uint64 `json:"verified_ticks"`
	MismatchedTicks uint64 `json:"mismatched_ticks"`
	// CountedSeconds is the play counted (the strafer in sight);
	// Seconds the whole duel, walking and respawns included.
	CountedSeconds float64 `json:"counted_seconds"`
	Seconds        float64 `json:"seconds"`
	Error          string  `json:"error,omitempty"`
}
