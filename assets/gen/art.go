package gen

// art renders the sprite sheets and tiles into add.
func art(add func(path string, data []byte)) error {
	return nil
}
