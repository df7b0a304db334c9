-- log stats reads the runs of a time window (runs_ts), and each hook's run times within it
-- without touching the table (runs_hook_cover covers the columns it reads).
CREATE INDEX runs_ts ON runs (ts, hook, verdict, timed_out);
DROP INDEX runs_hook_ts;
CREATE INDEX runs_hook_cover ON runs (hook, ts, verdict, duration_us);
