// StableHLO modules called from C++ (strata/stablehlo.h): each function compiled once through
// the one compile path (backends/Compiler.h: compile_mlir) and run on Arrays.
#include "strata/stablehlo.h"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>

#include "array_impl.h"
#include "backends/Compiler.h"
#include "host_callback.h"
#include "jaxpr.h"
#include "strata/device.h"
#include "strata/errors.h"

namespace strata {

struct Module::State {
  std::string text;
  std::string filename;
  JitOptions options;
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Executable>, std::less<>> compiled;
  std::map<std::string, std::shared_ptr<const JaxprImpl>, std::less<>> jaxprs;

  const Executable& compile(std::string_view name) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = compiled.find(name);
    if (it != compiled.end()) return *it->second;
    CompileResult r = compiler::compile_mlir(text, filename, name, options);
    if (!r.ok()) throw Error("load_stablehlo(" + filename + "): cannot compile @" + std::string(name) + ":\n" + r.error);
    return *compiled.emplace(std::string(name), r.executable).first->second;
  }

  // The function as a jaxpr of strata's primitives: what a call inside a trace binds.
  const JaxprImpl& jaxpr(std::string_view name) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = jaxprs.find(name);
    if (it != jaxprs.end()) return *it->second;
    compiler::ImportResult r = compiler::import_mlir(text, filename, name, options);
    if (!r.ok()) throw Error("load_stablehlo(" + filename + "): @" + std::string(name) + " cannot be traced:\n" + r.error);
    return *jaxprs.emplace(std::string(name), r.jaxpr).first->second;
  }
};

struct ModuleFunction::State {
  std::shared_ptr<Module::State> module;
  std::string name;
};

namespace {

bool looks_like_mlir(std::string_view s) {
  return s.find('\n') != std::string_view::npos || s.find("func.func") != std::string_view::npos ||
         s.find('{') != std::string_view::npos;
}

}  // namespace

Module load_stablehlo(std::string_view text_or_path, const JitOptions& options) {
  Module m;
  m.state_ = std::make_shared<Module::State>();
  m.state_->options = options;
  if (!looks_like_mlir(text_or_path)) {
    std::string path(text_or_path);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ValueError("load_stablehlo: '" + path + "' is neither MLIR text nor a file that can be read");
    m.state_->text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    m.state_->filename = path;
  } else {
    m.state_->text = std::string(text_or_path);
    m.state_->filename = "<stablehlo>";
  }
  return m;
}

const std::string& Module::text() const { return state_->text; }

ModuleFunction Module::operator()(std::string_view name) const {
  ModuleFunction f;
  f.state_ = std::make_shared<ModuleFunction::State>(ModuleFunction::State{state_, std::string(name)});
  return f;
}

// Inside a trace (jit, grad, vmap, make_jaxpr): the function's jaxpr evaluated on the
// arguments, which binds its primitives in the trace.
std::vector<Array> ModuleFunction::trace(const std::vector<Array>& args) const {
  const JaxprImpl& j = state_->module->jaxpr(state_->name);
  const std::string what = "@" + state_->name + " of " + state_->module->filename;
  if (args.size() != j.invars.size())
    throw ValueError(what + " takes " + std::to_string(j.invars.size()) + " arguments, but got " + std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    const AbstractValue& want = j.vars[static_cast<size_t>(j.invars[i])];
    if (!args[i].valid()) throw ValueError(what + ": argument " + std::to_string(i) + " is an empty Array");
    if (args[i].shape() != want.shape || args[i].dtype() != want.dtype)
      throw ShapeError(what + ": argument " + std::to_string(i) + " must be " + want.str() + ", but got " +
                       type_string(args[i].dtype(), args[i].shape()));
  }
  return eval_jaxpr(j, args);
}

std::vector<Array> ModuleFunction::operator()(const std::vector<Array>& args) const {
  for (const Array& a : args)
    if (a.valid() && a.is_tracer()) return trace(args);
  const Executable& exe = state_->module->compile(state_->name);
  const std::string what = "@" + state_->name + " of " + state_->module->filename;
  const std::vector<AbstractValue>& want = exe.input_types();
  if (args.size() != want.size())
    throw ValueError(what + " takes " + std::to_string(want.size()) + " arguments, but got " + std::to_string(args.size()));
  const Device device = exe.device();
  std::vector<Array> held;  // arguments moved to the executable's device
  std::vector<const void*> ins;
  for (size_t i = 0; i < args.size(); ++i) {
    const Array& a = args[i];
    if (!a.valid()) throw ValueError(what + ": argument " + std::to_string(i) + " is an empty Array");
    if (a.shape() != want[i].shape || a.dtype() != want[i].dtype)
      throw ShapeError(what + ": argument " + std::to_string(i) + " must be " + want[i].str() + ", but got " +
                       type_string(a.dtype(), a.shape()));
    held.push_back(a.device() == device ? a : device_put(a, device));
    held.back().block_until_ready();
    ins.push_back(held.back().data());
  }
  std::vector<Array> outs;
  std::vector<void*> out_ptrs;
  for (const AbstractValue& av : exe.output_types()) {
    auto impl = std::make_shared<detail::ArrayImpl>();
    impl->aval = av;
    impl->buffer = std::make_shared<detail::Buffer>(av.nbytes(), device);
    outs.push_back(Array(std::move(impl)));
    out_ptrs.push_back(detail::mutable_data(outs.back()));
  }
  absl::Status status = exe.execute(ins.data(), out_ptrs.data());
  if (!status.ok()) host_callbacks::rethrow_pending();  // a callback's own exception, as it threw it
  if (!status.ok()) throw Error(what + ": running on " + device.str() + " failed: " + std::string(status.message()));
  return outs;
}

std::string ModuleFunction::as_text(std::string_view stage) const {
  const Executable& exe = state_->module->compile(state_->name);
  std::string names;
  for (const auto& [name, text] : exe.stage_texts()) {
    if (name == stage) return text;
    names += (names.empty() ? "" : ", ") + name;
  }
  throw ValueError("@" + state_->name + ": no stage '" + std::string(stage) + "' (stages: " + names + ")");
}

}  // namespace strata
