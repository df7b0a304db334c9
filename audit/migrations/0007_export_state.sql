-- An exporter's state that must move with its cursor, in the same transaction: the OTLP
-- exporter's cumulative metrics and their start time, so that a restarted exporter continues
-- them, and a batch sent again after a crash is not counted twice. NULL for none.
ALTER TABLE export_cursors ADD COLUMN state BLOB;
