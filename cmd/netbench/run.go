package main

import (
	"fmt"
	"time"

	"github.com/sightline-game/sightline/netcode/delta"
	"github.com/sightline-game/sightline/netcode/linksim"
	"github.com/sightline-game/sightline/netcode/refformat"
	"github.com/sightline-game/sightline/netcode/simrun"
	"github.com/sightline-game/sightline/netcode/snapstream"
	"github.com/sightline-game/sightline/netcode/traffic"
)

// options are the command's flags.
type options struct {
	Traffic       string // "model" (the default) or "arena"
	Entities      int
	Hz, Seconds   float64
	Moving, Start float64
	Speed         float64 // the model's walking speed in px/s; 0 = the model's default
	Loss, Burst   float64
	RTTms         float64
	History       int // 0 = the traffic's default
	Seed          uint64
	HeadingBits   uint8 // 0 = the model's default
	// The arena's bots and creatures.
	Players, Creatures int
	// Replay has the arena run write its match as a broadcast, the format
	// of replay files, and report its size; Record is where it writes the
	// file (empty: measured, not written; set implies Replay).
	Replay bool
	Record string
}

// result is one run, as printed with -json.
type result struct {
	Entities        int     `json:"entities"`
	Hz              float64 `json:"hz"`
	Moving          float64 `json:"moving"`
	Start           float64 `json:"start"`
	Loss            float64 `json:"loss"`
	Burst           float64 `json:"burst"`
	RTTms           float64 `json:"rtt_ms"`
	History         int     `json:"history"`
	Seed            uint64  `json:"seed"`
	Ticks           int     `json:"ticks"`
	DecodedTicks    int     `json:"decoded_ticks"`
	MismatchedTicks int     `json:"mismatched_ticks"` // over all three formats
	FullBps         float64 `json:"full_Bps"`
	BytemaskBps     float64 `json:"bytemask_Bps"`
	Bps             float64 `json:"Bps"`
	FullBpp         float64 `json:"full_bytes_per_packet"`
	BytemaskBpp     float64 `json:"bytemask_bytes_per_packet"`
	Bpp             float64 `json:"bytes_per_packet"`
	Ratio           float64 `json:"ratio_to_bytemask"`
	MeanBaselineAge float64 `json:"mean_baseline_age"`
	FullFallbacks   uint64  `json:"full_fallbacks"` // full snapshots after the first ack
	BytemaskFull    uint64  `json:"bytemask_full_fallbacks"`
	DownLost        uint64  `json:"down_lost"`
	Model           model   `json:"model"`
}

// model states the movement the traffic is made of.
type model struct {
	WorldPx       float64 `json:"world_px"`
	PrecisionPx   float64 `json:"position_precision_px"`
	HeadingBits   uint8   `json:"heading_bits"`
	WalkSpeedPxS  float64 `json:"walk_speed_px_s"`
	TurnRateDegS  float64 `json:"turn_rate_deg_s"`
	TurnChance    float64 `json:"turn_chance"`
	StartChance   float64 `json:"start_chance"`
	StopChance    float64 `json:"stop_chance"`
	BitsPerEntity int     `json:"bits_per_entity"`
}

func run(o options) (result, error) {
	cfg := traffic.DefaultConfig()
	cfg.Entities, cfg.TickRate, cfg.Moving, cfg.Start, cfg.Seed = o.Entities, o.Hz, o.Moving, o.Start, o.Seed
	if o.HeadingBits != 0 {
		cfg.HeadingBits = o.HeadingBits
	}
	if o.Speed != 0 {
		cfg.WalkSpeed = o.Speed
	}
	if o.History <= 0 {
		o.History = snapstream.DefaultHistory
	}
	w, err := traffic.New(cfg)
	if err != nil {
		return result{}, err
	}
	sch := w.Schema()
	codec, err := delta.NewCodec(sch)
	if err != nil {
		return result{}, err
	}
	link := linksim.Config{Loss: o.Loss, BurstLen: o.Burst}
	ticks := int(o.Seconds * o.Hz)
	res, err := simrun.Run(simrun.Config{
		Schema:   sch,
		TickRate: o.Hz,
		Ticks:    ticks,
		RTT:      time.Duration(o.RTTms * float64(time.Millisecond)),
		Down:     link,
		Up:       link,
		History:  o.History,
		Seed:     o.Seed,
	}, w,
		simrun.Stream{Name: "full", Format: refformat.Full{Schema: sch}},
		simrun.Stream{Name: "bytemask", Format: refformat.ByteMask{Schema: sch}},
		simrun.Stream{Name: "sightline", Format: codec},
	)
	if err != nil {
		return result{}, err
	}
	full, mask, ours := res[0], res[1], res[2]
	r := result{
		Entities: o.Entities, Hz: o.Hz, Moving: o.Moving, Start: w.StartChance(), Loss: o.Loss, Burst: o.Burst,
		RTTms: o.RTTms, History: o.History, Seed: o.Seed,
		Ticks:           ticks,
		DecodedTicks:    ours.Decoded,
		MismatchedTicks: full.Mismatched + mask.Mismatched + ours.Mismatched,
		FullBps:         full.BytesPerSec,
		BytemaskBps:     mask.BytesPerSec,
		Bps:             ours.BytesPerSec,
		FullBpp:         float64(full.Bytes) / float64(ticks),
		BytemaskBpp:     float64(mask.Bytes) / float64(ticks),
		Bpp:             float64(ours.Bytes) / float64(ticks),
		Ratio:           ours.BytesPerSec / mask.BytesPerSec,
		MeanBaselineAge: ours.MeanAge,
		FullFallbacks:   ours.Sender.FullTooOld + ours.Sender.FullNotSmaller,
		BytemaskFull:    mask.Sender.FullTooOld + mask.Sender.FullNotSmaller,
		DownLost:        ours.DownLink.Lost,
		Model: model{
			WorldPx: cfg.WorldSize, PrecisionPx: cfg.PosPrecision, HeadingBits: cfg.HeadingBits,
			WalkSpeedPxS: cfg.WalkSpeed, TurnRateDegS: cfg.TurnRate, TurnChance: cfg.TurnChance,
			StartChance: w.StartChance(), StopChance: w.StopChance(), BitsPerEntity: sch.EntityBits(),
		},
	}
	if full.Decoded == 0 || mask.Decoded == 0 || ours.Decoded == 0 {
		return r, fmt.Errorf("a client decoded nothing (full %d, bytemask %d, ours %d)", full.Decoded, mask.Decoded, ours.Decoded)
	}
	return r, nil
}
