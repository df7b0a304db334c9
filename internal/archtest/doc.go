// Package archtest holds tests of the code base's shape that no single package can check: that no
// agent's name is compared outside the agent's own package under dialect/, so that everything
// about an agent stays in its descriptor. It has no code of its own and is imported by nothing.
package archtest
