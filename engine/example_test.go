package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/engine"
)

// A Go agent embeds the engine: load the layers once, then fire an event before each shell
// command and honour the decision.
func Example() {
	home, _ := os.MkdirTemp("", "agenthooks-example")
	defer os.RemoveAll(home)
	os.MkdirAll(filepath.Join(home, ".cursor"), 0o755)
	os.WriteFile(filepath.Join(home, ".cursor", "hooks.json"), []byte(`{
	  "version": 1,
	  "hooks": {"beforeShellExecution": [
	    {"command": "grep -q 'git push' && echo '{\"permission\":\"deny\",\"user_message\":\"no pushing\"}' || true"}
	  ]}
	}`), 0o644)

	eng, err := engine.Load(engine.Options{Env: config.Env{Home: home, EnterpriseDir: filepath.Join(home, "none")}})
	if err != nil {
		panic(err)
	}
	for _, cmd := range []string{"git status", "git push --force"} {
		d, err := eng.Fire(context.Background(), engine.Event{
			Name:    "beforeShellExecution",
			Payload: []byte(fmt.Sprintf(`{"command": %q, "cwd": "/tmp"}`, cmd)),
		})
		if err != nil {
			panic(err)
		}
		fmt.Println(strings.TrimSpace(fmt.Sprintf("%s: %s %s", cmd, d.Permission, d.ClientMessage)))
	}
	// Output:
	// git status: allow
	// git push --force: deny Command execution was blocked by a hook: no pushing
}

// ExecuteCommand is the execution service: one command, the safety check first, JSON input
// built from the context on stdin, the context in the environment.
func ExampleExecuteCommand() {
	ec := engine.ExecContext{Event: "beforeShellExecution", ProjectDir: "/", ToolName: "Shell"}
	res, err := engine.ExecuteCommand(context.Background(), `cat; echo " $HOOK_EVENT"`, ec, engine.ExecOptions{})
	fmt.Printf("%s", res.Stdout)
	fmt.Println(res.ExitCode, err)

	_, err = engine.ExecuteCommand(context.Background(), "sudo rm notes.txt", ec, engine.ExecOptions{})
	fmt.Println(err)
	// Output:
	// {"cwd":"/","hook_event_name":"beforeShellExecution","tool_name":"Shell"} beforeShellExecution
	// 0 <nil>
	// command fails the safety check: rm-elevated: rm with elevated privileges: rm notes.txt
}
