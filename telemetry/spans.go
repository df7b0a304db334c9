package telemetry

import (
	"crypto/sha256"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/instrumentation"
	sdkresource "go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/internal/tracectx"
)

// Scope is the instrumentation scope of the spans and metrics agenthooks exports.
const Scope = "github.com/agenthooks/agenthooks/telemetry"

// Attribute names. The gen_ai.* ones are the GenAI semantic conventions'; the others are
// agenthooks' own (docs/telemetry.md).
const (
	AttrAgentName      = "gen_ai.agent.name"
	AttrConversationID = "gen_ai.conversation.id"
	AttrToolName       = "gen_ai.tool.name"
	AttrToolCallID     = "gen_ai.tool.call.id"

	AttrRecordID   = "agenthooks.record.id"
	AttrRecordHash = "agenthooks.record.hash"
	AttrOrigin     = "agenthooks.origin"
	AttrEvent      = "agenthooks.event"
	AttrWorkspace  = "agenthooks.workspace"
	AttrDecision   = "agenthooks.decision"
	AttrReason     = "agenthooks.reason"
	AttrRule       = "agenthooks.rule"
	AttrWarnings   = "agenthooks.warnings"

	AttrHook         = "agenthooks.hook"
	AttrHookCommand  = "agenthooks.hook.command"
	AttrHookLayer    = "agenthooks.hook.layer"
	AttrHookDialect  = "agenthooks.hook.dialect"
	AttrHookEvent    = "agenthooks.hook.event"
	AttrHookVerdict  = "agenthooks.hook.verdict"
	AttrHookExitCode = "agenthooks.hook.exit_code"
	AttrHookTimedOut = "agenthooks.hook.timed_out"
	AttrHookError    = "agenthooks.hook.error"
)

// toolCall is what the spans say of the tool call a decision was about, read from the stored
// (redacted, possibly truncated) payload.
type toolCall struct {
	name, id string
}

// The patterns are compiled on first use: agenthooks-admin also starts for http hooks and
// ingests, which must not pay for them.
var (
	toolNameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"tool_name"\s*:\s*"([^"\\]{1,200})"`) })
	toolIDRe   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`"(?:tool_use_id|tool_call_id|call_id)"\s*:\s*"([^"\\]{1,200})"`)
	})
	ruleRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([a-z0-9][a-z0-9._-]{1,80}): `) })
)

func toolOf(payload string) toolCall {
	var p struct {
		ToolName   string `json:"tool_name"`
		ToolUseID  string `json:"tool_use_id"`
		ToolCallID string `json:"tool_call_id"`
		CallID     string `json:"call_id"`
	}
	if json.Unmarshal([]byte(payload), &p) == nil {
		return toolCall{name: p.ToolName, id: firstOf(p.ToolUseID, p.ToolCallID, p.CallID)}
	}
	// A payload over the audit's field limit is stored truncated, so no longer JSON.
	var t toolCall
	if m := toolNameRe().FindStringSubmatch(payload); m != nil {
		t.name = m[1]
	}
	if m := toolIDRe().FindStringSubmatch(payload); m != nil {
		t.id = m[1]
	}
	return t
}

func firstOf(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// ruleOf is the policy rule a guard's reason names first ("rm-recursive-danger: ..."), or "".
func ruleOf(r *audit.Record) string {
	if !strings.HasPrefix(r.Origin, "guard") {
		return ""
	}
	if m := ruleRe().FindStringSubmatch(r.Reason); m != nil {
		return m[1]
	}
	return ""
}

// derivedID makes an id from a record when it has none (records from before trace context,
// guards run without a TRACEPARENT): the same record always gets the same id, so a batch sent
// again after an interrupted export carries the ids it had, and a backend sees the same spans
// twice, not two spans. The id comes from the record's chain hash, which no other record
// shares, on this machine or another, and which never changes once the record is stored; a
// record without one (not chained) uses its row id, time and origin.
func derivedID(r *audit.Record, what string, n int) []byte {
	h := sha256.New()
	h.Write([]byte("agenthooks span id\x00" + what + "\x00"))
	if r.Hash != "" {
		h.Write([]byte("chain\x00" + r.Hash))
	} else {
		h.Write(strconv.AppendInt(nil, r.ID, 10))
		h.Write(strconv.AppendInt(nil, r.Time.UnixNano(), 10))
		h.Write([]byte(r.Origin + "\x00" + r.Event + "\x00" + r.Session))
	}
	sum := h.Sum(nil)
	sum[0] |= 1 // never all zeros
	return sum[:n]
}

func traceIDOf(r *audit.Record) trace.TraceID {
	if id, err := tracectx.ParseTraceID(r.TraceID); err == nil && id.IsValid() {
		return trace.TraceID(id)
	}
	return trace.TraceID(derivedID(r, "trace", 16))
}

func spanIDOf(r *audit.Record, s, what string) trace.SpanID {
	if id, err := tracectx.ParseSpanID(s); err == nil && id.IsValid() {
		return trace.SpanID(id)
	}
	return trace.SpanID(derivedID(r, what, 8))
}

// Spans turns one audit record into its spans: the decision (one per fire), then one child
// per hook run. The decision's parent is the agent's span when the record carries one (a
// remote parent: the spans join the agent's trace). Times: a record is stored when its
// decision is made, so the decision span ends then; a run lasts its duration from its
// recorded start (a run recorded without one ends with the decision), and the decision starts
// with its earliest run. Reasons, commands and errors are redacted again
// (audit.Redact), whatever the database holds.
func Spans(r *audit.Record, res *sdkresource.Resource) []sdktrace.ReadOnlySpan {
	traceID := traceIDOf(r)
	fireID := spanIDOf(r, r.SpanID, "fire")
	end := r.Time
	start := end
	for i := range r.Runs {
		if s, _ := runTimes(r, &r.Runs[i]); s.Before(start) {
			start = s
		}
	}
	scope := instrumentation.Scope{Name: Scope}
	flags := trace.FlagsSampled
	fire := trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: fireID, TraceFlags: flags})
	var parent trace.SpanContext
	if id, err := tracectx.ParseSpanID(r.ParentSpanID); err == nil && id.IsValid() {
		parent = trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: trace.SpanID(id), TraceFlags: flags, Remote: true})
	}
	tool := toolOf(r.Payload)
	common := []attribute.KeyValue{attribute.String(AttrAgentName, r.Agent)}
	if r.Session != "" {
		common = append(common, attribute.String(AttrConversationID, r.Session))
	}
	if tool.name != "" {
		common = append(common, attribute.String(AttrToolName, tool.name))
	}
	if tool.id != "" {
		common = append(common, attribute.String(AttrToolCallID, tool.id))
	}
	attrs := append(append([]attribute.KeyValue{}, common...),
		attribute.Int64(AttrRecordID, r.ID),
		attribute.String(AttrOrigin, r.Origin),
		attribute.String(AttrEvent, r.Event),
		attribute.String(AttrDecision, r.Decision),
	)
	if r.Hash != "" {
		attrs = append(attrs, attribute.String(AttrRecordHash, r.Hash))
	}
	if r.Workspace != "" {
		attrs = append(attrs, attribute.String(AttrWorkspace, r.Workspace))
	}
	if r.Reason != "" {
		attrs = append(attrs, attribute.String(AttrReason, audit.Redact(r.Reason)))
	}
	if rule := ruleOf(r); rule != "" {
		attrs = append(attrs, attribute.String(AttrRule, rule))
	}
	if len(r.Warnings) > 0 {
		w := make([]string, len(r.Warnings))
		for i, s := range r.Warnings {
			w[i] = audit.Redact(s)
		}
		attrs = append(attrs, attribute.StringSlice(AttrWarnings, w))
	}
	name := "agenthooks " + r.Event
	if tool.name != "" {
		name += " " + tool.name
	}
	stubs := tracetest.SpanStubs{{
		Name: name, SpanContext: fire, Parent: parent, SpanKind: trace.SpanKindInternal,
		StartTime: start, EndTime: end, Attributes: attrs, Resource: res, InstrumentationScope: scope,
		Status: statusOf(false, ""), // a deny is a decision made, not a failure
	}}
	for i, run := range r.Runs {
		runID := spanIDOf(r, run.SpanID, "run "+strconv.Itoa(i))
		runStart, runEnd := runTimes(r, &r.Runs[i])
		ra := append(append([]attribute.KeyValue{}, common...),
			attribute.Int64(AttrRecordID, r.ID),
			attribute.String(AttrHook, run.Hook),
			attribute.String(AttrHookVerdict, run.Verdict),
		)
		for _, kv := range []struct{ k, v string }{{AttrHookCommand, audit.Redact(run.Command)}, {AttrHookLayer, run.Layer},
			{AttrHookDialect, run.Dialect}, {AttrHookEvent, run.Event}, {AttrHookError, audit.Redact(run.Error)}} {
			if kv.v != "" {
				ra = append(ra, attribute.String(kv.k, kv.v))
			}
		}
		if run.ExitCode != nil {
			ra = append(ra, attribute.Int(AttrHookExitCode, *run.ExitCode))
		}
		if run.TimedOut {
			ra = append(ra, attribute.Bool(AttrHookTimedOut, true))
		}
		failed := run.Verdict == "error" || run.Verdict == "failed-closed" || run.Verdict == "refused" || run.TimedOut
		stubs = append(stubs, tracetest.SpanStub{
			Name:        "hook " + run.Hook,
			SpanContext: trace.NewSpanContext(trace.SpanContextConfig{TraceID: traceID, SpanID: runID, TraceFlags: flags}),
			Parent:      fire, SpanKind: trace.SpanKindInternal,
			StartTime: runStart, EndTime: runEnd, Attributes: ra, Resource: res, InstrumentationScope: scope,
			Status: statusOf(failed, audit.Redact(run.Error)),
		})
	}
	return stubs.Snapshots()
}

// runTimes is when a run started and ended: from its recorded start when it has one (a start
// before the record's time), else ending with the record and lasting its duration.
func runTimes(r *audit.Record, run *audit.Run) (start, end time.Time) {
	if !run.Time.IsZero() && run.Time.Before(r.Time) {
		return run.Time, run.Time.Add(run.Duration)
	}
	return r.Time.Add(-run.Duration), r.Time
}

func statusOf(failed bool, msg string) sdktrace.Status {
	if !failed {
		return sdktrace.Status{Code: codes.Unset}
	}
	return sdktrace.Status{Code: codes.Error, Description: msg}
}
