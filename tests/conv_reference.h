// tests/conv_reference.h — an independent plain-loop convolution (jax.lax.conv_general_dilated
// semantics, in double) and random convolution configurations, for the conv tests.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "strata/strata.h"

namespace strata::testing {

struct ConvCase {
  Shape lhs, rhs;
  std::vector<int64_t> strides, lo, hi, lhs_dil, rhs_dil;
  ConvDimensionNumbers dn;
  int64_t groups = 1, batch_groups = 1;

  std::string str() const {
    auto l = [](const std::vector<int64_t>& v) {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
      return s + "]";
    };
    return "lhs " + l(lhs) + " rhs " + l(rhs) + " strides " + l(strides) + " pad " + l(lo) + l(hi) + " lhs_dil " +
           l(lhs_dil) + " rhs_dil " + l(rhs_dil) + " specs " + l(dn.lhs_spec) + l(dn.rhs_spec) + l(dn.out_spec) +
           " groups " + std::to_string(groups) + "/" + std::to_string(batch_groups);
  }
  Padding padding() const {
    std::vector<std::pair<int64_t, int64_t>> p;
    for (size_t i = 0; i < lo.size(); ++i) p.push_back({lo[i], hi[i]});
    return p;
  }
  Array apply(const Array& x, const Array& w) const {
    return conv_general_dilated(x, w, strides, padding(), lhs_dil, rhs_dil, dn, groups, batch_groups);
  }
};

inline std::vector<int64_t> strides_of(const Shape& s) {
  std::vector<int64_t> st(s.size(), 1);
  for (size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

// The output shape and values (and the sum of |products| per element, for tolerances) by
// direct loops over every output element, input feature and window tap.
struct ConvRef {
  Shape shape;
  std::vector<double> value, magnitude;
};
inline ConvRef conv_reference(const ConvCase& c, const std::vector<double>& x, const std::vector<double>& w) {
  const auto &ls = c.dn.lhs_spec, &rs = c.dn.rhs_spec, &os = c.dn.out_spec;
  const size_t rank = c.lhs.size(), nsp = rank - 2;
  const int64_t NG = c.groups * c.batch_groups;
  const int64_t N = c.lhs[ls[0]] / c.batch_groups, C = c.lhs[ls[1]], O = c.rhs[rs[0]], Ci = c.rhs[rs[1]];
  std::vector<int64_t> in(nsp), k(nsp), out(nsp);
  for (size_t i = 0; i < nsp; ++i) {
    in[i] = c.lhs[ls[i + 2]];
    k[i] = c.rhs[rs[i + 2]];
    int64_t din = (in[i] == 0 ? 0 : (in[i] - 1) * c.lhs_dil[i] + 1) + c.lo[i] + c.hi[i];
    int64_t dk = (k[i] == 0 ? 0 : (k[i] - 1) * c.rhs_dil[i] + 1);
    out[i] = din < dk ? 0 : (din - dk) / c.strides[i] + 1;
  }
  ConvRef r;
  r.shape.assign(rank, 0);
  r.shape[os[0]] = N;
  r.shape[os[1]] = O;
  for (size_t i = 0; i < nsp; ++i) r.shape[os[i + 2]] = out[i];
  int64_t total = 1;
  for (int64_t d : r.shape) total *= d;
  r.value.assign(total, 0.0);
  r.magnitude.assign(total, 0.0);
  const std::vector<int64_t> xst = strides_of(c.lhs), wst = strides_of(c.rhs), yst = strides_of(r.shape);
  int64_t taps = 1;
  for (int64_t v : k) taps *= v;
  std::vector<int64_t> idx(rank), tap(nsp);
  for (int64_t flat = 0; flat < total; ++flat) {
    for (size_t d = 0, rem = flat; d < rank; ++d) {
      idx[d] = static_cast<int64_t>(rem) / yst[d];
      rem %= yst[d];
    }
    const int64_t n = idx[os[0]], o = idx[os[1]];
    const int64_t grp = o / (O / NG);
    const int64_t batch = c.batch_groups > 1 ? grp * N + n : n;
    const int64_t c0 = c.groups > 1 ? grp * Ci : 0;
    double s = 0, m = 0;
    for (int64_t ci = 0; ci < Ci; ++ci)
      for (int64_t t = 0; t < taps; ++t) {
        for (size_t i = nsp, rem = t; i-- > 0;) {
          tap[i] = static_cast<int64_t>(rem) % k[i];
          rem /= k[i];
        }
        int64_t xo = batch * xst[ls[0]] + (c0 + ci) * xst[ls[1]];
        int64_t wo = o * wst[rs[0]] + ci * wst[rs[1]];
        bool inside = true;
        for (size_t i = 0; i < nsp && inside; ++i) {
          int64_t pos = idx[os[i + 2]] * c.strides[i] + tap[i] * c.rhs_dil[i] - c.lo[i];
          inside = pos >= 0 && pos % c.lhs_dil[i] == 0 && pos / c.lhs_dil[i] < in[i];
          xo += (inside ? pos / c.lhs_dil[i] : 0) * xst[ls[i + 2]];
          wo += tap[i] * wst[rs[i + 2]];
        }
        if (!inside) continue;
        s += x[xo] * w[wo];
        m += std::fabs(x[xo] * w[wo]);
      }
    (void)C;
    r.value[flat] = s;
    r.magnitude[flat] = m;
  }
  return r;
}

// A random valid configuration: 1 to 3 spatial dimensions, random layouts, strides, padding
// (negative too), dilations and groups; small sizes.
inline ConvCase random_conv_case(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  ConvCase c;
  const int nsp = std::vector<int>{1, 2, 2, 3}[pick(0, 3)];
  const int rank = nsp + 2;
  int mode = pick(0, 3);  // 0, 1: no groups; 2: feature groups; 3: batch groups
  c.groups = mode == 2 ? pick(2, 3) : 1;
  c.batch_groups = mode == 3 ? 2 : 1;
  const int64_t N = pick(1, 2) * c.batch_groups, Cg = pick(1, 3), Og = pick(1, 3);
  const int64_t C = Cg * c.groups, O = Og * c.groups * c.batch_groups;
  std::vector<int64_t> in(nsp), k(nsp);
  for (int i = 0; i < nsp; ++i) {
    in[i] = pick(1, nsp == 3 ? 4 : 7);
    k[i] = pick(1, 3);
    c.strides.push_back(pick(1, 3));
    c.lhs_dil.push_back(pick(0, 3) == 0 ? 2 : 1);
    c.rhs_dil.push_back(pick(0, 3) == 0 ? 2 : 1);
    c.lo.push_back(pick(-1, 2));
    c.hi.push_back(pick(-1, 2));
  }
  auto perm = [&]() {
    std::vector<int64_t> p(rank);
    std::iota(p.begin(), p.end(), 0);
    std::shuffle(p.begin(), p.end(), rng);
    return p;
  };
  c.dn = ConvDimensionNumbers(perm(), perm(), perm());
  c.lhs.assign(rank, 0);
  c.rhs.assign(rank, 0);
  c.lhs[c.dn.lhs_spec[0]] = N;
  c.lhs[c.dn.lhs_spec[1]] = C;
  c.rhs[c.dn.rhs_spec[0]] = O;
  c.rhs[c.dn.rhs_spec[1]] = Cg;
  for (int i = 0; i < nsp; ++i) {
    c.lhs[c.dn.lhs_spec[i + 2]] = in[i];
    c.rhs[c.dn.rhs_spec[i + 2]] = k[i];
  }
  return c;
}

inline std::vector<double> random_values(int64_t n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) x = u(rng);
  return v;
}

inline int64_t count_of(const Shape& s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  return n;
}

}  // namespace strata::testing
