// strata/jit_options.h — JitOptions: the one options struct of a compilation. jit takes it, the
// Lowered stages follow it, the compiler's pipeline reads it (no copy into other structs), and
// strata-opt builds one from its flags.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "strata/device.h"

namespace strata {

struct JitOptions {
  // Where the compiled function runs (and its outputs live): st::cpu(), st::gpu(i). Unset (the
  // default): where its array arguments live — all on one device (else a ValueError naming
  // them), the CPU when it has none.
  std::optional<Device> device;
  // The function's name in logs and dump files.
  std::string name = "fn";
  // When set, every stage of every function this jit lowers is written into this directory
  // (created if missing) as NAME.N.STAGE.jaxpr / .mlir, with source locations, ready for
  // strata-opt. N counts the lowerings of this process.
  std::string dump_dir;
  // Persistent compilation cache: compiled code is kept here, keyed on the program text, the
  // target and the strata version, so a restarted application skips LLVM code generation.
  std::string cache_dir;
  // At most this many compiled signatures are kept (least recently used are dropped).
  std::size_t cache_capacity = 64;
  // Print each compilation (and what changed on a recompile) to stderr.
  bool log = false;
  // Compiler switches, to measure their effect: parallel loops and GEMMs, fusion, buffer
  // assignment; the LLVM optimisation level.
  bool parallel = true;
  bool fuse = true;
  bool assign_buffers = true;
  int opt_level = 3;
  // Arguments (by position) the caller gives up: an output of the same shape and dtype is
  // written into a donated array's buffer instead of a new one, and the donated array can no
  // longer be used (any use throws ValueError). All of an argument's leaves are donated.
  //   auto step = st::jit(update, {.donate = {0}});
  //   params = step(params, grads);   // params' buffers are reused for the result
  std::vector<int> donate;
  // Debugging: every load and store of the generated code checks its indices against the
  // buffer's shape (and every view its bounds); an out-of-bounds access prints the op and its
  // source location and aborts. Also on for every jit when the environment has
  // STRATA_CHECK_BOUNDS=1. Slower code; part of the persistent cache's key.
  bool check_bounds = false;
};

}  // namespace strata
