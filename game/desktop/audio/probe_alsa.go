//go:build linux && !android

package audio

// #cgo pkg-config: alsa
// #include <alsa/asoundlib.h>
//
// static void quiet(const char *file, int line, const char *function, int err, const char *fmt, ...) {}
//
// // probe opens the PCM device name for playback without blocking, checks
// // that it takes what Ebitengine's output (oto) asks of it (interleaved
// // 32-bit float stereo at about 44100 Hz), and closes it. ALSA's own error
// // messages are silenced meanwhile.
// static int probe(const char *name, unsigned int rate) {
// 	snd_lib_error_set_handler(quiet);
// 	snd_pcm_t *h;
// 	int err = snd_pcm_open(&h, name, SND_PCM_STREAM_PLAYBACK, SND_PCM_NONBLOCK);
// 	if (err >= 0) {
// 		snd_pcm_hw_params_t *p;
// 		snd_pcm_hw_params_alloca(&p);
// 		err = snd_pcm_hw_params_any(h, p);
// 		if (err >= 0) err = snd_pcm_hw_params_set_access(h, p, SND_PCM_ACCESS_RW_INTERLEAVED);
// 		if (err >= 0) err = snd_pcm_hw_params_set_format(h, p, SND_PCM_FORMAT_FLOAT_LE);
// 		if (err >= 0) err = snd_pcm_hw_params_set_channels(h, p, 2);
// 		if (err >= 0) err = snd_pcm_hw_params_set_rate_resample(h, p, 1);
// 		if (err >= 0) err = snd_pcm_hw_params_set_rate_near(h, p, &rate, 0);
// 		snd_pcm_close(h);
// 	}
// 	snd_lib_error_set_handler(0);
// 	return err;
// }
import "C"

import (
	"fmt"
	"strings"
	"unsafe"
)

// probeDevice checks that ALSA can open an output the way Ebitengine's
// output will try first ("default", then "plug:default"). Opening does not
// block: a device busy elsewhere counts as none.
func probeDevice() error {
	var msgs []string
	for _, name := range []string{"default", "plug:default"} {
		cname := C.CString(name)
		rc := C.probe(cname, SampleRate)
		C.free(unsafe.Pointer(cname))
		if rc >= 0 {
			return nil
		}
		msgs = append(msgs, fmt.Sprintf("%q: %s", name, C.GoString(C.snd_strerror(rc))))
	}
	return fmt.Errorf("%w: ALSA: %s", ErrNoDevice, strings.Join(msgs, ", "))
}
