package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"os/exec"
	"strings"
)

// A browser on plain http (a LAN address, an invite's public one) asks for
// gzip alone: it offers brotli and zstd only to secure origins. For it the
// site serves the game a second way too, packed in LZMA at the file's path
// plus LZMASuffix (game.wasm.lzma), as plain bytes, which the page decodes
// itself in a worker (wasm/page/lzma.js) and compiles as they come: about
// a third fewer bytes than gzip and a few percent fewer than brotli.
//
// The packed file is made at build time by xz (cmd/precompress), in the
// .lzma format: a 13-byte header (lc/lp/pb, the dictionary's size, the
// decoded size or all ones), then the range-coded stream. The server does
// not decode it; it checks the header and states the file's size and
// CRC-32 in the headers of its answer, and the page checks the bytes it
// decoded against both, falling back to game.wasm when they differ.

// LZMASuffix is the extension of a file packed in LZMA.
const LZMASuffix = ".lzma"

// TypePacked is the content type of a packed file: bytes the page decodes,
// not a content coding the browser undoes.
const TypePacked = "application/octet-stream"

// UncompressedCRCHeader states the CRC-32 (IEEE, 8 hex digits) of the
// file a packed file decodes to.
const UncompressedCRCHeader = "X-Uncompressed-CRC32"

// xzArgs are xz's settings for the packed file: the .lzma format at its
// best preset, extreme, which the decoder reads with a dictionary as large
// as the file (64 MiB at -9).
var xzArgs = []string{"--format=lzma", "-9e", "--stdout", "--quiet"}

// ErrNoXZ says xz, which makes the packed file, is not installed.
var ErrNoXZ = errors.New("xz not found (it packs game.wasm in LZMA; Debian: apt-get install xz-utils)")

// PackLZMA returns raw packed in LZMA by xz.
func PackLZMA(ctx context.Context, raw []byte) ([]byte, error) {
	return runXZ(ctx, raw, xzArgs...)
}

// VerifyLZMA returns nil when packed, decoded by xz, is exactly raw.
func VerifyLZMA(ctx context.Context, packed, raw []byte) error {
	if err := checkLZMAHeader(packed, len(raw)); err != nil {
		return err
	}
	got, err := runXZ(ctx, packed, "--format=lzma", "--decompress", "--stdout", "--quiet")
	if err != nil {
		return err
	}
	if !bytes.Equal(got, raw) {
		return errDiffers
	}
	return nil
}

func runXZ(ctx context.Context, in []byte, args ...string) ([]byte, error) {
	path, err := exec.LookPath("xz")
	if err != nil {
		return nil, ErrNoXZ
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdin = bytes.NewReader(in)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("xz %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out.Bytes(), nil
}

// lzmaHeaderLen is the .lzma header's length.
const lzmaHeaderLen = 13

// checkLZMAHeader returns nil when packed starts with a .lzma header the
// page's decoder reads for a file of size bytes: valid lc/lp/pb and either
// no decoded size or that one. It cannot tell a stale file of the same
// size; the page's CRC-32 check does.
func checkLZMAHeader(packed []byte, size int) error {
	if len(packed) < lzmaHeaderLen+5 {
		return fmt.Errorf("%d bytes: too short for LZMA", len(packed))
	}
	if packed[0] >= 9*5*5 {
		return fmt.Errorf("LZMA properties byte %d out of range", packed[0])
	}
	var n uint64
	for i := 12; i >= 5; i-- {
		n = n<<8 | uint64(packed[i])
	}
	if n != ^uint64(0) && n != uint64(size) {
		return fmt.Errorf("the LZMA header says %d bytes, the file is %d: %w", n, size, errDiffers)
	}
	return nil
}

// crcHex is the IEEE CRC-32 of b in 8 hex digits.
func crcHex(b []byte) string { return fmt.Sprintf("%08x", crc32.ChecksumIEEE(b)) }
