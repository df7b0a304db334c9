package cli

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agenthooks/agenthooks/config"
)

func newTrustCmd(e *env, trust bool) *cobra.Command {
	use, short := "trust [DIR]", "Trust a workspace so that its .cursor/hooks.json runs"
	if !trust {
		use, short = "untrust [DIR]", "Stop trusting a workspace; its project hooks no longer run"
	}
	return &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runTrust(e, dir, trust)
		},
	}
}

func runTrust(e *env, dir string, trust bool) error {
	st, err := os.Stat(dir)
	if trust && (err != nil || !st.IsDir()) {
		return fmt.Errorf("trust %s: not a directory", dir)
	}
	canon, err := config.Canonical(dir)
	if err != nil {
		return err
	}
	store := config.NewTrustStore(e.home())
	if trust {
		changed, err := store.Trust(canon)
		if err != nil {
			return err
		}
		if changed {
			fmt.Fprintf(e.stdout, "trusted %s\n", canon)
		} else {
			fmt.Fprintf(e.stdout, "%s was already trusted\n", canon)
		}
		return nil
	}
	changed, err := store.Untrust(canon)
	if err != nil {
		return err
	}
	if changed {
		fmt.Fprintf(e.stdout, "untrusted %s\n", canon)
	} else {
		fmt.Fprintf(e.stdout, "%s was not trusted\n", canon)
	}
	return nil
}
