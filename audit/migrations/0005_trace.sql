-- Trace context (W3C): the trace a decision belongs to, its own span and the agent's span it
-- continues, and each hook run's span (the parent id its process got in TRACEPARENT). NULL for
-- records without one, so that the chain hashes records from before this version as it did.
-- export_cursors: how far each exporter (agenthooks-admin export) got, by destination.
ALTER TABLE decisions ADD COLUMN trace_id TEXT;
ALTER TABLE decisions ADD COLUMN span_id TEXT;
ALTER TABLE decisions ADD COLUMN parent_span_id TEXT;
ALTER TABLE runs ADD COLUMN span_id TEXT;
CREATE TABLE export_cursors (
  name    TEXT PRIMARY KEY,   -- the exporter and its destination
  last_id INTEGER NOT NULL,   -- the newest decision it delivered
  updated INTEGER NOT NULL    -- unix microseconds
);
