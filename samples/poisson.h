// The 2-D Poisson problem of the CG sample and its benchmark (bench/bench_control_flow.cpp):
// the loop's carry and the 5-point operator.
#pragma once

#include "strata/strata.h"

// The loop's carry: iterate, residual, direction, |r|², iteration count.
struct CgState {
  strata::Array x, r, p, rs, k;
};
STRATA_PYTREE(CgState, x, r, p, rs, k);

// A·u for the 5-point negative Laplacian with zero boundary values outside the grid.
inline strata::Array laplacian(const strata::Array& u) {
  namespace st = strata;
  int64_t n = u.shape(0), m = u.shape(1);
  st::Array zr = st::zeros({1, m}), zc = st::zeros({n, 1});
  st::Array up = st::concatenate({st::slice(u, {1, 0}, {n, m}), zr}, 0);
  st::Array down = st::concatenate({zr, st::slice(u, {0, 0}, {n - 1, m})}, 0);
  st::Array left = st::concatenate({st::slice(u, {0, 1}, {n, m}), zc}, 1);
  st::Array right = st::concatenate({zc, st::slice(u, {0, 0}, {n, m - 1})}, 1);
  return u * 4.0f - up - down - left - right;
}
