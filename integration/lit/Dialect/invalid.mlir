// RUN: strata-opt %s --split-input-file --verify-diagnostics

// expected-error @+2 {{grid dimension must be >= 0, got -1}}
func.func @negative_grid_dim() {
  scf.forall (%i) in (2) {} {mapping = [#strata.grid<"core", -1>]}
  return
}

// -----

// expected-error @+2 {{compute level name 'co.re' must be non-empty and use only [A-Za-z0-9_-]}}
func.func @bad_compute_level_name() {
  scf.forall (%i) in (2) {} {mapping = [#strata.grid<"co.re">]}
  return
}

// -----

// expected-error @+1 {{compute level name '' must be non-empty}}
func.func @empty_compute_level_name() attributes {m = #strata.grid<"">} {
  return
}

// -----

// expected-error @+1 {{memory level name 'l 1' must be non-empty and use only [A-Za-z0-9_-]}}
func.func @bad_memory_level_name(%a: memref<4xf32, #strata.mem<"l 1">>) {
  return
}

// -----

// expected-error @+1 {{memory level name '' must be non-empty}}
func.func @empty_memory_level_name(%a: memref<4xf32, #strata.mem<"">>) {
  return
}

// -----

// expected-error @+1 {{hardware attribute names chip 'toy' but its description is of 'other'}}
module attributes {strata.hw = #strata.hw<"toy", {name = "other", plugin = "cpu"}>} {
}

// -----

// expected-error @+1 {{hardware description of 'toy' lacks a string 'plugin'}}
module attributes {strata.hw = #strata.hw<"toy", {name = "toy"}>} {
}

// -----

// expected-error @+1 {{hardware description of 'toy' lacks a string 'plugin'}}
module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = 1}>} {
}

// -----

// expected-error @+1 {{hardware description lacks a string 'name'}}
module attributes {strata.hw = #strata.hw<"toy", {name = 3, plugin = "cpu"}>} {
}

// -----

// expected-error @+1 {{hardware description lacks a string 'name'}}
module attributes {strata.hw = #strata.hw<"toy", {plugin = "cpu"}>} {
}

// -----

// expected-error @+1 {{'strata.hw' must be attached to a builtin.module}}
func.func @hw_on_func() attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu"}>} {
  return
}

// -----

// expected-error @+1 {{'strata.hw' must be a #strata.hw attribute}}
module attributes {strata.hw = "toy"} {
}

// -----

module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu",
    compute = [{name = "chip", count = 1}, {name = "core", count = 4}],
    memory = [{name = "dram"}, {name = "l1"}]}>} {
  // expected-error @+1 {{'func.func' op uses memory level 'l2', which chip 'toy' does not describe}}
  func.func @unknown_mem_level_arg(%a: memref<4xf32, #strata.mem<"l2">>) {
    return
  }
}

// -----

module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu",
    compute = [{name = "chip", count = 1}, {name = "core", count = 4}],
    memory = [{name = "dram"}, {name = "l1"}]}>} {
  func.func @unknown_mem_level_alloc() {
    // expected-error @+1 {{'memref.alloc' op uses memory level 'shared', which chip 'toy' does not describe}}
    %b = memref.alloc() : memref<4xf32, #strata.mem<"shared">>
    return
  }
}

// -----

module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu",
    compute = [{name = "chip", count = 1}, {name = "core", count = 4}],
    memory = [{name = "dram"}, {name = "l1"}]}>} {
  func.func @unknown_grid_level() {
    // expected-error @+1 {{'scf.forall' op is mapped to compute level 'warp', which chip 'toy' does not describe}}
    scf.forall (%i, %j) in (2, 2) {
    } {mapping = [#strata.grid<"core">, #strata.grid<"warp">]}
    return
  }
}

// -----

module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu",
    compute = [{name = "chip", count = 1}, {name = "core", count = 4}],
    memory = [{name = "dram"}, {name = "l1"}]}>} {
  func.func @unknown_nested_grid_level() {
    scf.forall (%i) in (4) {
      // expected-error @+1 {{'scf.forall' op is mapped to compute level 'lane', which chip 'toy' does not describe}}
      scf.forall (%j) in (8) {
      } {mapping = [#strata.grid<"lane">]}
    } {mapping = [#strata.grid<"core">]}
    return
  }
}

// -----

// A memory level is a level of the memory array, not of the compute array.
module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu",
    compute = [{name = "core", count = 4}], memory = [{name = "dram"}]}>} {
  // expected-error @+1 {{uses memory level 'core', which chip 'toy' does not describe}}
  func.func @compute_level_as_memory(%a: memref<4xf32, #strata.mem<"core">>) {
    return
  }
}

// -----

// A description without a compute array describes no level.
module attributes {strata.hw = #strata.hw<"toy", {name = "toy", plugin = "cpu"}>} {
  func.func @no_compute_array() {
    // expected-error @+1 {{is mapped to compute level 'core', which chip 'toy' does not describe}}
    scf.forall (%i) in (2) {} {mapping = [#strata.grid<"core">]}
    return
  }
}
