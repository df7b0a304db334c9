package guard

import "testing"

func TestIsCommandSafe(t *testing.T) {
	t.Parallel()
	cases := []struct {
		cmd  string
		safe bool
	}{
		{"", true},
		{"   ", true},
		{"./hooks/audit.sh", true},
		{"git status && go test ./...", true},
		{"rm -rf ./build node_modules", true},
		{`echo "rm -rf /"`, true},
		{"grep -r 'sudo rm' .", true},
		{"cat /dev/sda1.log", true},
		{"rm -rf /", false},
		{"rm -fr ~", false},
		{"rm -r -f $HOME", false},
		{"rm --recursive --force /*", false},
		{`\rm -rf /`, false},
		{`r''m -rf "/"`, false},
		{"/bin/rm -rf ~/", false},
		{"sudo rm file.txt", false},
		{"sudo -u root rm x", false},
		{"env FOO=1 rm -rf /", false},
		{"nohup timeout 5 rm -rf /", false},
		{`bash -c 'rm -rf ~'`, false},
		{`sh -c "sh -c 'rm -rf /'"`, false},
		{`eval "rm -rf /"`, false},
		{"true; rm -rf / &", false},
		{"(cd /tmp && rm -rf /)", false},
		{"echo $(rm -rf /)", false},
		{"dd if=/dev/zero of=/dev/sda bs=1M", false},
		{"echo hi > /dev/nvme0n1", false},
		{"mkfs.ext4 /dev/sdb1", false},
		{"wipefs -a /dev/sdb", false},
		{":(){ :|:& };:", false},
		{"if true; then", false}, // does not parse
	}
	for _, c := range cases {
		if got := IsCommandSafe(c.cmd); got != c.safe {
			t.Errorf("IsCommandSafe(%q) = %v, want %v (reason %q)", c.cmd, got, c.safe, UnsafeReason(c.cmd))
		}
	}
}

func FuzzIsCommandSafe(f *testing.F) {
	for _, s := range []string{"rm -rf /", "bash -c 'eval \"rm -rf ~\"'", ":(){ :|:& };:", "dd of=/dev/sda", "echo ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		a, b := UnsafeReason(cmd), UnsafeReason(cmd)
		if a != b {
			t.Fatalf("two verdicts for %q: %q and %q", cmd, a, b)
		}
	})
}
