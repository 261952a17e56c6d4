// tracer/primitives/collectives.cpp — the collectives over a named axis: psum, pmax, pmin,
// all_gather, psum_scatter, all_to_all, ppermute, axis_index (JAX's primitives, in the
// leading-dimension forms of tracer/collective_rules.h; the API moves other dimensions there).
//
// Params: axis_name, axis_size, and the process group (mesh, mesh_dims; both empty for an axis
// bound by vmap, which the batching rules compute along the batch dimension); ppermute's perm
// holds (source, destination) pairs. Eager: collectives::run on the process's transport. The
// derivative rules are JAX's per-process ones (pmap's): the transpose of psum is psum, of
// all_gather psum_scatter (and back), of all_to_all itself, of ppermute the inverse permutation.
#include "ad_rules.h"
#include "batch_rules.h"
#include "common.h"

#include "../collectives.h"

namespace strata {
namespace {

namespace cr = collective_rules;
using cr::Kind;

const Primitive& primitive_of(Kind k) {
  switch (k) {
    case Kind::kPsum: return prim::kPsum;
    case Kind::kPmax: return prim::kPmax;
    case Kind::kPmin: return prim::kPmin;
    case Kind::kAllGather: return prim::kAllGather;
    case Kind::kPsumScatter: return prim::kPsumScatter;
    case Kind::kAllToAll: return prim::kAllToAll;
    case Kind::kPpermute: return prim::kPpermute;
    case Kind::kAxisIndex: break;
  }
  return prim::kAxisIndex;
}

cr::Group group_of(const Params& p) { return {p.get_ints("mesh"), p.get_ints("mesh_dims")}; }

template <Kind K>
std::vector<AbstractValue> rule(std::span<const AbstractValue> in, const Params& p) {
  const std::string op(cr::kind_name(K));
  primitives::expect_arity(op, in, cr::num_operands(K));
  int64_t n = p.get_int("axis_size");
  cr::Group g = group_of(p);
  if (std::string e = cr::check(g); !e.empty()) throw ValueError(op + ": " + e);
  if (!g.mesh.empty() && cr::size(g) != n)
    throw ValueError(op + ": axis '" + p.get<std::string>("axis_name") + "' has size " + std::to_string(n) +
                     ", but its process group has " + std::to_string(cr::size(g)));
  if (K == Kind::kPpermute)
    if (std::string e = cr::check_perm(p.get_ints("perm"), n); !e.empty()) throw ValueError(op + ": perm " + e);
  if (K == Kind::kAxisIndex) return {AbstractValue{Shape{}, DType::i32, false}};
  const AbstractValue& x = in[0];
  if ((K == Kind::kPsum || K == Kind::kPsumScatter || K == Kind::kPmax || K == Kind::kPmin) && is_bool(x.dtype))
    throw DTypeError(op + ": expects a numeric operand, but got " + x.str());
  if ((K == Kind::kPmax || K == Kind::kPmin) && is_complex(x.dtype))
    throw DTypeError(op + ": expects an ordered dtype (not complex), but got " + x.str());
  Shape out = primitives::check(op, cr::shape(K, x.shape, n));
  return {AbstractValue{out, x.dtype, x.weak}};
}

template <Kind K>
void kernel(std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  collectives::Call c{.kind = K, .dtype = out[0].dtype(), .group = group_of(p)};
  if (!in.empty()) {
    c.dtype = in[0].dtype();
    c.in_elements = in[0].size();
  }
  if (K == Kind::kPpermute) c.dest = cr::destinations(p.get_ints("perm"), p.get_int("axis_size"));
  collectives::run(c, in.empty() ? nullptr : in[0].data, out[0].data);
}

Array apply(Kind k, const Array& x, const Params& p) { return lax::bind1(primitive_of(k), {x}, p); }

// The transposed (cotangent) collective of a linear one.
Array transpose(Kind k, const Array& ct, const Params& p) {
  switch (k) {
    case Kind::kAllGather: return apply(Kind::kPsumScatter, ct, p);
    case Kind::kPsumScatter: return apply(Kind::kAllGather, ct, p);
    case Kind::kPpermute: {
      IntList inverse;
      const IntList& pairs = p.get_ints("perm");
      for (size_t i = 0; i + 1 < pairs.size(); i += 2) inverse.insert(inverse.end(), {pairs[i + 1], pairs[i]});
      Params q = p;
      q.set("perm", inverse);
      return apply(k, ct, q);
    }
    default: return apply(k, ct, p);  // psum, all_to_all
  }
}

template <Kind K>
std::vector<Array> linear_jvp(std::span<const Array>, std::span<const Array> t, std::span<const Array>,
                              const Params& p) {
  if (!t[0].valid()) return {Array()};
  return {apply(K, t[0], p)};
}
template <Kind K>
std::vector<Array> linear_vjp(std::span<const Array>, std::span<const Array>, std::span<const Array> ct,
                              const Params& p) {
  if (!ct[0].valid()) return {Array()};
  return {transpose(K, ct[0], p)};
}

// pmax/pmin: the derivative goes to the members holding the extremum, split among ties.
Array tie_share(const Array& x, const Array& y, const Params& p) {
  Array hit = lax::convert_element_type(lax::eq(x, y), x.dtype());
  return lax::div(hit, apply(Kind::kPsum, hit, p));
}
std::vector<Array> extremum_jvp(std::span<const Array> x, std::span<const Array> t, std::span<const Array> y,
                                const Params& p) {
  if (!t[0].valid()) return {Array()};
  return {apply(Kind::kPsum, lax::mul(t[0], tie_share(x[0], y[0], p)), p)};
}
std::vector<Array> extremum_vjp(std::span<const Array> x, std::span<const Array> y, std::span<const Array> ct,
                                const Params& p) {
  if (!ct[0].valid()) return {Array()};
  return {lax::mul(apply(Kind::kPsum, ct[0], p), tie_share(x[0], y[0], p))};
}

// ---- Batching ----

Array axis_size_like(const Array& x, int64_t n) { return lax::scalar(static_cast<double>(n), x.dtype()); }

// The collective over the vmap's own axis, computed along the batch dimension (d: the
// operand's, or not_mapped).
batching::Out over_batch(Kind k, const Array& x, int d, const Params& p) {
  using batching::move_dim;
  const int64_t n = p.get_int("axis_size");
  const bool mapped = d != not_mapped;
  switch (k) {
    case Kind::kAxisIndex:
      return {{lax::bind1(prim::kIota, {}, Params{{"dtype", DType::i32}, {"shape", IntList{n}}, {"dimension", int64_t{0}}})},
              {0}};
    case Kind::kPsum:
      return {{mapped ? lax::reduce_sum(x, {d}) : lax::mul(x, axis_size_like(x, n))}, {not_mapped}};
    case Kind::kPmax:
    case Kind::kPmin:
      if (!mapped) return {{x}, {not_mapped}};
      return {{lax::bind1(k == Kind::kPmax ? prim::kReduceMax : prim::kReduceMin, {x}, Params{{"axes", IntList{d}}})},
              {not_mapped}};
    case Kind::kAllGather:
      return {{mapped ? move_dim(x, d, 0) : batching::broadcast_batch(x, n)}, {not_mapped}};
    case Kind::kPsumScatter:  // example b gets the sum over examples k of x_k[b]
      return {{mapped ? lax::reduce_sum(move_dim(x, d, 0), {0}) : lax::mul(x, axis_size_like(x, n))}, {0}};
    case Kind::kAllToAll: {  // example b gets x_k[b] of each example k
      if (mapped) {
        Array f = move_dim(x, d, 0);
        IntList perm{1, 0};
        for (int64_t i = 2; i < f.ndim(); ++i) perm.push_back(i);
        return {{lax::transpose(f, perm)}, {0}};
      }
      Shape s{n};
      s.insert(s.end(), x.shape().begin(), x.shape().end());
      IntList dims{0};
      for (int64_t i = 2; i < static_cast<int64_t>(s.size()); ++i) dims.push_back(i);
      return {{lax::broadcast_in_dim(x, s, dims)}, {0}};
    }
    case Kind::kPpermute: {  // example b gets the example that sends to it, or zeros
      Array f = mapped ? move_dim(x, d, 0) : batching::broadcast_batch(x, n);
      std::vector<int64_t> dest = cr::destinations(p.get_ints("perm"), n);
      std::vector<Array> rows;
      Shape one = f.shape();
      one[0] = 1;
      for (int64_t b = 0; b < n; ++b) {
        int64_t src = cr::source_of(dest, b);
        if (src < 0) {
          rows.push_back(lax::zeros(AbstractValue{one, f.dtype(), false}));
        } else {
          IntList start(static_cast<size_t>(f.ndim()), 0), limit(f.shape().begin(), f.shape().end());
          start[0] = src;
          limit[0] = src + 1;
          rows.push_back(lax::slice(f, start, limit, IntList(static_cast<size_t>(f.ndim()), 1)));
        }
      }
      return {lax::bind(prim::kConcatenate, rows, Params{{"dimension", int64_t{0}}}), {0}};
    }
  }
  return {};
}

template <Kind K>
batching::Out batch(std::span<const Array> args, std::span<const int> dims, const Params& p) {
  const Array x = args.empty() ? Array() : args[0];
  const int d = args.empty() ? not_mapped : dims[0];
  if (p.get_ints("mesh").empty() && p.get<std::string>("axis_name") == batching::current_axis())
    return over_batch(K, x, d, p);
  // Another axis: the collective applies to each example; leading-dimension forms keep their
  // leading dimension first.
  switch (K) {
    case Kind::kAllGather: return {{apply(K, x, p)}, {d + 1}};
    case Kind::kPsumScatter: return {{apply(K, batching::move_dim(x, d, 1), p)}, {0}};
    case Kind::kAllToAll: return {{apply(K, batching::move_dim(x, d, 1), p)}, {1}};
    default: return {{apply(K, x, p)}, {d}};
  }
}

}  // namespace

#define STRATA_NAME_kPsum "psum"
#define STRATA_NAME_kPmax "pmax"
#define STRATA_NAME_kPmin "pmin"
#define STRATA_NAME_kAllGather "all_gather"
#define STRATA_NAME_kPsumScatter "psum_scatter"
#define STRATA_NAME_kAllToAll "all_to_all"
#define STRATA_NAME_kPpermute "ppermute"
#define STRATA_NAME_kAxisIndex "axis_index"
#define STRATA_COLLECTIVE(ident, kind, jvp_rule, vjp_rule, extra_traits)                  \
  const Primitive prim::ident{.name = STRATA_NAME_##ident,                                  \
                              .arity = (kind == Kind::kAxisIndex ? 0 : 1),                 \
                              .traits = kCollective | kTakesComplex | (extra_traits),       \
                              .shape_rule = rule<kind>,                                     \
                              .eager = kernel<kind>,                                        \
                              .jvp = jvp_rule,                                              \
                              .vjp = vjp_rule,                                              \
                              .batch = batch<kind>};
STRATA_COLLECTIVE(kPsum, Kind::kPsum, linear_jvp<Kind::kPsum>, linear_vjp<Kind::kPsum>, 0)
STRATA_COLLECTIVE(kPmax, Kind::kPmax, extremum_jvp, extremum_vjp, 0)
STRATA_COLLECTIVE(kPmin, Kind::kPmin, extremum_jvp, extremum_vjp, 0)
STRATA_COLLECTIVE(kAllGather, Kind::kAllGather, linear_jvp<Kind::kAllGather>, linear_vjp<Kind::kAllGather>, 0)
STRATA_COLLECTIVE(kPsumScatter, Kind::kPsumScatter, linear_jvp<Kind::kPsumScatter>, linear_vjp<Kind::kPsumScatter>, 0)
STRATA_COLLECTIVE(kAllToAll, Kind::kAllToAll, linear_jvp<Kind::kAllToAll>, linear_vjp<Kind::kAllToAll>, 0)
STRATA_COLLECTIVE(kPpermute, Kind::kPpermute, linear_jvp<Kind::kPpermute>, linear_vjp<Kind::kPpermute>, 0)
STRATA_COLLECTIVE(kAxisIndex, Kind::kAxisIndex, nullptr, nullptr, kNotDifferentiable)
#undef STRATA_COLLECTIVE
#undef STRATA_NAME_kPsum
#undef STRATA_NAME_kPmax
#undef STRATA_NAME_kPmin
#undef STRATA_NAME_kAllGather
#undef STRATA_NAME_kPsumScatter
#undef STRATA_NAME_kAllToAll
#undef STRATA_NAME_kPpermute
#undef STRATA_NAME_kAxisIndex

}  // namespace strata
