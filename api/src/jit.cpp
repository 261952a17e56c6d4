// jit: the cache and the call path (tracing is in the header); lowering and compiling go
// through the compiler's plain-C++ entry points (backends/Compiler.h), whose failures become
// strata::Error here, on the API side.
#include "strata/jit.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <sstream>

#include "absl/container/flat_hash_map.h"

#include "array_impl.h"
#include "backends/Compiler.h"
#include "device_eager.h"
#include "host_callback.h"
#include "jaxpr.h"
#include "trace.h"

namespace strata {

// The stages are computed as they are asked for: lower() runs only the jaxpr → strata lowering
// (whose errors it reports); as_text of a later stage runs the pipeline up to that stage.
struct Lowered::Impl {
  explicit Impl(Jaxpr j) : jaxpr(std::move(j)) {}
  Jaxpr jaxpr;
  JitOptions options;
  mutable std::mutex mu;
  mutable std::map<std::string, std::string, std::less<>> texts;  // node-based: references stay valid
};

const std::string& Lowered::as_text(std::string_view stage) const {
  std::vector<std::string> names = compiler::stage_names(impl_->options.device.value_or(cpu()).kind);
  if (stage != "stablehlo" && std::find(names.begin(), names.end(), stage) == names.end()) {
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    throw ValueError("Lowered::as_text: expects a stage (" + list + "), but got '" + std::string(stage) + "'");
  }
  std::lock_guard<std::mutex> lock(impl_->mu);
  auto it = impl_->texts.find(stage);
  if (it != impl_->texts.end()) return it->second;
  compiler::LowerResult r = compiler::lower(*impl_->jaxpr.impl(), impl_->options, stage);
  if (!r.ok()) throw Error("jit: lowering '" + impl_->options.name + "' failed:\n" + r.error);
  for (compiler::StageText& s : r.stages) impl_->texts.try_emplace(s.stage, std::move(s.text));
  return impl_->texts.find(stage)->second;
}

std::vector<std::string> Lowered::stages() const {
  return compiler::stage_names(impl_->options.device.value_or(cpu()).kind);
}

const Jaxpr& Lowered::jaxpr() const { return impl_->jaxpr; }

namespace detail {

struct CacheEntry {
  std::string name;             // the jitted function's, for errors
  std::vector<int> argument;    // per leaf, the argument it belongs to (when donating)
  std::vector<uint64_t> words;  // the signature
  std::shared_ptr<const Executable> exe;
  std::any out_proto;
  tree::Description description;
  mutable std::atomic<uint64_t> last_used{0};
};

struct JitState {
  JitOptions options;
  bool log = false;
  mutable std::shared_mutex mu;  // guards map
  // By signature (its words, hashed with absl::Hash).
  absl::flat_hash_map<std::vector<uint64_t>, std::shared_ptr<CacheEntry>> map;
  mutable std::mutex compile_mu;
  tree::Description last_compiled;  // under compile_mu
  std::vector<std::pair<std::string, double>> last_compile_ms;  // under compile_mu
  std::atomic<uint64_t> hits{0}, misses{0}, compiles{0}, clock{0};
};

namespace {

// STRATA_LOG=compiles turns compile logging on for every jitted function (read once, here).
bool env_log() {
  static const bool on = [] {
    const char* v = std::getenv("STRATA_LOG");
    return v && std::string_view(v).find("compiles") != std::string_view::npos;
  }();
  return on;
}

std::string signature_line(const tree::Description& d) {
  std::string s;
  for (const auto& [label, value] : d) s += (s.empty() ? "" : ", ") + value;
  return s;
}

// "argument 0 f32[8,4096] → f32[16,4096]" for each item that changed.
std::string diff(const tree::Description& before, const tree::Description& after) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  for (const auto& [label, value] : after) {
    auto it = std::find_if(before.begin(), before.end(), [&](const auto& p) { return p.first == label; });
    if (it == before.end()) add(label + " (new) " + value);
    else if (it->second != value) add(label + " " + it->second + " → " + value);
  }
  for (const auto& [label, value] : before)
    if (std::none_of(after.begin(), after.end(), [&](const auto& p) { return p.first == label; }))
      add(label + " (gone) " + value);
  return out.empty() ? "same signature" : out;
}

// NAME.N.STAGE.{jaxpr,mlir} for every stage, N unique in the process.
void dump(const JitOptions& options, const std::vector<compiler::StageText>& stages) {
  static std::atomic<int> counter{0};
  int n = counter++;
  std::filesystem::path dir(options.dump_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const compiler::StageText& s : stages) {
    std::string ext = s.stage == "jaxpr" ? ".jaxpr" : ".mlir";
    std::filesystem::path file = dir / (options.name + "." + std::to_string(n) + "." + s.stage + ext);
    std::ofstream out(file);
    out << (s.located_text.empty() ? s.text : s.located_text);
    if (!out) throw Error("jit: cannot write the dump file " + file.string());
  }
}

}  // namespace

std::shared_ptr<JitState> make_jit_state(JitOptions options) {
  auto s = std::make_shared<JitState>();
  s->log = options.log || env_log();
  if (options.cache_capacity == 0) options.cache_capacity = 1;
  s->options = std::move(options);
  return s;
}

Device arguments_device(const std::vector<Array>& leaves, const std::string& name);

Lowered lower_jaxpr(const Jaxpr& jaxpr, JitState& state, const std::vector<Array>& leaves) {
  const bool dumping = !state.options.dump_dir.empty();
  auto impl = std::make_shared<Lowered::Impl>(jaxpr);
  impl->options = state.options;
  detail::apply_default_device_environment();
  if (!impl->options.device) impl->options.device = arguments_device(leaves, state.options.name);
  // Dumping writes every stage; otherwise the first MLIR stage is lowered now, the rest on demand.
  compiler::LowerResult r = compiler::lower(*jaxpr.impl(), impl->options, dumping ? "" : "strata", dumping);
  if (!r.ok()) throw Error("jit: lowering '" + state.options.name + "' failed:\n" + r.error);
  if (dumping) dump(state.options, r.stages);
  for (compiler::StageText& s : r.stages) impl->texts.emplace(s.stage, std::move(s.text));
  return Lowered(std::move(impl));
}

bool tracing() { return current_trace() != nullptr; }

std::shared_ptr<const CacheEntry> find(JitState& state, const tree::Signature& sig) {
  std::shared_lock<std::shared_mutex> lock(state.mu);
  auto it = state.map.find(sig.words);
  if (it == state.map.end()) return nullptr;
  it->second->last_used.store(state.clock.fetch_add(1, std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  return it->second;
}

std::shared_ptr<const CacheEntry> lookup(JitState& state, const tree::Signature& sig) {
  std::shared_ptr<const CacheEntry> e = find(state, sig);
  (e ? state.hits : state.misses).fetch_add(1, std::memory_order_relaxed);
  return e;
}

CompileLock::CompileLock(JitState& s) : state(s) { state.compile_mu.lock(); }
CompileLock::~CompileLock() { state.compile_mu.unlock(); }

bool donates(const JitState& state) { return !state.options.donate.empty(); }

// Where the array arguments of a call live: one device for all, or a ValueError naming two.
// Host arrays count as on the default device (copied there when it is a GPU).
Device arguments_device(const std::vector<Array>& leaves, const std::string& name) {
  std::optional<Device> found;
  std::size_t first = 0;
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Array& a = leaves[i];
    if (!a.valid() || !a.impl()->buffer) continue;
    Device d = detail::effective_device(a);
    if (!found) {
      found = d;
      first = i;
    } else if (!(*found == d)) {
      throw ValueError("jit(" + name + "): array argument " + std::to_string(first) + " is on " + found->str() +
                       " but array argument " + std::to_string(i) + " is on " + d.str() +
                       "; put them on one device with st::device_put, or pick one with JitOptions::device");
    }
  }
  return found.value_or(detail::default_device_core());
}

std::shared_ptr<const CacheEntry> make_entry(JitState& state, const Jaxpr& jaxpr, const tree::Signature& sig,
                                             tree::Description description, std::any out_proto, double trace_ms,
                                             const std::vector<std::size_t>& arg_ends) {
  // The device: the option's, or where the arguments live.
  JitOptions o = state.options;
  detail::install_device_eval();  // eager ops on the outputs run where they live
  detail::apply_default_device_environment();
  if (!o.device) o.device = arguments_device(sig.leaves, o.name);
  std::vector<Device> available = devices();
  if (std::find(available.begin(), available.end(), *o.device) == available.end()) {
    std::string list;
    for (const Device& d : available) list += (list.empty() ? "" : ", ") + d.str();
    throw ValueError("jit(" + o.name + "): JitOptions::device is " + o.device->str() +
                     ", which this process does not have (devices: " + list + ")");
  }
  if (state.log && state.compiles.load() > 0 && !state.last_compiled.empty())
    std::fprintf(stderr, "strata: recompiling %s: %s\n", o.name.c_str(), diff(state.last_compiled, description).c_str());
  if (!o.dump_dir.empty()) lower_jaxpr(jaxpr, state, sig.leaves);  // writes the stage files
  // Donated arguments → the program inputs (leaves) they hold.
  std::vector<int> donated;
  for (int a : o.donate) {
    if (a < 0 || static_cast<std::size_t>(a) >= arg_ends.size())
      throw ValueError("jit(" + o.name + "): JitOptions::donate names argument " + std::to_string(a) + ", but " +
                       o.name + " was called with " + std::to_string(arg_ends.size()) + " arguments");
    for (std::size_t leaf = a == 0 ? 0 : arg_ends[static_cast<std::size_t>(a) - 1]; leaf < arg_ends[static_cast<std::size_t>(a)]; ++leaf)
      donated.push_back(static_cast<int>(leaf));
  }
  CompileResult r = compiler::compile(*jaxpr.impl(), o, donated, /*stage_texts=*/false);
  if (!r.ok()) throw Error("jit: compiling '" + o.name + "' failed:\n" + r.error);
  state.compiles.fetch_add(1, std::memory_order_relaxed);
  state.last_compile_ms.assign(1, {"trace", trace_ms});
  for (const StageTime& t : r.executable->compile_times()) state.last_compile_ms.emplace_back(t.stage, t.ms);
  if (state.log) {
    double total = trace_ms;
    std::string stages = "trace " + std::to_string(trace_ms).substr(0, 5);
    for (const StageTime& t : r.executable->compile_times()) {
      total += t.ms;
      stages += ", " + t.stage + " " + std::to_string(t.ms).substr(0, 5);
    }
    std::fprintf(stderr, "strata: compiled %s for (%s) in %.1f ms%s: %s ms\n", o.name.c_str(),
                 signature_line(description).c_str(), total,
                 r.executable->from_disk_cache() ? " (from the disk cache)" : "", stages.c_str());
  }
  state.last_compiled = description;
  auto e = std::make_shared<CacheEntry>();
  e->name = o.name;
  for (std::size_t a = 0; a < arg_ends.size(); ++a)
    while (e->argument.size() < arg_ends[a]) e->argument.push_back(static_cast<int>(a));
  e->words = sig.words;
  e->exe = std::move(r.executable);
  e->out_proto = std::move(out_proto);
  e->description = std::move(description);
  e->last_used = state.clock.fetch_add(1) + 1;
  // Insert, evicting the least recently used entry when full.
  std::unique_lock<std::shared_mutex> lock(state.mu);
  if (state.map.size() >= o.cache_capacity) {
    auto oldest = state.map.begin();
    for (auto it = state.map.begin(); it != state.map.end(); ++it)
      if (it->second->last_used.load() < oldest->second->last_used.load()) oldest = it;
    state.map.erase(oldest);
  }
  state.map.insert_or_assign(sig.words, e);
  return e;
}

std::vector<Array> run_entry(const CacheEntry& e, const std::vector<Array>& leaves) {
  const Executable& exe = *e.exe;
  const Device device = exe.device();
  thread_local std::vector<const void*> ins;
  thread_local std::vector<void*> outs_ptr;
  ins.clear();
  std::vector<Array> copied;  // host arguments copied to the default device, alive for the call
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    const Array& a = leaves[i];
    if (a.is_tracer() || a.impl()->donated()) check_usable(a, "jit");
    if (a.impl()->buffer->device != device) {
      if (a.impl()->buffer->device.kind == DeviceKind::cpu && device == detail::default_device_core()) {
        copied.push_back(copy_to_device(a, device));
        ins.push_back(copied.back().data());
        continue;
      }
      throw ValueError("jit(" + e.name + "): compiled for " + device.str() + ", but " +
                       "array argument " + std::to_string(i) + " (" + a.impl()->aval.str() + ") is on " + a.impl()->buffer->device.str() +
                       "; move it with st::device_put(x, st::" +
                       (device.kind == DeviceKind::cpu ? std::string("cpu()") : "gpu(" + std::to_string(device.index) + ")") + ")");
    }
    ins.push_back(a.data());
  }
  const std::vector<int>& aliases = exe.output_aliases();
  std::vector<Array> outs;
  outs.reserve(exe.output_types().size());
  outs_ptr.clear();
  for (std::size_t j = 0; j < exe.output_types().size(); ++j) {
    const AbstractValue& av = exe.output_types()[j];
    int i = j < aliases.size() ? aliases[j] : -1;
    auto impl = std::make_shared<ArrayImpl>();
    impl->aval = av;
    if (i < 0) {
      impl->buffer = std::make_shared<Buffer>(av.nbytes(), device);
    } else {
      // A donated input: the output is written into its buffer. Only a buffer this argument
      // holds alone may be overwritten; one shared with another array (a view, another
      // argument) is copied first, and the copy is overwritten instead. The donated array keeps
      // its (shared) buffer pointer, so a thread reading another handle on it never sees the
      // pointer change; it sees the array marked donated below and refuses it.
      const std::shared_ptr<ArrayImpl>& in = leaves[static_cast<std::size_t>(i)].impl();
      bool alone = in->buffer.use_count() == 1;
      for (std::size_t k = 0; k < leaves.size() && alone; ++k)
        if (k != static_cast<std::size_t>(i) && leaves[k].impl()->buffer == in->buffer) alone = false;
      if (alone) {
        impl->buffer = in->buffer;
      } else {
        if (device.kind == DeviceKind::cpu) {
          impl->buffer = std::make_shared<Buffer>(in->aval.nbytes(), device);
          if (in->aval.nbytes()) std::memcpy(impl->buffer->data, in->buffer->data, in->aval.nbytes());
        } else {  // a copy through the host: donating a shared device buffer is rare
          Array shared(leaves[static_cast<std::size_t>(i)]);
          impl->buffer = copy_to_device(copy_to_device(shared, cpu()), device).impl()->buffer;
        }
        ins[static_cast<std::size_t>(i)] = impl->buffer->data;
      }
    }
    outs.push_back(Array(std::move(impl)));
    outs_ptr.push_back(mutable_data(outs.back()));
  }
  // The donated arrays are given up before the call: every handle on them now refuses to be
  // used (a second call donating the same array at once is refused here, not raced).
  for (std::size_t j = 0; j < aliases.size(); ++j) {
    if (aliases[j] < 0) continue;
    std::size_t leaf = static_cast<std::size_t>(aliases[j]);
    const std::shared_ptr<ArrayImpl>& in = leaves[leaf].impl();
    std::string which = leaf < e.argument.size() ? "argument " + std::to_string(e.argument[leaf]) : "an argument";
    if (!in->mark_donated(which + " (" + in->aval.str() + ") was donated to jit(" + e.name +
                          ") (JitOptions::donate), whose output " + std::to_string(j) + " took over its buffer"))
      check_usable(leaves[leaf], "jit");
  }
  absl::Status status = exe.execute(ins.data(), outs_ptr.data());
  if (!status.ok()) host_callbacks::rethrow_pending();  // a callback's own exception, as it threw it
  if (!status.ok()) throw Error("jit(" + e.name + "): running on " + device.str() + " failed: " + std::string(status.message()));
  return outs;
}

const std::any& entry_out_proto(const CacheEntry& e) { return e.out_proto; }

bool signature_matches(const CacheEntry& e, const tree::Signature& sig) { return e.words == sig.words; }

void signature_mismatch(const CacheEntry& e, const tree::Description& got, const std::string& name) {
  throw ValueError("Compiled " + name + ": called with a different signature than it was compiled for (" +
                   diff(e.description, got) + "); a Compiled function never recompiles — call the jit(f) object "
                   "to compile for new shapes, dtypes or static values");
}

std::string entry_assembly(const CacheEntry& e) { return e.exe->assembly(); }
MemoryStats entry_memory(const CacheEntry& e) {
  MemoryAnalysis m = e.exe->memory_analysis();
  return MemoryStats{m.argument_bytes, m.output_bytes, m.scratch_bytes, m.temporaries_bytes};
}
void entry_execute(const CacheEntry& e, const void* const* inputs, void* const* outputs) {
  absl::Status status = e.exe->execute(inputs, outputs);
  if (!status.ok()) host_callbacks::rethrow_pending();  // a callback's own exception, as it threw it
  if (!status.ok()) throw Error("jit(" + e.name + "): running failed: " + std::string(status.message()));
}
CostStats entry_cost(const CacheEntry& e) {
  CostAnalysis c = e.exe->cost_analysis();
  return CostStats{c.flops, c.bytes_accessed};
}
std::size_t cache_size(const JitState& state) {
  std::shared_lock<std::shared_mutex> lock(state.mu);
  return state.map.size();
}
JitStats stats(const JitState& state) {
  std::lock_guard<std::mutex> lock(state.compile_mu);
  return JitStats{state.hits.load(), state.misses.load(), state.compiles.load(), state.last_compile_ms};
}
const JitOptions& options(const JitState& state) { return state.options; }

}  // namespace detail
}  // namespace strata
