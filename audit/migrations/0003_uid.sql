-- Records written through the spool carry a unique id, so that an ingest interrupted after its
-- commit and run again inserts nothing twice.
ALTER TABLE decisions ADD COLUMN uid TEXT;
CREATE UNIQUE INDEX decisions_uid ON decisions (uid) WHERE uid IS NOT NULL;
