package shell

import "testing"

// TestKeepsEveryLine: the stages that pass on every line, and those that may pick some.
func TestKeepsEveryLine(t *testing.T) {
	for _, c := range []struct {
		a []string
		w bool
	}{
		{[]string{"tail", "-n", "+2"}, true}, {[]string{"tail", "-n+2"}, true}, {[]string{"tail", "--lines=+2"}, true}, {[]string{"tail", "+2"}, true},
		{[]string{"tail"}, false}, {[]string{"tail", "-n", "5"}, false}, {[]string{"tail", "-5"}, false}, {[]string{"tail", "file"}, false},
		{[]string{"awk", "{print $3}"}, true}, {[]string{"awk", "NR>1 {print $1}"}, false}, {[]string{"awk", "/x/"}, false},
		{[]string{"cut", "-d", " ", "-f1"}, true}, {[]string{"grep", "x"}, false}, {[]string{"sed", "s/a/b/"}, false}, {[]string{"jq", "-r", ".items[].name"}, true}, {[]string{"jq", "-r", ".[] | select(.x)"}, false},
	} {
		if g := KeepsEveryLine(c.a); g != c.w {
			t.Errorf("%q = %v", c.a, g)
		}
	}
}

// TestXargsFrom: the words xargs fills with its items carry the pipeline that prints them.
func TestXargsFrom(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{`redis-cli --scan --pattern '*' | xargs redis-cli del`, `$(redis-cli --scan --pattern '*')`},
		{`aws s3 ls | awk '{print $3}' | xargs -I{} aws s3 rb s3://{}`, `$(aws s3 ls | awk '{print $3}')`},
		{`kubectl get ns -o name | xargs kubectl delete`, `$(kubectl get ns -o name)`},
	} {
		s := Analyze(tc.command, Options{})
		inv := s.Invocations[len(s.Invocations)-1]
		w := inv.Args[len(inv.Args)-1]
		if len(w.From) != 1 || w.From[0] != tc.want {
			t.Errorf("%s: %s's last word From = %q, want %q", tc.command, inv.Name, w.From, tc.want)
		}
	}
}
