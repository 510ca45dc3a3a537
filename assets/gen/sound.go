package gen

// sounds synthesizes the sound effects into add.
func sounds(add func(path string, data []byte)) error {
	return nil
}
