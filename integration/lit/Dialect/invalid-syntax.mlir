// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse Strata_GridAttr parameter 'level'}}
func.func @unquoted_level() attributes {m = #strata.grid<core>} {
  return
}

// -----

// expected-error @+2 {{expected integer value}}
// expected-error @+1 {{failed to parse Strata_GridAttr parameter 'dim'}}
func.func @non_integer_dim() attributes {m = #strata.grid<"core", x>} {
  return
}

// -----

// expected-error @+1 {{expected '>'}}
func.func @three_params() attributes {m = #strata.grid<"core", 1, 2>} {
  return
}

// -----

// expected-error @+2 {{expected string}}
// expected-error @+1 {{failed to parse Strata_MemAttr parameter 'level'}}
func.func @empty_mem() attributes {m = #strata.mem<>} {
  return
}

// -----

// expected-error @+1 {{expected ','}}
func.func @hw_without_description() attributes {m = #strata.hw<"x">} {
  return
}

// -----

// expected-error @+1 {{unknown attribute `bogus` in dialect `strata`}}
func.func @unknown_attribute() attributes {m = #strata.bogus<"x">} {
  return
}
