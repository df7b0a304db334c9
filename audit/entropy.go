package audit

import (
	"math"
	"strings"
)

// Secrets with no keyword beside them (a bare key after #, a token given as an argument) are
// found by their shape: a run of base64 characters ([A-Za-z0-9+/_-], with its = padding) is a
// secret when all of these hold, and is replaced by [REDACTED:high-entropy]:
//
//   - it is at least minTokenLen (20) characters long, padding aside;
//   - it holds a lower-case letter, an upper-case letter and a digit. Pure hex (git and other
//     hashes, UUIDs), lower-case names, paths and options stay readable; so do hex-encoded and
//     single-case (base32) secrets, which only the keyword patterns catch;
//   - its Shannon entropy per character is at least entropyFloor(len): about the 0.1th
//     percentile of random base62 strings of that length (3.45 bits at 20 characters, 4.3 at 40,
//     4.8 from 64 on), so that a random key is missed about once in a thousand;
//   - less than maxWordy (65%) of it is word-like: its parts between / + _ - that are a number or
//     a word in one case (or capitalised), and elsewhere runs of three or more lower-case
//     letters (with an optional capital before them) or four or more capitals. CamelCase
//     identifiers, test names, CONSTANT_NAMES and file names such as agenthooks_Linux_x86_64
//     are 65-95% word-like; random base62 is 20-25%, and 99.9% of random 40-character keys
//     stay under 68%.
//
// Identifiers the agents themselves put in every payload (Claude's toolu_ and msg_ ids, OpenAI's
// call_ and chatcmpl- ids, req_ request ids, OpenCode's ses_ session ids) are random too, but they are not secrets and a
// record is matched to its agent's transcript by them: a token with one of these prefixes stays.
//
// A run that starts with / is read as a path: it is not judged whole, but each of its segments
// is. Runs are cut at every other character, so URLs, dotted versions and file names are
// judged piece by piece. Every occurrence of a flagged token is replaced, wherever it appears.
//
// Measured by TestRedactRandomKeys on 2,000 random keys each: mixed-case keys of 20 characters
// are caught 94% of the time, of 32 characters 98.7%, of 40 characters 99.4-99.6%, of 64
// characters all. Base64 of ordinary text of 20 characters or more (dGhpcyBpcyBhIHNlY3JldA) is
// usually caught too, which errs on the side of the secret; shorter base64 (aGVsbG8=) stays.
const (
	minTokenLen = 20
	maxWordy    = 0.65
)

// entropyFloor is the least Shannon entropy, in bits per character, of a secret of n characters.
func entropyFloor(n int) float64 {
	// Points (length, bits) measured on random base62, linear between them.
	xs := [...]float64{20, 24, 32, 40, 64}
	ys := [...]float64{3.45, 3.7, 4.05, 4.3, 4.8}
	x := float64(n)
	if x >= xs[len(xs)-1] {
		return ys[len(ys)-1]
	}
	for i := 1; i < len(xs); i++ {
		if x <= xs[i] {
			return ys[i-1] + (ys[i]-ys[i-1])*(x-xs[i-1])/(xs[i]-xs[i-1])
		}
	}
	return ys[0]
}

func isTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// highEntropySpans returns the [start, end) byte spans of s that look like secrets, in order.
func highEntropySpans(s string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(s); {
		if !isTokenByte(s[i]) {
			i++
			continue
		}
		start := i
		for i < len(s) && isTokenByte(s[i]) {
			i++
		}
		end := i
		// A JSON or shell escape (\n, \t, \u0041) glued to the token's front is not part of it.
		if start > 0 && s[start-1] == '\\' {
			if s[start] == 'u' && start+5 <= end && isHex(s[start+1:start+5]) {
				start += 5
			} else {
				start++
			}
		}
		if end-start < minTokenLen || agentID(s[start:end]) {
			continue
		}
		if s[start] != '/' && secretShaped(s[start:end]) {
			for i < len(s) && s[i] == '=' {
				i++
			}
			spans = append(spans, [2]int{start, i})
			continue
		}
		if strings.IndexByte(s[start:end], '/') < 0 {
			continue
		}
		// A path, or a key with a slash in it that was not judged secret whole: its segments.
		for seg := start; seg < end; {
			j := seg
			for j < end && s[j] != '/' {
				j++
			}
			if j-seg >= minTokenLen && secretShaped(s[seg:j]) {
				spans = append(spans, [2]int{seg, j})
			}
			seg = j + 1
		}
	}
	return spans
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isDigit(c) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// secretShaped applies the thresholds above to one token of base64 characters.
func secretShaped(t string) bool {
	var lower, upper, digit bool
	var counts [128]uint16
	for i := 0; i < len(t); i++ {
		c := t[i]
		lower, upper, digit = lower || isLower(c), upper || isUpper(c), digit || isDigit(c)
		counts[c]++
	}
	if !lower || !upper || !digit {
		return false
	}
	n := float64(len(t))
	h := 0.0
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	if h < entropyFloor(len(t)) {
		return false
	}
	words := 0
	for seg := range strings.FieldsFuncSeq(t, func(r rune) bool { return r == '/' || r == '+' || r == '_' || r == '-' }) {
		if plainWord(seg) {
			words += len(seg)
		} else {
			words += wordLike(seg)
		}
	}
	return float64(words) < maxWordy*n
}

// plainWord reports whether seg, of two characters or more, is a number or a word in one case
// (or capitalised): x86_64's 64, agenthooks_Linux's parts.
func plainWord(seg string) bool {
	if len(seg) < 2 {
		return false
	}
	digits, lower, upper := 0, 0, 0
	for i := 0; i < len(seg); i++ {
		switch c := seg[i]; {
		case isDigit(c):
			digits++
		case isLower(c):
			lower++
		case isUpper(c):
			upper++
		}
	}
	return digits == len(seg) || lower == len(seg) || upper == len(seg) || upper == 1 && isUpper(seg[0]) && lower == len(seg)-1
}

// wordLike counts the bytes of t in word-like runs: [A-Z]?[a-z]{3,} or [A-Z]{4,}.
func wordLike(t string) int {
	in := 0
	for i := 0; i < len(t); {
		j := i
		if isUpper(t[j]) {
			j++
		}
		k := j
		for k < len(t) && isLower(t[k]) {
			k++
		}
		if k-j >= 3 {
			in += k - i
			i = k
			continue
		}
		k = i
		for k < len(t) && isUpper(t[k]) {
			k++
		}
		if k-i >= 4 {
			in += k - i
			i = k
			continue
		}
		i++
	}
	return in
}

// redactHighEntropy replaces every occurrence of each secret-shaped token of s.
func redactHighEntropy(s string) string {
	spans := highEntropySpans(s)
	if spans == nil {
		return s
	}
	const marker = "[REDACTED:high-entropy]"
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	var secrets []string
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(marker)
		secrets = append(secrets, strings.TrimRight(s[sp[0]:sp[1]], "="))
		last = sp[1]
	}
	b.WriteString(s[last:])
	out := b.String()
	// The same key inside a longer token that was not judged whole.
	for _, secret := range secrets {
		if strings.Contains(out, secret) {
			out = strings.ReplaceAll(out, secret, marker)
		}
	}
	return out
}

// agentID reports whether t is an id an agent puts in its payloads (see above).
func agentID(t string) bool {
	for _, p := range [...]string{"toolu_", "msg_", "req_", "call_", "chatcmpl-", "ses_"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
