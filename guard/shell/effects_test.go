package shell

import (
	"slices"
	"strings"
	"testing"
)

// TestHiddenEffects: programs that delete or run a command without looking like it are read as
// the rm or the command they amount to, inside a frame that names them, with the home and
// working directory a hook gives; their look-alikes that do neither are read as themselves.
func TestHiddenEffects(t *testing.T) {
	opts := Options{Home: "/home/dev", Cwd: "/home/dev/project"}
	for _, c := range []struct{ cmd, want, wrapper string }{
		{"npx -y rimraf --glob '/home/dev/.*'", "rm -r /home/dev/.*", "rimraf"},
		{"pnpm exec rimraf ~/.aws", "rm -r /home/dev/.aws", "rimraf"},
		{"pdsh -w web[1-9] 'rm -rf /srv/app'", "rm -rf /srv/app", "pdsh"},
		{"clush -w @web rm -rf /srv", "rm -rf /srv", "clush"},
		{"ansible all -i inv -m shell -a 'rm -rf /x' -b", "rm -rf /x", "sudo (ansible --become)"},
		{"ansible all -m file -a 'path=/x state=absent'", "rm -r /x", "ansible -m file state=absent"},
		{"salt '*' cmd.run 'rm -rf /opt/app'", "rm -rf /opt/app", "salt cmd.run"},
		{"gdb -batch -ex 'shell rm -rf ~'", "rm -rf /home/dev", "gdb shell"},
		{"lldb -o 'platform shell rm -rf ~'", "rm -rf /home/dev", "lldb shell"},
		{`osascript -e 'do shell script "rm -rf ~"'`, "rm -rf /home/dev", "osascript do shell script"},
		{`emacs --batch --eval '(delete-directory "~/.ssh" t)'`, "rm -r /home/dev/.ssh", "emacs delete-directory"},
		{`emacs --batch --eval '(shell-command "rm -rf /x")'`, "rm -rf /x", "emacs shell-command"},
		{"find src -name '*.ts' -exec truncate -s 0 {} +", "rm -r src", "truncate -s 0"},
		{"git ls-files -z | xargs -0 truncate -s 0", "rm -r /home/dev/project/*", "truncate -s 0"},
		{"find . -path ./node_modules -prune -o -type f -print0 | xargs -0 rm -f", "rm -r -f /home/dev/project/*", "xargs"},
		{`for f in ~/*; do : > "$f"; done`, "rm /home/dev/*", "> /home/dev/*"},
		{"mv .git /tmp/g && rm -rf /tmp/g", "rm -rf /home/dev/project/.git", ""},
		{"PATH=/tmp/e:$PATH; cp /bin/rm /tmp/e/ls && ls -rf ~", "/bin/rm -rf /home/dev", "PATH /tmp/e: ls"},
		{"zsh -c 'rm -rf ~/*(D)'", "rm -rf /home/dev/*", "zsh -c"},
		{`echo 'rm -rf /x' > .envrc && direnv allow`, "rm -rf /x", "direnv allow"},
		{`echo 'silent !rm -rf /x' >> ~/.vimrc`, "rm -rf /x", "vim startup .vimrc"},
	} {
		s := Analyze(c.cmd, opts)
		i := slices.IndexFunc(s.Invocations, func(inv Invocation) bool { return strings.HasPrefix(argv(inv), c.want) })
		if i < 0 {
			var got []string
			for _, inv := range s.Invocations {
				got = append(got, argv(inv)+" in "+strings.Join(inv.Wrappers, " > "))
			}
			t.Errorf("%s: no %q among %q", c.cmd, c.want, got)
			continue
		}
		if c.wrapper != "" && !slices.Contains(s.Invocations[i].Wrappers, c.wrapper) {
			t.Errorf("%s: wrappers %q, want %q among them", c.cmd, s.Invocations[i].Wrappers, c.wrapper)
		}
	}
	for _, cmd := range []string{"npx rimraf dist", "ansible all -m ping", "salt '*' test.ping", "gdb -batch -ex run ./app",
		`osascript -e 'display notification "done"'`, "truncate -s 0 app.log", "git ls-files -m | xargs rm -f",
		"PATH=$PWD/node_modules/.bin:$PATH npm test", "echo 'set number' >> ~/.vimrc"} {
		for _, inv := range Analyze(cmd, opts).Invocations {
			if inv.Name == "rm" && !strings.Contains(cmd, "rimraf") && !strings.Contains(cmd, "rm -f") {
				t.Errorf("%s: reads a delete: %s", cmd, argv(inv))
			}
		}
	}
}

// TestForkBombLoops: an endless loop that starts a process in the background each round is a
// fork bomb; one that waits, sleeps or ends is not.
func TestForkBombLoops(t *testing.T) {
	for cmd, bomb := range map[string]bool{
		"while true; do bash & done":              true,
		"while :; do $0 & done":                   true,
		"until false; do sh -c 'yes' & done":      true,
		"for ((;;)); do ./x & done":               true,
		"while [ 1 ]; do bash & done":             true,
		"while true; do ./server & wait; done":    false,
		"while true; do curl x & sleep 5; done":   false,
		"while read l; do gzip \"$l\" & done < f": false,
		"while true; do make; done":               false,
		"while true; do ./x & break; done":        false,
	} {
		s := Analyze(cmd, Options{})
		got := slices.ContainsFunc(s.Findings, func(f Finding) bool { return f.Kind == FindingForkBomb })
		if got != bomb {
			t.Errorf("%s: fork bomb %v, want %v", cmd, got, bomb)
		}
	}
}

func argv(inv Invocation) string {
	var args []string
	for _, w := range inv.Args {
		args = append(args, w.Value)
	}
	return strings.Join(args, " ")
}
