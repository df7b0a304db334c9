package secrets

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/secrets/client"
	"testing"
	"time"
)

func TestScanFindsSecretsByRuleAndLine(t *testing.T) {
	text := "line one\nexport GITHUB_TOKEN=ghp_" + strings.Repeat("aB3dE5fG7h", 3) + "xYz123\n" +
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Zz8Jp2mQm3w5vYb6l3+f7r9kq1tLk7mHq8n2b4c6d8e0f1g\n-----END RSA PRIVATE KEY-----\n"
	found, truncated, err := Scan(text, 1<<20, 5*time.Second)
	if err != nil || truncated {
		t.Fatal(err, truncated)
	}
	if len(found) == 0 {
		t.Fatal("no secret found")
	}
	desc := client.Describe(found)
	if strings.Contains(desc, "ghp_") || strings.Contains(desc, "MIIE") {
		t.Fatalf("the description shows the secret: %s", desc)
	}
	if !strings.Contains(desc, "line 2") {
		t.Errorf("lines: %s", desc)
	}
}

func TestScanOrdinaryText(t *testing.T) {
	found, _, err := Scan("package main\n\nfunc main() { println(\"hello\") }\n", 1<<20, 5*time.Second)
	if err != nil || len(found) != 0 {
		t.Fatalf("%v %v", found, err)
	}
	_, truncated, _ := Scan(strings.Repeat("a", 100), 10, time.Second)
	if !truncated {
		t.Error("not truncated")
	}
}

func BenchmarkScan1MiB(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("func handler(w http.ResponseWriter, r *http.Request) { fmt.Fprintf(w, \"%s\", r.URL.Path) }\n")
	}
	text := sb.String()
	Scan("warm", 0, time.Second)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Scan(text, 2<<20, 10*time.Second); err != nil {
			b.Fatal(err)
		}
	}
}
