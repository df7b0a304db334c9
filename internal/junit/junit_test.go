package junit

import (
	"encoding/xml"
	"fmt"
	"testing"
)

// reference is the document as encoding/xml writes it, which CI systems have read so far.
func reference(t testing.TB, suites []Suite) []byte {
	type failure struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	}
	type testcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		Time      string   `xml:"time,attr"`
		Failure   *failure `xml:"failure,omitempty"`
	}
	type suite struct {
		Name     string     `xml:"name,attr"`
		Tests    int        `xml:"tests,attr"`
		Failures int        `xml:"failures,attr"`
		Cases    []testcase `xml:"testcase"`
	}
	type doc struct {
		XMLName xml.Name `xml:"testsuites"`
		Suites  []suite  `xml:"testsuite"`
	}
	var d doc
	for _, s := range suites {
		rs := suite{Name: s.Name, Tests: len(s.Cases)}
		for _, c := range s.Cases {
			tc := testcase{Name: c.Name, Classname: c.Classname, Time: fmt.Sprintf("%.3f", c.Seconds)}
			if c.Failure != nil {
				tc.Failure = &failure{Message: c.Failure.Message, Text: c.Failure.Text}
				rs.Failures++
			}
			rs.Cases = append(rs.Cases, tc)
		}
		d.Suites = append(d.Suites, rs)
	}
	b, err := xml.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(xml.Header), append(b, '\n')...)
}

var nasty = []string{"", "plain", `a "quoted" 'word'`, "<tag> & </tag>", "tab\there", "line\nbreak\r\n",
	"bell\a nul\x00", "bad utf-8 \xff\xfe", "\uFFFD real", "é ü 日本 🙂", "\uFFFE \uFFFF", "]]>", "\U0010FFFF"}

func TestMarshalAsEncodingXML(t *testing.T) {
	cases := [][]Suite{
		nil,
		{{Name: "mine.yaml", Cases: []Case{
			{Name: "curl is denied", Classname: "mine.yaml", Seconds: 0.0012},
			{Name: "ls is denied", Classname: "mine.yaml", Seconds: 1.5, Failure: &Failure{Message: "decision: want deny, got allow", Text: "decision: want deny, got allow"}},
			{Name: "the message", Classname: "mine.yaml", Seconds: 12345.6789, Failure: &Failure{Message: "a; b", Text: "a\nb"}},
		}}, {Name: "other.yaml", Cases: []Case{{Name: "x", Classname: "other.yaml"}}}},
		{{Name: "empty.yaml"}},
	}
	for _, s := range nasty {
		cases = append(cases, []Suite{{Name: s, Cases: []Case{{Name: s, Classname: s, Seconds: -0.0004, Failure: &Failure{Message: s, Text: s}}}}})
	}
	for i, suites := range cases {
		if got, want := Marshal(suites), reference(t, suites); string(got) != string(want) {
			t.Errorf("case %d:\n got %q\nwant %q", i, got, want)
		}
	}
}

// FuzzMarshal: whatever the names and messages hold, the document is what encoding/xml writes,
// and it parses.
func FuzzMarshal(f *testing.F) {
	for _, s := range nasty {
		f.Add(s, s, 0.5, true)
	}
	f.Fuzz(func(t *testing.T, name, text string, seconds float64, failed bool) {
		c := Case{Name: name, Classname: name, Seconds: seconds}
		if failed {
			c.Failure = &Failure{Message: text, Text: text}
		}
		suites := []Suite{{Name: name, Cases: []Case{c, {Name: text}}}}
		got := Marshal(suites)
		if want := reference(t, suites); string(got) != string(want) {
			t.Fatalf("got %q\nwant %q", got, want)
		}
		var v any
		if err := xml.Unmarshal(got, &v); err != nil {
			t.Fatalf("the document does not parse: %v\n%s", err, got)
		}
	})
}
