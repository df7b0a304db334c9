-- How each member token's machine last reported its agents run the guard (package wiring, sent
-- by team sync): one row per agent present on the machine, replaced whole by each report; a
-- row with agent '' says the machine reported and had no agent.
CREATE TABLE wiring (
  token_id      TEXT NOT NULL,
  agent         TEXT NOT NULL,
  agent_version TEXT NOT NULL DEFAULT '',
  guard_version TEXT NOT NULL DEFAULT '',
  state         TEXT NOT NULL DEFAULT '',    -- agenthooks doctor's word, without its canary
  registered    INTEGER NOT NULL DEFAULT 0,  -- 1: an agenthooks guard on the agent's shell tool
  fail_closed   INTEGER NOT NULL DEFAULT 0,  -- 1: one of them is --fail-closed
  resolves      INTEGER NOT NULL DEFAULT 0,  -- 1: every agenthooks program resolves
  disabled_by   TEXT NOT NULL DEFAULT '[]',  -- JSON array: the agent's settings that switch it off
  reported      BIGINT NOT NULL,             -- when the server got the report (unix microseconds)
  PRIMARY KEY (token_id, agent)
);
