// The collective family's shared rules (collective_rules.h).
#include "collective_rules.h"

#include <array>

namespace strata::collective_rules {
namespace {
constexpr std::array<std::string_view, 8> kNames = {"psum",         "pmax",       "pmin",     "all_gather",
                                                    "psum_scatter", "all_to_all", "ppermute", "axis_index"};
std::string str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}
// The mesh coordinates of a world rank (row-major).
std::vector<int64_t> coords(const Group& g, int64_t rank) {
  std::vector<int64_t> c(g.mesh.size());
  for (size_t d = g.mesh.size(); d-- > 0;) {
    c[d] = rank % g.mesh[d];
    rank /= g.mesh[d];
  }
  return c;
}
int64_t rank_of(const Group& g, const std::vector<int64_t>& c) {
  int64_t r = 0;
  for (size_t d = 0; d < g.mesh.size(); ++d) r = r * g.mesh[d] + c[d];
  return r;
}
bool in_group(const Group& g, size_t d) {
  for (int64_t x : g.dims)
    if (static_cast<size_t>(x) == d) return true;
  return false;
}
}  // namespace

std::string_view kind_name(Kind k) { return kNames[static_cast<size_t>(k)]; }
std::optional<Kind> kind_from_name(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (kNames[i] == name) return static_cast<Kind>(i);
  return std::nullopt;
}
size_t num_operands(Kind k) { return k == Kind::kAxisIndex ? 0 : 1; }

shape_rules::Result shape(Kind k, const Shape& in, int64_t n) {
  if (n < 1) return {{}, "expects an axis size of at least 1, but got " + std::to_string(n)};
  switch (k) {
    case Kind::kAxisIndex: return {Shape{}, ""};
    case Kind::kAllGather: {
      Shape out{n};
      out.insert(out.end(), in.begin(), in.end());
      return {out, ""};
    }
    case Kind::kPsumScatter:
    case Kind::kAllToAll:
      if (in.empty() || in[0] != n)
        return {{}, "expects an operand whose leading dimension is the axis size " + std::to_string(n) +
                        ", but got shape " + str(in)};
      return {k == Kind::kAllToAll ? in : Shape(in.begin() + 1, in.end()), ""};
    default: return {in, ""};
  }
}

std::string check(const Group& g) {
  if (g.mesh.empty()) return g.dims.empty() ? "" : "expects no mesh dimensions without a mesh";
  for (int64_t s : g.mesh)
    if (s < 1) return "expects mesh sizes of at least 1, but got " + str(g.mesh);
  for (size_t i = 0; i < g.dims.size(); ++i) {
    if (g.dims[i] < 0 || g.dims[i] >= static_cast<int64_t>(g.mesh.size()))
      return "expects mesh dimensions in [0, " + std::to_string(g.mesh.size()) + "), but got " + str(g.dims);
    for (size_t j = 0; j < i; ++j)
      if (g.dims[i] == g.dims[j]) return "expects distinct mesh dimensions, but got " + str(g.dims);
  }
  return "";
}

int64_t size(const Group& g) {
  int64_t n = 1;
  for (int64_t d : g.dims) n *= g.mesh[static_cast<size_t>(d)];
  return n;
}
int64_t world_size(const Group& g) {
  int64_t n = 1;
  for (int64_t s : g.mesh) n *= s;
  return n;
}
int64_t index_of(const Group& g, int64_t rank) {
  std::vector<int64_t> c = coords(g, rank);
  int64_t k = 0;
  for (int64_t d : g.dims) k = k * g.mesh[static_cast<size_t>(d)] + c[static_cast<size_t>(d)];
  return k;
}
int64_t member(const Group& g, int64_t rank, int64_t k) {
  std::vector<int64_t> c = coords(g, rank);
  for (size_t i = g.dims.size(); i-- > 0;) {
    size_t d = static_cast<size_t>(g.dims[i]);
    c[d] = k % g.mesh[d];
    k /= g.mesh[d];
  }
  return rank_of(g, c);
}
int64_t color_of(const Group& g, int64_t rank) {
  std::vector<int64_t> c = coords(g, rank);
  int64_t color = 0;
  for (size_t d = 0; d < g.mesh.size(); ++d)
    if (!in_group(g, d)) color = color * g.mesh[d] + c[d];
  return color;
}

std::optional<int64_t> pack(const Group& g) {
  if (g.mesh.size() > 4 || g.dims.size() > 4) return std::nullopt;
  uint64_t key = g.mesh.size();
  for (size_t d = 0; d < g.mesh.size(); ++d) {
    if (g.mesh[d] > 4095) return std::nullopt;
    key |= static_cast<uint64_t>(g.mesh[d]) << (3 + 12 * d);
  }
  // The group's dims in order, 2 bits each, and their count (3 bits): bits 51..61.
  key |= static_cast<uint64_t>(g.dims.size()) << 51;
  for (size_t i = 0; i < g.dims.size(); ++i) key |= static_cast<uint64_t>(g.dims[i]) << (54 + 2 * i);
  return static_cast<int64_t>(key);
}
Group unpack(int64_t packed) {
  uint64_t key = static_cast<uint64_t>(packed);
  Group g;
  size_t rank = key & 7;
  for (size_t d = 0; d < rank; ++d) g.mesh.push_back(static_cast<int64_t>((key >> (3 + 12 * d)) & 4095));
  size_t n = (key >> 51) & 7;
  for (size_t i = 0; i < n; ++i) g.dims.push_back(static_cast<int64_t>((key >> (54 + 2 * i)) & 3));
  return g;
}

std::string check_perm(const std::vector<int64_t>& pairs, int64_t n) {
  if (pairs.size() % 2) return "expects (source, destination) pairs, but got an odd count " + std::to_string(pairs.size());
  std::vector<bool> src(static_cast<size_t>(n)), dst(static_cast<size_t>(n));
  for (size_t i = 0; i < pairs.size(); i += 2) {
    for (int j = 0; j < 2; ++j)
      if (pairs[i + j] < 0 || pairs[i + j] >= n)
        return "expects indices in [0, " + std::to_string(n) + "), but got the pair (" + std::to_string(pairs[i]) +
               ", " + std::to_string(pairs[i + 1]) + ")";
    if (src[pairs[i]]) return "expects each source once, but " + std::to_string(pairs[i]) + " sends twice";
    if (dst[pairs[i + 1]]) return "expects each destination once, but " + std::to_string(pairs[i + 1]) + " receives twice";
    src[pairs[i]] = dst[pairs[i + 1]] = true;
  }
  return "";
}
std::vector<int64_t> destinations(const std::vector<int64_t>& pairs, int64_t n) {
  std::vector<int64_t> dest(static_cast<size_t>(n), -1);
  for (size_t i = 0; i + 1 < pairs.size(); i += 2) dest[pairs[i]] = pairs[i + 1];
  return dest;
}
int64_t source_of(const std::vector<int64_t>& dest, int64_t k) {
  for (size_t s = 0; s < dest.size(); ++s)
    if (dest[s] == k) return static_cast<int64_t>(s);
  return -1;
}

}  // namespace strata::collective_rules
