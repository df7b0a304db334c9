// Package telemetry exports the audit trail to observability and security systems: every
// decision and hook run as OpenTelemetry spans and metrics over OTLP (gRPC or HTTP, with the
// official Go SDK), every record as JSON lines for a SIEM, and batches of records to a webhook
// signed with HMAC-SHA256. It reads records from the audit database (audit.Store), never from a
// hook process: the hook path only appends to the spool, and pays nothing for any of this.
// Each destination has a cursor in the database (the newest record it received), so an export
// run again, or a watch restarted, sends only what is new; delivery is at least once, and a
// batch sent again carries the span ids it had (derived from the record, see Spans) and, for
// the OTLP metrics, whose totals are stored with the cursor, the values it had.
//
// Only agenthooks-admin imports this package: it links the OpenTelemetry SDK, gRPC and
// net/http, which the agenthooks binary (and its guard) must not. Span and metric names follow
// the OpenTelemetry GenAI semantic conventions where they define one (gen_ai.agent.name,
// gen_ai.conversation.id, gen_ai.tool.name, gen_ai.tool.call.id) and use the agenthooks.
// namespace otherwise; docs/telemetry.md lists them all.
package telemetry
