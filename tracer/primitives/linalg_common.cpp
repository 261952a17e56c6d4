// tracer/primitives/linalg_common.cpp — see linalg_common.h.
#include "linalg_common.h"

#include "../batching.h"
#include "ad_rules.h"
#include "batch_rules.h"
#include "../kernels/linalg.h"
#include "strata/errors.h"

namespace strata::linalg_prim {

int64_t flags(Kind k, const Params& p) {
  int64_t f = 0;
  for (const linalg_rules::FlagParam& fp : linalg_rules::flag_params(k))
    if (p.get<bool>(fp.name)) f |= fp.bit;
  return f;
}

std::vector<AbstractValue> rule(Kind k, std::span<const AbstractValue> in, const Params& p) {
  std::string name(linalg_rules::kind_name(k));
  for (const AbstractValue& a : in)
    if (!(is_inexact(a.dtype) && (real_dtype(a.dtype) == DType::f32 || real_dtype(a.dtype) == DType::f64)) ||
        a.dtype != in[0].dtype) {
      std::string got;
      for (const AbstractValue& b : in) got += (got.empty() ? "" : " and ") + b.str();
      throw DTypeError(name + ": expects f32, f64, c64 or c128 operands of one dtype, but got " + got);
    }
  std::vector<Shape> shapes;
  for (const AbstractValue& a : in) shapes.push_back(a.shape);
  linalg_rules::Result r = linalg_rules::shapes(k, flags(k, p), shapes);
  if (!r.ok()) throw ShapeError(name + ": " + r.error);
  std::vector<AbstractValue> out;
  for (size_t i = 0; i < r.shapes.size(); ++i) {
    bool complex = i < r.complex.size() && r.complex[i], real = i < r.real.size() && r.real[i];
    DType t = r.index[i] ? DType::i32 : complex ? complex_dtype(in[0].dtype) : real ? real_dtype(in[0].dtype) : in[0].dtype;
    out.push_back({r.shapes[i], t});
  }
  return out;
}

void kernel(Kind k, std::span<const KernelArg> in, std::span<const KernelArg> out, const Params& p) {
  const Shape& a = in[0].shape();
  const DType t = in[0].dtype();
  kernels::LinalgCall c{.kind = k, .flags = flags(k, p), .f64 = real_dtype(t) == DType::f64, .complex = is_complex(t)};
  c.batch = linalg_rules::batch_size(a);
  c.m = a[a.size() - 2];
  c.n = a[a.size() - 1];
  if (in.size() > 1) {
    const Shape& b = in[1].shape();
    c.b_rows = b[b.size() - 2];
    c.b_cols = b[b.size() - 1];
  }
  std::vector<const void*> ins;
  std::vector<void*> outs;
  for (const KernelArg& x : in) ins.push_back(x.data);
  for (const KernelArg& x : out) outs.push_back(x.data);
  kernels::linalg(c, ins.data(), outs.data());
}

std::pair<std::vector<Array>, std::vector<int>> batch(const Primitive& prim, std::span<const Array> args,
                                                      std::span<const int> dims, const Params& p) {
  int64_t size = batching::batch_size(args, dims);
  std::vector<Array> ops;
  for (size_t i = 0; i < args.size(); ++i) ops.push_back(batching::front_or_repeat(args, dims, i, size));
  std::vector<Array> out = lax::bind(prim, ops, p);
  return {out, std::vector<int>(out.size(), 0)};
}

std::vector<Array> transpose_of_jvp(const Primitive& prim, std::span<const Array> x, std::span<const Array> out,
                                    std::span<const Array> ct, const Params& p) {
  return ad::transpose_tangent_map(x, out, ct, [&](std::span<const Array> t) { return prim.jvp(x, t, out, p); });
}

// ---- Matrix helpers ----

namespace {
IntList iota_list(size_t n) {
  IntList r(n);
  for (size_t i = 0; i < n; ++i) r[i] = static_cast<int64_t>(i);
  return r;
}

Array iota(const Shape& shape, int64_t dimension) {
  return lax::bind1(prim::kIota, {},
                    Params{{"dtype", DType::i32}, {"shape", IntList(shape.begin(), shape.end())}, {"dimension", dimension}});
}

// col - row >= k (above or on diagonal k) as a bool mask of x's shape.
Array band_mask(const Shape& s, int64_t k, bool upper) {
  int64_t r = static_cast<int64_t>(s.size());
  Array row = iota(s, r - 2), col = iota(s, r - 1);
  Array d = lax::sub(col, row);
  Array kk = lax::full({s, DType::i32}, static_cast<double>(k));
  return upper ? lax::ge(d, kk) : lax::le(d, kk);
}
}  // namespace

Array mT(const Array& x) {
  IntList perm = iota_list(x.shape().size());
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return lax::transpose(x, perm);
}

// v in x's dtype (the real singular values or eigenvalue gaps scaling a complex matrix).
Array as_dtype_of(const Array& v, const Array& x) {
  return v.dtype() == x.dtype() ? v : lax::convert_element_type(v, x.dtype());
}

Array mH(const Array& x) { return is_complex(x.dtype()) ? lax::conj(mT(x)) : mT(x); }

Array mm(const Array& a, const Array& b) {
  int64_t r = static_cast<int64_t>(a.shape().size());
  IntList batch = iota_list(static_cast<size_t>(r - 2));
  return lax::dot_general(a, b, {r - 1}, {r - 2}, batch, batch);
}

Array tril(const Array& x, int64_t k) {
  return lax::select(band_mask(x.shape(), k, false), x, lax::zeros({x.shape(), x.dtype()}));
}
Array triu(const Array& x, int64_t k) {
  return lax::select(band_mask(x.shape(), k, true), x, lax::zeros({x.shape(), x.dtype()}));
}

Array eye(const Shape& batch, int64_t rows, int64_t cols, DType dtype) {
  Shape s = batch;
  s.push_back(rows);
  s.push_back(cols);
  Array on = lax::eq(iota(s, static_cast<int64_t>(s.size()) - 2), iota(s, static_cast<int64_t>(s.size()) - 1));
  return lax::convert_element_type(on, dtype);
}

Array diagonal(const Array& x) {
  const Shape& s = x.shape();
  int64_t r = static_cast<int64_t>(s.size()), m = s[r - 2], n = s[r - 1], k = std::min(m, n);
  IntList start(r, 0), limit(s.begin(), s.end()), strides(r, 1);
  limit[r - 2] = limit[r - 1] = k;
  Array sq = lax::slice(x, start, limit, strides);
  Array masked = lax::select(band_mask(sq.shape(), 0, true), sq, lax::zeros({sq.shape(), sq.dtype()}));
  masked = lax::select(band_mask(sq.shape(), 0, false), masked, lax::zeros({sq.shape(), sq.dtype()}));
  return lax::reduce_sum(masked, {r - 1});
}

Array off_diagonal_inverse(const Array& x, Array (*d)(const Array& xj, const Array& xi)) {
  const Shape& s = x.shape();
  int64_t n = s.back(), r = static_cast<int64_t>(s.size());
  Shape full = s;
  full.push_back(n);
  IntList dims_j, dims_i;
  for (int64_t i = 0; i + 1 < r; ++i) dims_j.push_back(i), dims_i.push_back(i);
  dims_j.push_back(r);
  dims_i.push_back(r - 1);
  Array e = eye(Shape(s.begin(), s.end() - 1), n, n, x.dtype());
  Array diffs = d(lax::broadcast_in_dim(x, full, dims_j), lax::broadcast_in_dim(x, full, dims_i));
  return lax::sub(lax::div(lax::full({full, x.dtype()}, 1.0), lax::add(diffs, e)), e);
}

Array diag_embed(const Array& v) {
  const Shape& s = v.shape();
  int64_t n = s.back();
  Shape batch(s.begin(), s.end() - 1), full = batch;
  full.push_back(n);
  full.push_back(n);
  IntList dims = iota_list(batch.size());
  dims.push_back(static_cast<int64_t>(batch.size()) + 1);
  return lax::mul(lax::broadcast_in_dim(v, full, dims), eye(batch, n, n, v.dtype()));
}

Array scale_cols(const Array& x, const Array& v) {
  IntList dims = iota_list(x.shape().size() - 2);
  dims.push_back(static_cast<int64_t>(x.shape().size()) - 1);
  return lax::mul(x, lax::broadcast_in_dim(as_dtype_of(v, x), x.shape(), dims));
}

Array scale_rows(const Array& x, const Array& v) {
  IntList dims = iota_list(x.shape().size() - 2);
  dims.push_back(static_cast<int64_t>(x.shape().size()) - 2);
  return lax::mul(x, lax::broadcast_in_dim(as_dtype_of(v, x), x.shape(), dims));
}

Array sym_from_lower(const Array& x) {
  if (!is_complex(x.dtype())) return lax::add(tril(x), mT(tril(x, -1)));
  Array strict = tril(x, -1);
  Array d = diag_embed(lax::convert_element_type(lax::real(diagonal(x)), x.dtype()));
  return lax::add(lax::add(strict, mH(strict)), d);
}
Array sym_from_lower_transpose(const Array& g) { return lax::add(tril(g), tril(mT(g), -1)); }

Params triangular_solve_params(bool left_side, bool lower, bool transpose_a, bool unit_diagonal, bool conjugate_a) {
  return Params{{"left_side", left_side}, {"lower", lower}, {"transpose_a", transpose_a},
                {"conjugate_a", conjugate_a}, {"unit_diagonal", unit_diagonal}};
}

Array triangular_solve(const Array& a, const Array& b, bool left_side, bool lower, bool transpose_a,
                       bool unit_diagonal, bool conjugate_a) {
  return lax::bind1(prim::kTriangularSolve, {a, b},
                    triangular_solve_params(left_side, lower, transpose_a, unit_diagonal, conjugate_a));
}

}  // namespace strata::linalg_prim
