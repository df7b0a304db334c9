// Command decodeonly is the yardstick of the guard's process benchmark: a Go program that only
// decodes a hook payload from stdin and exits.
package main

import (
	"encoding/json"
	"os"
)

func main() {
	var p struct {
		ToolName  string `json:"tool_name"`
		ToolInput struct {
			Command string `json:"command"`
		} `json:"tool_input"`
		Cwd string `json:"cwd"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&p); err != nil {
		os.Exit(1)
	}
}
