// Package auggie is Auggie's hooks dialect (Augment's CLI, npm @augmentcode/auggie, read in the
// code bundled in version 0.36.0; not run here, as Auggie's model is Augment's service): its
// seven events (Claude Code's names but PromptSubmit), how an Auggie hook's run reads as an
// answer on PreToolUse (as Auggie's hook executor reads it), how a decision is written in the
// form its strict output schema accepts, and the rewrite of its payload (hook_event_name,
// conversation_id, workspace_roots, Auggie's tool names) into Claude Code's shape and back.
// It imports decide, dialect and dialect/claude.
package auggie
