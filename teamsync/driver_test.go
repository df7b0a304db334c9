package teamsync_test

import _ "modernc.org/sqlite" // the audit database's driver, which agenthooks-admin links
