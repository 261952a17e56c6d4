// tracer/primitive.h — a primitive and all of its rules, defined once in tracer/primitives/.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "abstract_value.h"
#include "params.h"
#include "strata/array.h"

namespace strata {

// Traits that transforms ask a primitive for (they never keep lists of names). Compiler-side
// properties (cost, commutativity, index maps) are the dialect op's alone (StrataOps.td);
// tests/lowering/test_primitive_traits.cpp checks that kElementwise agrees with the op's
// Elementwise trait.
enum PrimitiveTrait : uint32_t {
  kElementwise = 1u << 0,  // out[i] depends only on in[i] (operands share one shape or are 0-d)
  kNotDifferentiable = 1u << 1,  // outputs are integer/bool or piecewise constant: zero derivative
  // Communicates over a named axis (params axis_name, axis_size, mesh, mesh_dims): vmap runs
  // its batching rule whenever the axis is vmap's own, even on unbatched operands.
  kCollective = 1u << 2,
  // Takes and makes complex numbers (c64, c128). Elementwise primitives say which dtypes they
  // take in their own rules; any other primitive without this trait refuses complex operands
  // and results in bind (check_complex), so its kernels never see one.
  kTakesComplex = 1u << 3,
  // Has an effect beyond its results (io_callback, debug_callback): its equations run even when
  // their results are unused (dead-code elimination keeps them, and whatever holds them) and
  // are never merged with an identical one.
  kEffect = 1u << 4,
  // Runs on the host whatever device its operands live on (the host callbacks): bind calls its
  // eval rule rather than compiling it for the device.
  kRunsOnHost = 1u << 5,
};

// A view of one array's data handed to an eager kernel.
struct KernelArg {
  void* data;
  const AbstractValue* aval;
  template <class T>
  T* as() const { return static_cast<T*>(data); }
  int64_t size() const { return aval->size(); }
  const Shape& shape() const { return aval->shape; }
  DType dtype() const { return aval->dtype; }
};

// Computes the result types from the operand types, or throws (ShapeError, DTypeError,
// ValueError) with a message that starts with the primitive's name.
using ShapeRule = std::vector<AbstractValue> (*)(std::span<const AbstractValue> in,
                                                 const Params& params);
// Fills preallocated outputs from concrete operands on the CPU (Eigen, split across the thread pool).
using EagerKernel = void (*)(std::span<const KernelArg> in, std::span<const KernelArg> out,
                             const Params& params);

// Evaluates a higher-order primitive (one whose params hold sub-programs) on concrete arrays,
// in place of an eager kernel; also lets a primitive return its operand without a copy.
using EvalRule = std::vector<Array> (*)(std::span<const Array> inputs, const Params& params);

// Derivative rules, written with lax.h (so they trace, jit and differentiate again).
// A null Array is a symbolic zero (tangent or cotangent); rules return null for a zero result.
//
// JVP: tangents of the outputs from the primals, their tangents and the outputs.
using JvpRule = std::vector<Array> (*)(std::span<const Array> primals,
                                       std::span<const Array> tangents,
                                       std::span<const Array> outputs, const Params& params);
// VJP: cotangents of the inputs from the primals, the outputs and the outputs' cotangents.
// Reverse mode keeps exactly the values a rule reads (its residuals), so a rule should read
// what it needs and no more (exp reads its output, mul its inputs, add nothing).
using VjpRule = std::vector<Array> (*)(std::span<const Array> primals,
                                       std::span<const Array> outputs,
                                       std::span<const Array> cotangents, const Params& params);

// Reverse mode in two halves, for a primitive whose backward pass reads values its forward pass
// can produce along the way (scan: each step's residuals): the outputs, computed by a forward
// pass that also keeps those values, and the backward half, a function of the outputs'
// cotangents returning the inputs' (as a VjpRule's). vjp_program binds it in place of the
// primitive when a differentiated input reaches it, so the forward pass runs once; the
// cotangent_needed mask is the same in both halves.
class VjpBackward {
 public:
  VjpBackward() = default;
  template <class F>
  VjpBackward(F f) : impl_(std::make_shared<const Impl<F>>(std::move(f))) {}
  explicit operator bool() const { return impl_ != nullptr; }
  std::vector<Array> operator()(std::span<const Array> cotangents) const { return (*impl_)(cotangents); }

 private:
  struct Base {
    virtual ~Base() = default;
    virtual std::vector<Array> operator()(std::span<const Array> cotangents) const = 0;
  };
  template <class F>
  struct Impl final : Base {
    explicit Impl(F g) : f(std::move(g)) {}
    std::vector<Array> operator()(std::span<const Array> cotangents) const override { return f(cotangents); }
    F f;
  };
  std::shared_ptr<const Base> impl_;
};
using VjpSplitRule = std::pair<std::vector<Array>, VjpBackward> (*)(std::span<const Array> primals,
                                                                     const Params& params);

// Batching (vmap): the outputs of the primitive applied to `args` with an extra batch
// dimension, `batch_dims[i]` of args[i] (or `not_mapped` for an unbatched arg), and the batch
// dimension of each output (JAX's signature).
inline constexpr int not_mapped = -1;
using BatchRule = std::pair<std::vector<Array>, std::vector<int>> (*)(std::span<const Array> args,
                                                                       std::span<const int> batch_dims,
                                                                       const Params& params);

struct Primitive;
// Refuses complex operands or results of a primitive that is neither kElementwise nor
// kTakesComplex, naming the primitive and the value (DTypeError).
void check_complex(const Primitive& prim, std::span<const AbstractValue> in, std::span<const AbstractValue> out);

struct Primitive {
  std::string_view name;
  // How many operands it takes; -1: any number (concatenate, custom_vjp_call). bind and the
  // jaxpr parser check it before the shape rule runs, so no rule sees a missing operand.
  int arity = -1;
  uint32_t traits = 0;
  ShapeRule shape_rule = nullptr;
  EagerKernel eager = nullptr;
  EvalRule eval = nullptr;  // when set, used instead of `eager` outside traces
  // Both null only for primitives whose outputs have no derivative (comparisons, integer
  // ops, random bits): set `kNotDifferentiable` for those.
  JvpRule jvp = nullptr;
  VjpRule vjp = nullptr;
  BatchRule batch = nullptr;  // null: not batchable yet
  VjpSplitRule vjp_split = nullptr;  // optional, besides `vjp`

  bool has(PrimitiveTrait t) const { return (traits & t) != 0; }
};

// Every primitive, in the order of tracer/primitive_list.def.
std::span<const Primitive* const> all_primitives();
// The primitive named `name`, or nullptr.
const Primitive* find_primitive(std::string_view name);

// Declarations of each primitive object (kAdd, kDotGeneral, ...), one per list entry.
namespace prim {
#define STRATA_PRIMITIVE(ident, name) extern const Primitive ident;
#include "primitive_list.def"
#undef STRATA_PRIMITIVE
}  // namespace prim

}  // namespace strata
