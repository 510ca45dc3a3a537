// Command precompress writes each file given beside itself compressed for
// the web: FILE.br (brotli, quality 11, in the least window that holds the
// file, at most 16 MiB) and FILE.gz (gzip -9), as game/web serves them, and
// for a .wasm file FILE.lzma too, packed by xz for a browser on plain http
// (see game/web, LZMASuffix; without xz it says so and writes the rest).
// `make web` runs it on game.wasm and wasm_exec.js:
//
//	go run ./cmd/precompress out/web/game.wasm out/web/wasm_exec.js
//
// An output that already decompresses to its file is kept ("up to date"),
// so running it again after a build that changed nothing costs a second,
// not minutes. Each output is written to a temporary file and renamed into
// place, so a server never reads half of one; the encodings of all files
// run at once. It prints each file's sizes and how long each encoding took.
package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sightline-game/sightline/game/web"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: precompress FILE...")
		os.Exit(2)
	}
	if err := run(os.Stdout, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "precompress:", err)
		os.Exit(1)
	}
}

// result is one file compressed in one encoding, or packed in LZMA.
type result struct {
	path string
	enc  web.Encoding
	lzma bool
	raw  int
	size int64
	took time.Duration
	kept bool // the file there was up to date
	err  error
}

func run(out io.Writer, paths []string) error {
	var jobs []*result
	var wg sync.WaitGroup
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.HasSuffix(path, ".wasm") {
			r := &result{path: path, lzma: true, raw: len(raw)}
			jobs = append(jobs, r)
			wg.Go(func() {
				start := time.Now()
				ctx := context.Background()
				if old, err := os.ReadFile(path + web.LZMASuffix); err == nil && web.VerifyLZMA(ctx, old, raw) == nil {
					r.size, r.kept = int64(len(old)), true
				} else if packed, err := web.PackLZMA(ctx, raw); err != nil {
					r.err = err
				} else {
					r.size, r.err = write(path+web.LZMASuffix, func(w io.Writer) error {
						_, err := w.Write(packed)
						return err
					})
				}
				r.took = time.Since(start)
			})
		}
		for _, enc := range web.Compressed {
			r := &result{path: path, enc: enc, raw: len(raw)}
			jobs = append(jobs, r)
			wg.Go(func() {
				start := time.Now()
				if old, err := os.ReadFile(path + enc.Suffix()); err == nil && web.Verify(enc, old, raw) == nil {
					r.size, r.kept = int64(len(old)), true
				} else {
					r.size, r.err = write(path+enc.Suffix(), func(w io.Writer) error { return web.Compress(w, enc, raw) })
				}
				r.took = time.Since(start)
			})
		}
	}
	wg.Wait()
	var errs []error
	for _, r := range jobs {
		suffix, name := r.enc.Suffix(), r.enc.String()
		if r.lzma {
			suffix, name = web.LZMASuffix, "lzma"
		}
		if errors.Is(r.err, web.ErrNoXZ) {
			fmt.Fprintf(out, "%s: not written: %v; a browser on plain http downloads the game in gzip\n", filepath.Base(r.path)+suffix, r.err)
			continue
		}
		if r.err != nil {
			errs = append(errs, fmt.Errorf("%s%s: %w", r.path, suffix, r.err))
			continue
		}
		how := "in " + r.took.Round(10*time.Millisecond).String()
		if r.kept {
			how = "up to date"
		}
		fmt.Fprintf(out, "%s: %d bytes, %-4s %9d bytes (%4.1f%%) %s\n", filepath.Base(r.path), r.raw, name,
			r.size, 100*float64(r.size)/float64(max(r.raw, 1)), how)
	}
	return errors.Join(errs...)
}

// write writes what fill writes into path, through a temporary file renamed
// into place, and returns its size.
func write(path string, fill func(io.Writer) error) (int64, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	bw := bufio.NewWriterSize(tmp, 1<<20)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	info, statErr := tmp.Stat()
	if err := errors.Join(err, statErr, tmp.Close()); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return 0, err
	}
	return info.Size(), nil
}
