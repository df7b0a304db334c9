package audit

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRedactKeyFormats: real key formats are redacted with no keyword beside them, as an
// argument, after a comment sign or in a JSON payload.
func TestRedactKeyFormats(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, text, secret string }{
		{"aws secret key after #", `aws s3 ls # wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		{"aws secret key argument", `aws configure set aws_secret_access_key je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY`, "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"},
		{"aws secret key starting with a slash", `deploy --creds /Kx9mQ2vR7tLp4Wz8Yb3Nc6Hd1Fg5Js0Ae2Uo8Ir`, "/Kx9mQ2vR7tLp4Wz8Yb3Nc6Hd1Fg5Js0Ae2Uo8Ir"[1:]},
		{"github classic token", `gh auth login --with-token ghp_R2d2C3poX7wing9Yoda4Luke5Leia6Han0So`, "ghp_R2d2C3poX7wing9Yoda4Luke5Leia6Han0So"},
		{"github fine-grained token", `git clone https://x:github_pat_11AABBCCD0123456789abcd_EfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUv@github.com/o/r`, "github_pat_11AABBCCD0123456789abcd_EfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUv"},
		{"slack bot token", `curl -H "Authorization: Bearer xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx" https://slack.com/api/chat.postMessage`, "xoxb-1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"},
		{"openai key", `OPENAI=sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3i python x.py`, "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3i"},
		{"anthropic key", `claude --api sk-ant-api03-Xy7Zq2Wv9Ut4Sr1Qp8On5Ml3Kj6Ih0Gf`, "sk-ant-api03-Xy7Zq2Wv9Ut4Sr1Qp8On5Ml3Kj6Ih0Gf"},
		{"stripe live key", `stripe charges list sk_live_51HqT2sKx9Lm4Np7Qr0St3Uv6Wx`, "sk_live_51HqT2sKx9Lm4Np7Qr0St3Uv6Wx"},
		{"jwt", `curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U" https://api`, "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"},
		{"bare base64 secret as an argument", `mytool login 9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ`, "9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ"},
		{"base64 secret with padding", `echo Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg== | base64 -d`, "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg"},
		{"base64url secret", `export X=Qk7-Lp2_Zr9xWm4-Nb8_Tc1vYh6-Jd3_Fs5g`, "Qk7-Lp2_Zr9xWm4-Nb8_Tc1vYh6-Jd3_Fs5g"},
		{"in a JSON payload after an escape", `{"tool_input":{"command":"echo hi\n9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ > .env"}}`, "9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ"},
		{"password in a URL", `git remote add o https://alice:hunter2hunter2@git.example.com/r.git`, "hunter2hunter2"},
		{"same key again inside a path", `cp 9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ /very/long/path/to/the/configuration/9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ-and-many-more-words-after-it`, "9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Redact(c.text)
			if strings.Contains(got, c.secret) || !strings.Contains(got, "[REDACTED:") {
				t.Errorf("Redact(%q) = %q, keeps the secret", c.text, got)
			}
		})
	}
}

// TestRedactKeepsOrdinaryText: hashes, ids, paths, names and URLs stay readable.
func TestRedactKeepsOrdinaryText(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"git checkout 3f786850e387550fdab836ed7e6dc881de23001b",
		"git show 3F786850E387550FDAB836ED7E6DC881DE23001B",
		"sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"docker pull alpine@sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		`{"session_id":"0f8e5c2a-9b1d-4e7f-a3c6-5d2b8e1f4a7c","conversation_id":"123e4567-e89b-12d3-a456-426614174000"}`,
		`{"transcript_path":"/Users/alice/.claude/projects/-Users-alice-src-agenthooks/0f8e5c2a-9b1d-4e7f-a3c6-5d2b8e1f4a7c.jsonl"}`,
		`{"tool_use_id":"toolu_01D7FLrfh4GYq7yT1ULFeyMV","message_id":"msg_01XFDUDYJgAACzvnptvVoYEL"}`,
		`{"sessionID":"ses_df180a7e2ffeJ4RyRfu0NoB2jj","callID":"call_00"}`, // OpenCode's
		"cat /home/alice/projects/agenthooks/internal/cli/testdata/script/audit.txtar",
		"ls /var/folders/zz/zyxvpxvq6csfxvn_n00000gn/T/TestFoo123/001",
		"cd src/components/UserProfile2Card && npm test",
		"go test -run TestAgentHooksGuardBash_Deny2 ./internal/cli/",
		"grep -r ThisIsAVeryLongCamelCaseIdentifier getUserById2FactorAuthentication",
		"echo MY_APPLICATION_SETTING_2_ENABLED com_example_MyApplication_v2_release",
		"xcodebuild -destination Xcode15_iPhoneSimulator17_4",
		"apt-get install internationalization-tools-2024 --no-install-recommends",
		"curl https://github.com/agenthooks/agenthooks/releases/download/v1.2.3/agenthooks_Linux_x86_64.tar.gz",
		"curl https://example.com/search?q=Hello2World&page=10&sessionLanguage=enUS",
		"pip install torch==2.1.0+cu121 --index-url https://download.pytorch.org/whl/cu121",
		"kubectl rollout restart deployment/frontend-web-7d9f8b6c5d-x2k4p",
		"echo aGVsbG8= | base64 -d",
		"ls /nix/store/5rnfzla9kcx4mj5zdc7nlnv8na1najvg-bash-5.2/bin",
		"2026-11-24T05:47:28.123456789Z",
	} {
		if got := Redact(text); got != text {
			t.Errorf("Redact(%q) = %q, want it unchanged", text, got)
		}
	}
}

// TestRedactRandomKeys measures the thresholds on random keys of several alphabets and lengths:
// mixed-case keys of 40 characters are caught nearly always, those of 20 most of the time.
func TestRedactRandomKeys(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		alphabet string
		n        int
		min      float64 // the share that must be caught
	}{
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 40, 0.99},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 40, 0.99},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 32, 0.98},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 64, 0.99},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 20, 0.90},
	} {
		caught := 0
		const tries = 2000
		for range tries {
			b := make([]byte, c.n)
			for i := range b {
				b[i] = c.alphabet[rng.IntN(len(c.alphabet))]
			}
			key := string(b)
			if !strings.Contains(Redact("run --key-file x "+key+" # done"), key) {
				caught++
			}
		}
		share := float64(caught) / tries
		t.Logf("%d-character keys over %d characters: %.1f%% caught", c.n, len(c.alphabet), 100*share)
		if share < c.min {
			t.Errorf("%d-character keys over %d characters: %.1f%% caught, want %.0f%%", c.n, len(c.alphabet), 100*share, 100*c.min)
		}
	}
}

// typicalPayload is what a Claude Code PreToolUse hook receives for one Bash call.
const typicalPayload = `{"session_id":"0f8e5c2a-9b1d-4e7f-a3c6-5d2b8e1f4a7c","transcript_path":"/Users/alice/.claude/projects/-Users-alice-src-app/0f8e5c2a-9b1d-4e7f-a3c6-5d2b8e1f4a7c.jsonl","cwd":"/Users/alice/src/app","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git log --oneline -5 3f786850e387550fdab836ed7e6dc881de23001b && npm test -- --watch=false","description":"Show recent commits and run the tests"},"tool_use_id":"toolu_01D7FLrfh4GYq7yT1ULFeyMV"}`

// BenchmarkRedact is what redaction costs a hook process for one typical record.
func BenchmarkRedact(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if Redact(typicalPayload) != typicalPayload {
			b.Fatal("the typical payload was changed")
		}
	}
}

// FuzzRedact: Redact never panics, is idempotent, and its output holds none of the tokens it
// judged secret.
func FuzzRedact(f *testing.F) {
	f.Add(typicalPayload)
	f.Add(`aws s3 ls # wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`)
	f.Add(`cp 9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ /x/9fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2jK4mN7pQ-and-words`)
	f.Add(`password=hunter22 https://u:p4ssw0rd@h ghp_R2d2C3poX7wing9Yoda4Luke5Leia6Han0So \u00419fK2xQ7LmZ4pR8sT1vW3yB6nC0dE5gH2`)
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nabc")
	f.Fuzz(func(t *testing.T, s string) {
		out := Redact(s)
		if again := Redact(out); again != out {
			t.Fatalf("not idempotent:\n in   %q\n once %q\n twice %q", s, out, again)
		}
		for _, sp := range highEntropySpans(s) {
			if secret := strings.TrimRight(s[sp[0]:sp[1]], "="); strings.Contains(out, secret) {
				t.Fatalf("Redact(%q) = %q keeps %q", s, out, secret)
			}
		}
	})
}
