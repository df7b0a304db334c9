package admincli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/audit"
	"github.com/agenthooks/agenthooks/config"
	"github.com/agenthooks/agenthooks/internal/cli"
	"github.com/agenthooks/agenthooks/teamsync"
)

// env is what the sync command reads of the process.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
}

type syncParams struct {
	server    string
	team      string
	tokenFile string
	key       string
	once      bool
	every     time.Duration
	claude    bool
	claudeDir string
	noAudit   bool
	audit     string
	goos      string
}

// Sync is the sync command: the member side of team distribution.
func Sync(stdout, stderr io.Writer) *cobra.Command {
	e := &env{stdout: stdout, stderr: stderr, getenv: os.Getenv}
	var p syncParams
	c := &cobra.Command{
		Use:   "sync --server URL --team ID",
		Short: "Fetch the team's signed hooks bundle for this machine and upload its audit records",
		Long: `Fetch the team's hooks for this machine's operating system from an agenthooks server, verify
the bundle's signature against the team key pinned at enrolment (--key on the first sync) and
every file's digest, and install it into ~/.cursor/managed/team_ID/hooks/, where Cursor and
agenthooks run read team hooks. Files the new version dropped are removed. When the server is
down or sends anything that does not verify, the last good bundle stays and sync says so.

The member token comes from --token-file or $AGENTHOOKS_TOKEN. Without --once, sync runs every
--every (30 minutes by default, with up to 10% jitter) until stopped. With --once, exit status
1 when the sync kept the last good bundle because of a problem, or left audit records
unsent (the server refused them, was unreachable, or there were more than one sync sends).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSync(cmd.Context(), e, p) },
	}
	c.Flags().StringVar(&p.server, "server", "", "the server's `URL`")
	c.Flags().StringVar(&p.team, "team", "", "the team `ID`")
	c.Flags().StringVar(&p.tokenFile, "token-file", "", "read the member token from this `FILE` (default $AGENTHOOKS_TOKEN)")
	c.Flags().StringVar(&p.key, "key", "", "the team's public key (hex), pinned on the first sync")
	c.Flags().BoolVar(&p.once, "once", false, "sync once and exit (for cron and MDM)")
	c.Flags().DurationVar(&p.every, "every", 30*time.Minute, "time between syncs")
	c.Flags().BoolVar(&p.claude, "claude", false, "also register the team's hooks in Claude Code's managed settings")
	c.Flags().StringVar(&p.claudeDir, "claude-dir", "", "Claude Code's managed settings folder (default the platform's, such as /etc/claude-code)")
	c.Flags().BoolVar(&p.noAudit, "no-audit", false, "do not upload audit records")
	c.Flags().StringVar(&p.audit, "audit", "", "the audit database to upload from (default $AGENTHOOKS_AUDIT, else ~/.agenthooks/audit.db)")
	c.Flags().StringVar(&p.goos, "os", "", "fetch the bundle of this OS instead of this machine's (linux, darwin, windows)")
	c.MarkFlagRequired("server")
	c.MarkFlagRequired("team")
	return c
}

func runSync(ctx context.Context, e *env, p syncParams) error {
	token := strings.TrimSpace(e.getenv("AGENTHOOKS_TOKEN"))
	if p.tokenFile != "" {
		data, err := os.ReadFile(p.tokenFile)
		if err != nil {
			return fmt.Errorf("read the member token: %w", err)
		}
		token = strings.TrimSpace(string(data))
	}
	// Getenv says where the agents keep their config files (the wiring report) and transcripts
	// (the coverage report).
	o := teamsync.Options{Server: p.server, Team: p.team, Token: token, Key: p.key, OS: p.goos, Home: cli.Home(e.getenv), Getenv: e.getenv}
	if p.claude || p.claudeDir != "" {
		o.ClaudeDir = p.claudeDir
		if o.ClaudeDir == "" {
			o.ClaudeDir = config.ClaudeManagedDir(runtime.GOOS)
		}
		o.Agenthooks = cli.LeanBinary()
	}
	if !p.noAudit {
		o.AuditDB = cmp.Or(p.audit, e.getenv("AGENTHOOKS_AUDIT"), audit.DefaultPath(cli.Home(e.getenv)))
		if o.AuditDB == "off" {
			o.AuditDB = ""
		}
	}
	if p.every < time.Minute && !p.once {
		return fmt.Errorf("--every %s is too short: at least 1m", p.every)
	}
	for {
		res, err := teamsync.Sync(ctx, o)
		if err != nil {
			return err
		}
		report(e, p.team, res)
		if p.once {
			if res.Kept || res.AuditLeft != 0 {
				return cli.ExitStatus(1)
			}
			return nil
		}
		wait := p.every + time.Duration(rand.Int64N(int64(p.every/10)+1))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

func report(e *env, team string, res *teamsync.Result) {
	now := time.Now().Format(time.RFC3339)
	switch {
	case res.Kept && res.Version > 0:
		fmt.Fprintf(e.stderr, "%s team %s: %s; keeping version %d\n", now, team, res.Problem, res.Version)
	case res.Kept:
		fmt.Fprintf(e.stderr, "%s team %s: %s; no bundle installed yet\n", now, team, res.Problem)
	case res.Changed:
		fmt.Fprintf(e.stdout, "%s team %s: installed version %d\n", now, team, res.Version)
	default:
		fmt.Fprintf(e.stdout, "%s team %s: version %d is current\n", now, team, res.Version)
	}
	if res.Repaired {
		fmt.Fprintf(e.stderr, "%s team %s: the installed hooks had been changed on disk; restored version %d\n", now, team, res.Version)
	}
	if res.AuditSent > 0 {
		fmt.Fprintf(e.stdout, "%s team %s: uploaded %d audit records\n", now, team, res.AuditSent)
	}
	if res.Unguarded > 0 {
		fmt.Fprintf(e.stdout, "%s team %s: %d tool call(s) of the last %d days had no agenthooks decision (agenthooks status --coverage --since %dd lists them)\n",
			now, team, res.Unguarded, int(teamsync.CoverageWindow.Hours()/24), int(teamsync.CoverageWindow.Hours()/24))
	}
	for _, w := range res.Wiring {
		if why := w.Problem(); why != "" {
			fmt.Fprintf(e.stdout, "%s team %s: %s runs commands unguarded: %s (agenthooks doctor says why)\n", now, team, w.Agent, why)
		}
	}
	if !res.Kept && res.Problem != "" {
		fmt.Fprintf(e.stderr, "%s team %s: %s\n", now, team, res.Problem)
	}
}
