CREATE TABLE decisions (
  id           INTEGER PRIMARY KEY,
  ts           INTEGER NOT NULL,            -- unix microseconds
  origin       TEXT NOT NULL,               -- run, guard bash, ...
  agent        TEXT NOT NULL,
  event        TEXT NOT NULL,
  workspace    TEXT NOT NULL DEFAULT '',
  session      TEXT NOT NULL DEFAULT '',
  decision     TEXT NOT NULL,               -- allow, ask, deny, defer, or none
  reason       TEXT NOT NULL DEFAULT '',
  payload      TEXT NOT NULL DEFAULT '',    -- redacted and truncated
  payload_size INTEGER NOT NULL DEFAULT 0,  -- bytes before truncation
  warnings     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX decisions_ts ON decisions (ts);
CREATE INDEX decisions_event_ts ON decisions (event, ts);
CREATE INDEX decisions_decision_ts ON decisions (decision, ts);
CREATE INDEX decisions_workspace_ts ON decisions (workspace, ts);
CREATE INDEX decisions_agent_ts ON decisions (agent, ts);

CREATE TABLE runs (
  id          INTEGER PRIMARY KEY,
  decision_id INTEGER NOT NULL REFERENCES decisions (id) ON DELETE CASCADE,
  ts          INTEGER NOT NULL,
  hook        TEXT NOT NULL,                -- the hook's source: file:line:col
  layer       TEXT NOT NULL DEFAULT '',
  dialect     TEXT NOT NULL DEFAULT '',
  event       TEXT NOT NULL DEFAULT '',
  command     TEXT NOT NULL DEFAULT '',
  exit_code   INTEGER,
  duration_us INTEGER NOT NULL DEFAULT 0,
  timed_out   INTEGER NOT NULL DEFAULT 0,
  verdict     TEXT NOT NULL,
  error       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_decision ON runs (decision_id);
CREATE INDEX runs_hook_ts ON runs (hook, ts);
