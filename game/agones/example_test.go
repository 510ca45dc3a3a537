package agones_test

import (
	"fmt"

	"github.com/sightline-game/sightline/game/agones"
)

func ExampleBaseURLFromEnv() {
	env := map[string]string{"AGONES_SDK_HTTP_PORT": "59358"}
	fmt.Println(agones.BaseURLFromEnv(func(k string) string { return env[k] }))
	fmt.Println(agones.BaseURLFromEnv(func(string) string { return "" }))
	// Output:
	// http://localhost:59358
	// http://localhost:9358
}
