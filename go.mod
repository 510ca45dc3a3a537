module github.com/sightline-game/sightline

go 1.26
