#include "host_callback.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>

#include "array_impl.h"
#include "jaxpr.h"

namespace strata {
namespace {

// id → the callbacks of compiled programs (collect() adds them; the destructor removes them).
struct Registry {
  std::mutex mu;
  std::unordered_map<uint64_t, std::weak_ptr<const HostCallback>> owners;
};
Registry& registry() {
  static Registry* r = new Registry;  // callbacks may outlive static destruction order
  return *r;
}
std::atomic<uint64_t> g_next_id{1};

thread_local std::exception_ptr g_pending;

std::string plural(size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); }

}  // namespace

HostCallback::HostCallback(std::shared_ptr<const HostFunction> fn, std::vector<AbstractValue> results, std::string name)
    : fn_(std::move(fn)), results_(std::move(results)), name_(std::move(name)), id_(g_next_id++) {
  for (AbstractValue& r : results_) r.weak = false;
}

HostCallback::~HostCallback() {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mu);
  reg.owners.erase(id_);
}

std::vector<Array> HostCallback::operator()(std::span<const Array> args) const {
  std::vector<Array> out = (*fn_)(args);
  if (out.size() != results_.size())
    throw ValueError(name_ + ": the callback returned " + plural(out.size(), "array") + ", but " +
                     std::to_string(results_.size()) + " were declared (its result shapes and dtypes)");
  for (size_t i = 0; i < out.size(); ++i) {
    const AbstractValue& want = results_[i];
    if (!out[i].valid()) throw ValueError(name_ + ": the callback returned a null Array as result " + std::to_string(i));
    if (out[i].is_tracer())
      throw ValueError(name_ + ": the callback returned a tracer as result " + std::to_string(i) +
                       "; a callback computes concrete values on the host");
    const AbstractValue& got = out[i].impl()->aval;
    if (got.shape != want.shape || got.dtype != want.dtype)
      throw ValueError(name_ + ": the callback returned " + got.str() + " as result " + std::to_string(i) + ", but " +
                       want.str() + " was declared");
    if (out[i].device().kind != DeviceKind::cpu) out[i] = detail::copy_to_device(out[i], cpu());
    if (out[i].impl()->aval.weak) {  // a declared type is strong: a weak scalar result becomes one
      Array strong = detail::make_concrete(want);
      if (want.nbytes()) std::memcpy(detail::mutable_data(strong), out[i].data(), want.nbytes());
      out[i] = std::move(strong);
    }
  }
  return out;
}

std::shared_ptr<const HostCallback> HostCallback::with_results(std::vector<AbstractValue> results) const {
  return std::make_shared<const HostCallback>(fn_, std::move(results), name_);
}

namespace host_callbacks {

std::shared_ptr<const HostCallback> find(uint64_t id) {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mu);
  auto it = reg.owners.find(id);
  if (it != reg.owners.end())
    if (auto p = it->second.lock()) return p;
  return nullptr;
}

void collect(const JaxprImpl& j, std::vector<std::shared_ptr<const HostCallback>>& out) {
  for (const Equation& e : j.eqns)
    for (const auto& [name, v] : e.params.items()) {
      if (const auto* cb = std::get_if<HostCallbackPtr>(&v)) {
        if (*cb) {
          out.push_back(*cb);
          Registry& reg = registry();
          std::lock_guard<std::mutex> lock(reg.mu);
          reg.owners[(*cb)->id()] = *cb;  // what find() hands out while an executable keeps it
        }
      } else if (const auto* sub = std::get_if<JaxprPtr>(&v)) {
        if (*sub) collect(**sub, out);
      } else if (const auto* list = std::get_if<JaxprList>(&v)) {
        for (const JaxprPtr& s : *list)
          if (s) collect(*s, out);
      }
    }
}

void run(int64_t id, const int64_t* desc, void* const* buffers) noexcept {
  if (g_pending) return;  // an earlier callback of this run failed: the run's results are void
  try {
    std::shared_ptr<const HostCallback> cb = find(static_cast<uint64_t>(id));
    if (!cb)
      throw Error("host callback #" + std::to_string(id) +
                  " does not exist in this process: a compiled program holding a host callback runs only in the "
                  "process that traced it, while the traced program is alive");
    const int64_t n_in = desc[0], n_out = desc[1];
    const int64_t* d = desc + 2;
    auto next = [&] {
      AbstractValue av;
      av.dtype = static_cast<DType>(d[0]);
      av.shape.assign(d + 2, d + 2 + d[1]);
      d += 2 + d[1];
      return av;
    };
    std::vector<Array> args;
    for (int64_t i = 0; i < n_in; ++i) {
      AbstractValue av = next();
      Array a = detail::make_concrete(av);  // a copy: the buffer is the program's, reused after the call
      if (av.nbytes()) std::memcpy(detail::mutable_data(a), buffers[i], av.nbytes());
      args.push_back(std::move(a));
    }
    std::vector<AbstractValue> want;
    for (int64_t i = 0; i < n_out; ++i) want.push_back(next());
    if (want != cb->results())
      throw Error("internal: host callback " + cb->name() + ": the compiled program's result types differ from the callback's");
    std::vector<Array> out = (*cb)(args);
    for (int64_t i = 0; i < n_out; ++i)
      if (size_t n = want[static_cast<size_t>(i)].nbytes()) std::memcpy(buffers[n_in + i], out[static_cast<size_t>(i)].data(), n);
  } catch (...) {
    g_pending = std::current_exception();
  }
}

std::exception_ptr take_pending() noexcept {
  std::exception_ptr e = std::move(g_pending);
  g_pending = nullptr;
  return e;
}

bool pending(std::string& what) noexcept {
  if (!g_pending) return false;
  try {
    std::rethrow_exception(g_pending);
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "an exception that is not a std::exception";
  }
  return true;
}

void rethrow_pending() {
  if (std::exception_ptr e = take_pending()) std::rethrow_exception(e);
}

}  // namespace host_callbacks
}  // namespace strata
