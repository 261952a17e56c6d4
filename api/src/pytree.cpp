// The non-template parts of pytree signatures (jit's cache key).
#include "array_impl.h"
#include "strata/pytree.h"

#include "absl/hash/hash.h"
#include "trace.h"

namespace strata::tree {

void Signature::leaf(const Array& a) {
  check_usable(a, "jit argument");
  const AbstractValue& av = a.impl()->aval;
  // A host array counts as on the default device (it is copied there), so the key changes
  // with the default device.
  const Device device = detail::effective_device(a);
  word(static_cast<uint64_t>(av.shape.size()) | static_cast<uint64_t>(av.dtype) << 8 |
       static_cast<uint64_t>(av.weak) << 16 | static_cast<uint64_t>(device.kind) << 24 |
       static_cast<uint64_t>(device.index) << 32);
  for (int64_t d : av.shape) word(static_cast<uint64_t>(d));
  leaves.push_back(a);
}

void Signature::bytes(const void* data, std::size_t n) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; i += 8) {
    uint64_t w = 0;
    std::memcpy(&w, p + i, n - i < 8 ? n - i : 8);
    word(w);
  }
}

uint64_t Signature::hash() const { return absl::Hash<std::vector<uint64_t>>{}(words); }

void describe_leaf(const Array& a, const std::string& path, Description& out) {
  const AbstractValue& av = a.impl()->aval;
  out.emplace_back(path, (av.weak ? "weak " : "") + av.str());
}

}  // namespace strata::tree
