// The target registry: one instance of each target listed in STRATA_TARGETS (backends/
// CMakeLists.txt generates TargetList.inc from it), made on first use. A target of a device
// kind other than the CPU registers that kind's memory with the core (detail::DeviceMemory) as
// it is made, so arrays can live on its devices.
#include <mutex>

#include "backends/Target.h"

namespace strata::backends {

#define STRATA_TARGET(name) std::unique_ptr<Target> create_##name##_target();
#include "TargetList.inc"
#undef STRATA_TARGET

namespace {

const std::vector<std::unique_ptr<Target>>& registry() {
  static const std::vector<std::unique_ptr<Target>>* targets = [] {
    auto* list = new std::vector<std::unique_ptr<Target>>();
#define STRATA_TARGET(name) list->push_back(create_##name##_target());
#include "TargetList.inc"
#undef STRATA_TARGET
    return list;
  }();
  return *targets;
}

}  // namespace

const Target* find_target(DeviceKind kind) {
  for (const auto& t : registry())
    if (t->kind() == kind) return t.get();
  return nullptr;
}

const Target* find_target(std::string_view name) {
  for (const auto& t : registry())
    if (name == t->name()) return t.get();
  return nullptr;
}

std::vector<const Target*> all_targets() {
  std::vector<const Target*> out;
  for (const auto& t : registry()) out.push_back(t.get());
  return out;
}

}  // namespace strata::backends
