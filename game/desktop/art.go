package desktop

// Art is the game's images and text faces, decoded from package assets
// into Ebitengine images: what New otherwise loads itself. LoadArt makes
// it ahead, so that a caller with time to spare (the browser build, while
// its connection is being made) spends it there and not between the join
// and the first frame.
type Art struct {
	sprites *sprites
	fonts   *fonts
}

// LoadArt decodes every sheet and face. It calls pace, if not nil,
// after each of them: the browser build passes a short sleep, so that the
// page's events (the connection's answer, its channels opening) are
// handled between two images rather than after all of them (WebAssembly
// runs Go on the page's one thread).
func LoadArt(pace func()) (*Art, error) {
	if pace == nil {
		pace = func() {}
	}
	sp, err := loadSprites(pace)
	if err != nil {
		return nil, err
	}
	return &Art{sprites: sp, fonts: loadFonts(pace)}, nil
}
