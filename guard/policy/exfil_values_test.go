package policy

import (
	"testing"

	"github.com/agenthooks/agenthooks/guard/shell"
)

func TestSecretVariable(t *testing.T) {
	for name, service := range map[string]string{"GITHUB_TOKEN": "github", "AWS_SECRET_ACCESS_KEY": "aws", "NPM_TOKEN": "",
		"DB_PASSWORD": "", "STRIPE_SECRET_KEY": "", "OPENAI_API_KEY": ""} {
		if v, ok := secretVariable(name); !ok || v.service != service {
			t.Errorf("secretVariable(%s) = %+v, %v; want service %q", name, v, ok, service)
		}
	}
	for _, name := range []string{"HOME", "PATH", "GITHUB_TOKEN_URL", "token", "API_URL", "AWS_ACCESS_KEY_ID"} {
		if _, ok := secretVariable(name); ok {
			t.Errorf("secretVariable(%s) is a secret", name)
		}
	}
}

func TestSendHostAndService(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.github.com/user":         "api.github.com",
		"http://203.0.113.9:8080/x":           "203.0.113.9",
		"https://u:p@gitlab.corp.example/g/r": "gitlab.corp.example",
		"http://[::1]:9000/":                  "::1",
		"203.0.113.9":                         "203.0.113.9",
		"/tmp/file.txt":                       "",
		"-d":                                  "",
		`"https://$TOKEN.collector.example/"`: "$token.collector.example",
	} {
		if got := sendHost(in); got != want {
			t.Errorf("sendHost(%s) = %q, want %q", in, got, want)
		}
	}
	for _, tc := range []struct {
		host, service string
		want          bool
	}{
		{"api.github.com", "github", true}, {"uploads.github.com", "github", true}, {"github.corp.example", "github", true},
		{"evilgithub.com", "github", false}, {"203.0.113.9", "github", false}, {"localhost", "aws", true},
		{"s3.us-east-1.amazonaws.com", "aws", true}, {"api.example.com", "", false},
	} {
		if got := belongsTo(tc.host, tc.service); got != tc.want {
			t.Errorf("belongsTo(%s, %s) = %v", tc.host, tc.service, got)
		}
	}
}

func staticWords(vs ...string) []shell.Word {
	out := make([]shell.Word, len(vs))
	for i, v := range vs {
		out[i] = shell.Word{Value: v, Static: true, Raw: v}
	}
	return out
}

func TestTarExtract(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		archive, dir string
		ok           bool
	}{
		{[]string{"tar", "-xz", "-C", "/home/dev"}, "-", "/home/dev", true},
		{[]string{"tar", "xzf", "a.tgz", "-C", "out"}, "a.tgz", "out", true},
		{[]string{"tar", "-C", "/x", "-xzf", "/tmp/h.tgz"}, "/tmp/h.tgz", "/x", true},
		{[]string{"tar", "--extract", "--file=a.tar", "--directory=d"}, "a.tar", "d", true},
		{[]string{"tar", "-czf", "a.tgz", "src"}, "a.tgz", "", false},
		{[]string{"tar", "-tf", "a.tgz"}, "a.tgz", "", false},
	} {
		inv := &shell.Invocation{Name: tc.args[0], Args: staticWords(tc.args...)}
		archive, dir, ok := tarExtract(inv)
		if archive != tc.archive || dir != tc.dir || ok != tc.ok {
			t.Errorf("tarExtract(%q) = %q, %q, %v; want %q, %q, %v", tc.args, archive, dir, ok, tc.archive, tc.dir, tc.ok)
		}
	}
}

func TestCredentialOutput(t *testing.T) {
	for _, args := range [][]string{
		{"gh", "auth", "token"}, {"aws", "configure", "export-credentials"}, {"aws", "--profile", "p", "secretsmanager", "get-secret-value"},
		{"kubectl", "-n", "prod", "get", "secret", "db", "-o", "yaml"}, {"kubectl", "get", "secrets", "-ojson"},
		{"gcloud", "auth", "print-access-token"}, {"aws", "ssm", "get-parameter", "--name", "x", "--with-decryption"},
	} {
		if _, ok := credentialOutput(&shell.Invocation{Name: args[0], Args: staticWords(args...)}); !ok {
			t.Errorf("%q prints no secret", args)
		}
	}
	for _, args := range [][]string{
		{"gh", "auth", "status"}, {"kubectl", "get", "secrets"}, {"kubectl", "get", "secrets", "-o", "name"},
		{"aws", "ssm", "get-parameter", "--name", "x"}, {"aws", "sts", "get-caller-identity"}, {"kubectl", "get", "pods", "-o", "yaml"},
	} {
		if v, ok := credentialOutput(&shell.Invocation{Name: args[0], Args: staticWords(args...)}); ok {
			t.Errorf("%q prints %s", args, v.what)
		}
	}
}
