// Package copilot is GitHub Copilot CLI's hooks dialect (npm @github/copilot).
package copilot
