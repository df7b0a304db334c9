package audit

import (
	"regexp"
	"strings"
	"sync"
)

// secretPatterns find the secrets agents most often carry in payloads: private keys, cloud and
// forge tokens, and values assigned to names such as password or api_key. Each match is replaced
// by [REDACTED:<kind>]. (gitleaks' detector, used by the secret guards, takes tens of
// milliseconds to build; the audit write must stay under one.)
var secretPatterns = sync.OnceValue(func() []secretPattern {
	type p = secretPattern
	return []p{
		{"private-key", regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(-----END [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|$)`), 0},
		{"aws-access-key", regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[A-Z0-9]{16}\b`), 0},
		{"aws-secret-key", regexp.MustCompile(`(?i)(aws_?secret_?(?:access_?)?key(?:_id)?)(\\?["']?\s*[:=]\s*\\?["']?)([A-Za-z0-9/+=]{40})`), 3},
		{"github-token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`), 0},
		{"slack-token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), 0},
		{"api-key", regexp.MustCompile(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}`), 0},
		{"google-api-key", regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`), 0},
		{"stripe-key", regexp.MustCompile(`\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{16,}`), 0},
		{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), 0},
		{"password", regexp.MustCompile(`(?i)\b(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth[_-]?token|client[_-]?secret)(\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;&]{6,})`), 3},
	}
})

type secretPattern struct {
	kind  string
	re    *regexp.Regexp
	group int // the submatch that is the secret; 0 is the whole match
}

// Redact replaces the secrets in s by [REDACTED:<kind>].
func Redact(s string) string {
	if s == "" {
		return s
	}
	for _, p := range secretPatterns() {
		if p.group == 0 {
			s = p.re.ReplaceAllString(s, "[REDACTED:"+p.kind+"]")
			continue
		}
		s = replaceGroup(s, p)
	}
	return s
}

func replaceGroup(s string, p secretPattern) string {
	matches := p.re.FindAllStringSubmatchIndex(s, -1)
	if matches == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		start, end := m[2*p.group], m[2*p.group+1]
		if start < 0 {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString("[REDACTED:" + p.kind + "]")
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
