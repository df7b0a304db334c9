-- export_leases: which exporter is sending to a destination now, so that two exporters
-- (agenthooks-admin export --watch twice, or with an export on ingest) never send the same
-- records side by side. A lease ends when its holder releases it or its time runs out.
CREATE TABLE export_leases (
  name  TEXT PRIMARY KEY,   -- the destination, as in export_cursors
  owner TEXT NOT NULL,      -- host, process id and start time of the holder
  until INTEGER NOT NULL    -- unix microseconds
);
