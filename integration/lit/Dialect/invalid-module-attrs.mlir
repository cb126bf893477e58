// RUN: strata-opt %s --split-input-file --verify-diagnostics

// The attribute's name is quoted once.
// expected-error @+1 {{unknown strata attribute 'strata.foo'; expected 'strata.hw'}}
module attributes {strata.foo = 3} {
}
