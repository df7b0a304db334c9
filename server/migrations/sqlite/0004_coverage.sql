-- What each member token's machine last reported of its agents' tool calls (agenthooks status
-- --coverage, sent by team sync): one row per agent and agent version, replaced whole by each
-- report.
CREATE TABLE coverage (
  token_id      TEXT NOT NULL,
  agent         TEXT NOT NULL,
  agent_version TEXT NOT NULL,
  guard_version TEXT NOT NULL DEFAULT '',
  sessions      BIGINT NOT NULL DEFAULT 0,
  calls         BIGINT NOT NULL DEFAULT 0,
  unguarded     BIGINT NOT NULL DEFAULT 0,
  last_call     BIGINT,                  -- unix microseconds; NULL: no call in the window
  since         BIGINT NOT NULL,         -- the window the machine read (unix microseconds)
  reported      BIGINT NOT NULL,         -- when the server got the report
  PRIMARY KEY (token_id, agent, agent_version)
);
-- A team's settings for its dashboard: the hook latency (p95) past which a hook is flagged.
CREATE TABLE team_settings (
  team_id              TEXT PRIMARY KEY,
  latency_threshold_ms BIGINT NOT NULL DEFAULT 0   -- 0: no threshold
);
