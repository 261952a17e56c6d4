// Eager operations on arrays that live on a GPU (tracer/trace.h: DeviceEval): each primitive
// is compiled for the device once per signature — the primitive, its parameters and its
// operands' types — and cached, as JAX runs ops one by one; grad and every other transform
// then work on device arrays unchanged.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "array_impl.h"
#include "backends/Compiler.h"
#include "host_callback.h"
#include "jaxpr.h"
#include "primitive.h"
#include "strata/device.h"
#include "strata/errors.h"
#include "trace.h"

namespace strata::detail {
namespace {

std::string signature(const Primitive& prim, std::span<const Array> inputs, const Params& params, Device device) {
  std::string key = std::string(prim.name) + "|" + device.str();
  for (const auto& [name, value] : params.items()) key += "|" + name + "=" + param_string(value);
  for (const Array& a : inputs) key += "|" + a.impl()->aval.str();
  return key;
}

struct Cache {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Executable>, std::less<>> compiled;
};
Cache& cache() {
  static Cache* c = new Cache;  // executables may outlive static destruction order
  return *c;
}

std::shared_ptr<const Executable> compiled(const Primitive& prim, std::span<const Array> inputs, const Params& params,
                                           Device device) {
  std::string key = signature(prim, inputs, params, device);
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  if (auto it = c.compiled.find(key); it != c.compiled.end()) return it->second;
  std::shared_ptr<TraceState> trace = begin_trace();
  std::shared_ptr<JaxprImpl> jaxpr;
  try {
    std::vector<Array> args;
    for (const Array& a : inputs) args.push_back(new_input(*trace, a.impl()->aval));
    std::vector<Array> outs = strata::bind(prim, args, params, SourceLoc{});
    jaxpr = end_trace(*trace, outs);
  } catch (...) {
    abandon_trace(*trace);
    throw;
  }
  JitOptions options;
  options.device = device;
  options.name = prim.name;
  CompileResult r = compiler::compile(*jaxpr, options, {}, /*stage_texts=*/false);
  if (!r.ok()) throw Error(std::string(prim.name) + " on " + device.str() + ": compiling failed:\n" + r.error);
  c.compiled.emplace(std::move(key), r.executable);
  return r.executable;
}

std::vector<Array> run_on_device(const Primitive& prim, std::span<const Array> inputs, const Params& params,
                                 Device device) {
  std::shared_ptr<const Executable> exe = compiled(prim, inputs, params, device);
  std::vector<Array> moved;  // host operands (a scalar) copied to the device
  std::vector<const void*> in;
  for (const Array& a : inputs) {
    if (a.impl()->buffer->device == device) {
      in.push_back(a.data());
    } else {
      moved.push_back(copy_to_device(a, device));
      in.push_back(moved.back().data());
    }
  }
  std::vector<Array> outs;
  std::vector<void*> out;
  for (const AbstractValue& av : exe->output_types()) {
    auto impl = std::make_shared<ArrayImpl>();
    impl->aval = av;
    impl->buffer = std::make_shared<Buffer>(av.nbytes(), device);
    outs.push_back(Array(std::move(impl)));
    out.push_back(mutable_data(outs.back()));
  }
  absl::Status s = exe->execute(in.data(), out.data());
  if (!s.ok()) host_callbacks::rethrow_pending();  // a callback's own exception, as it threw it
  if (!s.ok()) throw Error(std::string(prim.name) + " on " + device.str() + " failed: " + std::string(s.message()));
  return outs;
}

}  // namespace

void install_device_eval() {
  static std::once_flag once;
  std::call_once(once, [] { set_device_eval(run_on_device); });
}

}  // namespace strata::detail
