// lowering/VectorMath.h — glibc's vector math library (libmvec) for the host's compiled loops,
// with one implementation of each function per process.
//
// LLVM's loop vectoriser turns a loop's exp, log, sin, ... (and the libm calls of
// LibmCalls.def: erf, log1p, atan, ...) into calls of libmvec's vector variants, but its scalar
// remainder, a loop it does not vectorise, and an epilogue vectorised at another width call other
// implementations (libm's expf, libmvec's 4-wide SSE variant) that differ by an ulp on some
// inputs. One value repeated in an array then came out as two values — exp(x) for 37 equal x
// had 32 of one value and 5 of another — and an argmax over them picked another index than
// eager (fuzz_differential, issue 16). So every lane calls one variant: the widest libmvec has
// for the host (AVX-512, else AVX2, else SSE), the only one the vectoriser is offered,
// and the remaining scalar calls (and vector intrinsics the backend would scalarise) are
// rewritten after the optimisation pipeline into calls of that variant on a splat.
// Internal to the compiler (LLVM types).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Module;
class TargetLibraryInfoImpl;
}  // namespace llvm

namespace mlir::strata {

// One libm function (f32 or f64) and the libmvec variant every lane of compiled code calls.
struct VectorMathFunction {
  std::string scalar;     // libm's name: "expf"
  std::string intrinsic;  // LLVM's intrinsic for it ("llvm.exp.f32"), or empty
  std::string vector;     // the variant: "_ZGVdN8v_expf"
  unsigned lanes = 0, arity = 1;
  bool f32 = true;
};

// The functions the host has a variant for (empty when libmvec cannot be loaded, or off x86-64;
// then loops call the scalar functions). Set up once per process, thread-safe.
const std::vector<VectorMathFunction>& vectorMathFunctions();

// Every libmvec variant found, by name and address, for the JIT's symbol table: the ones
// vectorMathFunctions() names, and the narrower ones an object compiled before (the disk
// cache) may call.
const std::vector<std::pair<std::string, void*>>& vectorMathLibrary();

// Offers the loop vectoriser the one variant of each function (scalar and intrinsic names).
void addVectorMathFunctions(llvm::TargetLibraryInfoImpl& tlii);

// After the optimisation pipeline: every remaining call of a scalar function or intrinsic of
// vectorMathFunctions(), and of its vector intrinsic (llvm.exp.v4f32), becomes a call of its
// variant, lane for lane (a scalar on a splat, a vector in chunks of the variant's width).
// Returns the number of calls rewritten.
unsigned callOneVectorMathVariant(llvm::Module& module);

}  // namespace mlir::strata
