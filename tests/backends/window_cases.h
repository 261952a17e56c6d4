// tests/backends/window_cases.h — compiled-vs-eager cases of the window primitives (issue 13:
// reduce_window_sum/max/min, select_and_scatter_add, select_and_gather_add); included inside
// primitive_cases.h's namespace, before its table.
#pragma once

struct WindowGeom {
  st::IntList window, strides, lo, hi, base, dil;
};

inline Params window_params(const WindowGeom& g, bool dilations = true) {
  Params p{{"window_dimensions", g.window}, {"window_strides", g.strides}, {"padding_low", g.lo}, {"padding_high", g.hi}};
  if (dilations) {
    p.set("base_dilation", g.base);
    p.set("window_dilation", g.dil);
  }
  return p;
}

// The geometries every window primitive runs on: (shape, geometry, name).
struct WindowShape {
  std::string what;
  st::Shape shape;
  WindowGeom g;
  bool dilated;
};
inline std::vector<WindowShape> window_shapes() {
  return {{"pool 2x2/2", {2, 6, 8, 3}, {{1, 2, 2, 1}, {1, 2, 2, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}}, false},
          {"overlapping padded", {5, 7}, {{3, 2}, {2, 1}, {1, 0}, {2, 1}, {1, 1}, {1, 1}}, false},
          {"dilated", {5, 7}, {{3, 2}, {2, 1}, {1, 0}, {2, 1}, {2, 1}, {1, 2}}, true},
          {"empty", {3, 0}, {{1, 1}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, {1, 1}}, false},
          {"window larger than input", {2}, {{5}, {1}, {0}, {0}, {1}, {1}}, false},
          {"large NHWC", {4, 64, 64, 8}, {{1, 2, 2, 1}, {1, 2, 2, 1}, {0, 0, 0, 0}, {0, 1, 1, 0}, {1, 1, 1, 1}, {1, 1, 1, 1}}, false}};
}

inline std::vector<Case> reduce_window_cases(bool extremes) {
  std::vector<Case> cs;
  for (DType t : kNumeric) {
    std::string n(st::short_name(t));
    bool fl = st::is_floating(t);
    Tolerance tol{4, extremes ? 0.0 : 8.0, extremes ? 0.0 : 4.0, true};
    for (const WindowShape& w : window_shapes())
      cs.push_back({w.what + " " + n, window_params(w.g), {random_array(w.shape, t, fl ? -2 : -50, fl ? 2 : 50)}, tol});
    // Edge values (nan, ±inf, integer extremes) through overlapping padded windows.
    cs.push_back({"edges " + n, window_params({{3}, {1}, {1}, {1}, {1}, {1}}), {edges(t)}, tol});
  }
  for (DType t : kComplex) {  // sums; max and min in the lexicographic order
    std::string n(st::short_name(t));
    for (const WindowShape& w : window_shapes())
      cs.push_back({w.what + " " + n, window_params(w.g), {random_array(w.shape, t, -2, 2)},
                    Tolerance{4, extremes ? 0.0 : 8.0, extremes ? 0.0 : 4.0, true}});
  }
  return cs;
}

// select_and_scatter_add source operand (ge), and le on the dilation-free geometries.
inline std::vector<Case> select_and_scatter_cases() {
  std::vector<Case> cs;
  for (DType t : kNumeric) {
    std::string n(st::short_name(t));
    for (const WindowShape& w : window_shapes()) {
      if (w.dilated) continue;
      Params p = window_params(w.g, false);
      st::Shape out;
      for (size_t d = 0; d < w.shape.size(); ++d) {
        int64_t padded = w.shape[d] + w.g.lo[d] + w.g.hi[d];
        out.push_back(padded < w.g.window[d] ? 0 : (padded - w.g.window[d]) / w.g.strides[d] + 1);
      }
      for (const char* sel : {"ge", "le"}) {
        Params q = p;
        q.set("select_prim", std::string(sel));
        // Operand values from a small set: ties, which the first position wins.
        cs.push_back({w.what + " " + sel + " " + n, q, {random_array(out, t, -3, 3, 1), random_array(w.shape, t, -2, 2, 2)},
                      Tolerance{4, 0, 0, true}});
      }
    }
    Params e = window_params({{3}, {2}, {1}, {1}, {1}, {1}}, false);
    e.set("select_prim", std::string("ge"));
    Array x = edges(t);
    int64_t m = (x.shape()[0] + 2 - 3) / 2 + 1;
    cs.push_back({"edges " + n, e, {random_array({m}, t, -3, 3, 3), x}, Tolerance{4, 0, 0, true}});
  }
  return cs;
}

// select_and_gather_add tangents operand, with dilations too.
inline std::vector<Case> select_and_gather_cases() {
  std::vector<Case> cs;
  for (DType t : kNumeric) {
    std::string n(st::short_name(t));
    for (const WindowShape& w : window_shapes())
      for (const char* sel : {"ge", "le"}) {
        Params q = window_params(w.g);
        q.set("select_prim", std::string(sel));
        cs.push_back({w.what + " " + sel + " " + n, q, {random_array(w.shape, t, -3, 3, 1), random_array(w.shape, t, -2, 2, 2)},
                      Tolerance{4, 0, 0, true}});
      }
    Params e = window_params({{3}, {1}, {1}, {1}, {1}, {1}});
    e.set("select_prim", std::string("ge"));
    Array x = edges(t);
    cs.push_back({"edges " + n, e, {random_array(x.shape(), t, -3, 3, 3), x}, Tolerance{4, 0, 0, true}});
  }
  return cs;
}

// The primitives that lower to strata.reduce_window, which the cuda target refuses for now
// (CudaWindowReductions in test_cuda_primitives.cpp).
inline bool lowers_to_reduce_window(std::string_view name) {
  return name == "reduce_window_sum" || name == "reduce_window_max" || name == "reduce_window_min" ||
         name == "select_and_gather_add";
}
