// tracer/host_callback.h — the host function a callback primitive (pure_callback, io_callback,
// debug_callback) holds in its `callback` parameter, registered under a process-unique id so
// that compiled code reaches it through the runtime (strata_rt_host_callback, lowering/CpuAbi.h).
#pragma once

#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "abstract_value.h"
#include "strata/callbacks.h"

namespace strata {

struct JaxprImpl;

class HostCallback {
 public:
  HostCallback(std::shared_ptr<const HostFunction> fn, std::vector<AbstractValue> results, std::string name);
  ~HostCallback();
  HostCallback(const HostCallback&) = delete;
  HostCallback& operator=(const HostCallback&) = delete;

  uint64_t id() const { return id_; }
  const std::string& name() const { return name_; }
  const std::vector<AbstractValue>& results() const { return results_; }
  // Calls the function on host arrays and checks that it returns results() (their number,
  // shapes and dtypes); a ValueError naming the callback otherwise.
  std::vector<Array> operator()(std::span<const Array> args) const;
  // The same function declared to return `results` (vmap's expand_dims, broadcast_all).
  std::shared_ptr<const HostCallback> with_results(std::vector<AbstractValue> results) const;

 private:
  std::shared_ptr<const HostFunction> fn_;
  std::vector<AbstractValue> results_;
  std::string name_;
  uint64_t id_;
};

namespace host_callbacks {

// The live callback of `id`, or null.
std::shared_ptr<const HostCallback> find(uint64_t id);

// What the runtime's strata_rt_host_callback runs: callback `id` on `buffers` (the operands,
// then the results to fill), whose types `desc` gives: the number of operands and of results,
// then per buffer its dtype, rank and dimensions. Never throws: a failure (the callback threw,
// returned the wrong types, is gone) is kept for this thread, and later callbacks of the same
// run are skipped, until take_pending() collects it.
void run(int64_t id, const int64_t* desc, void* const* buffers) noexcept;
// The failure run() kept on this thread, cleared; null when none.
std::exception_ptr take_pending() noexcept;
// Whether a failure is kept on this thread; `what` gets its message.
bool pending(std::string& what) noexcept;
// Rethrows the failure kept on this thread, if any (the API does after a failed execute()).
void rethrow_pending();

// Every callback `j` holds, sub-programs included, appended to `out` (an executable keeps them).
void collect(const JaxprImpl& j, std::vector<std::shared_ptr<const HostCallback>>& out);

}  // namespace host_callbacks
}  // namespace strata
