// tests/backends/primitive_cases.h — the cases every primitive is compiled and checked on: every
// dtype it accepts, edge values (±0, nan, ±inf, subnormals, extreme integers), empty and size-1
// dimensions, sizes below and above the CPU's parallel threshold. Shared by the CPU and the
// GPU primitive tests.
#pragma once

#include <functional>
#include <map>

#include "cpu_test_util.h"
#include "host_callback.h"

namespace primitive_cases {

namespace st = strata;
using st::Array;
using st::DType;
using st::Params;
using namespace st::testing;


// f8_e4m3fnuz and f4_e2m1fn stand for the rarer byte floats (one nan at 0x80, no -0; no nan,
// saturating, sub-byte).
constexpr DType kFloats[] = {st::f32, st::f64, st::bf16, st::f16, st::f8_e4m3fn, st::f8_e5m2, st::f8_e4m3fnuz, st::f4_e2m1fn};
// The 4-bit integers stand for the sub-byte ones (computed in 8 bits eagerly, in iN compiled).
constexpr DType kInts[] = {st::i32, st::i64, st::i4, st::u4};
constexpr DType kIndexInts[] = {st::i32, st::i64};
constexpr DType kNumeric[] = {st::f32, st::f64, st::bf16, st::f16, st::f8_e4m3fn, st::f8_e5m2, st::f4_e2m1fn, st::i32, st::i64, st::i4, st::u4};
constexpr DType kAll[] = {st::f32, st::f64, st::bf16, st::f16, st::f8_e4m3fn, st::f8_e5m2, st::f4_e2m1fn, st::i32, st::i64, st::i4, st::u4, st::bool_};
constexpr DType kComplex[] = {st::c64, st::c128};

// One primitive applied once: the unit of these tests.
struct Case {
  std::string what;
  Params params;
  std::vector<Array> inputs;
  Tolerance tol;
};

// The host function of the callback cases: x + x (not x for bools) for each operand.
// A debug callback's returns nothing (it computes them all the same).
class DoubleEach final : public st::HostFunction {
 public:
  explicit DoubleEach(bool results) : results_(results) {}
  std::vector<Array> operator()(std::span<const Array> args) const override {
    std::vector<Array> out;
    for (const Array& x : args) out.push_back(x.dtype() == st::bool_ ? st::logical_not(x) : x + x);
    if (!results_) out.clear();
    return out;
  }

 private:
  bool results_;
};

// Forward declaration: the cases need the sizes below.
inline std::vector<Case> callback_cases(const std::string& kind);

// Large enough to be split across the cores (lowering/CpuAbi.h: kParallelThreshold).
constexpr int64_t kLarge = 100003;

inline std::vector<Case> unary_cases(std::span<const DType> types, double lo, double hi) {
  std::vector<Case> cs;
  for (DType t : types) {
    cs.push_back({"edges " + std::string(st::short_name(t)), {}, {edges(t)}});
    cs.push_back({"random " + std::string(st::short_name(t)), {}, {random_array({3, 7}, t, lo, hi)}});
    cs.push_back({"large " + std::string(st::short_name(t)), {}, {random_array({kLarge}, t, lo, hi, 2)}});
    cs.push_back({"empty " + std::string(st::short_name(t)), {}, {random_array({3, 0}, t, lo, hi)}});
    cs.push_back({"scalar " + std::string(st::short_name(t)), {}, {random_array({}, t, lo, hi)}});
  }
  return cs;
}

inline std::vector<Case> binary_cases(std::span<const DType> types, double lo, double hi) {
  std::vector<Case> cs;
  for (DType t : types) {
    auto [x, y] = edge_pairs(t);
    std::string n(st::short_name(t));
    cs.push_back({"edge pairs " + n, {}, {x, y}});
    cs.push_back({"random " + n, {}, {random_array({4, 5}, t, lo, hi, 1), random_array({4, 5}, t, lo, hi, 2)}});
    cs.push_back({"large " + n, {}, {random_array({kLarge}, t, lo, hi, 3), random_array({kLarge}, t, lo, hi, 4)}});
    cs.push_back({"0-d with array " + n, {}, {random_array({}, t, lo, hi, 5), random_array({2, 3}, t, lo, hi, 6)}});
    cs.push_back({"array with 0-d " + n, {}, {random_array({2, 3}, t, lo, hi, 7), random_array({}, t, lo, hi, 8)}});
    cs.push_back({"empty " + n, {}, {random_array({0, 4}, t, lo, hi), random_array({0, 4}, t, lo, hi)}});
  }
  return cs;
}

inline std::vector<Case> plus(std::vector<Case> a, const std::vector<Case>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// Complex cases without the edge values (the complex logistic also within an absolute 256 ulps:
// 1 + e^-z cancels near its poles): where a part is inf or nan, libstdc++'s complex functions
// (eager) and MLIR's complex-to-standard formulas (compiled) follow C's Annex G to different
// degrees; finite values must agree.
inline std::vector<Case> finite_only(std::vector<Case> cs) {
  std::erase_if(cs, [](const Case& c) { return c.what.rfind("edge", 0) == 0; });
  return cs;
}

inline std::vector<Case> with_tolerance(std::vector<Case> cs, Tolerance tol) {
  for (Case& c : cs) c.tol = tol;
  return cs;
}

inline Params axes(st::IntList a) { return Params{{"axes", a}}; }

inline std::vector<Case> reduce_cases(bool extremes) {
  std::vector<Case> cs;
  for (DType t : kNumeric) {
    std::string n(st::short_name(t));
    bool fl = st::is_floating(t);
    double lo = fl ? -2 : -50, hi = fl ? 2 : 50;
    Tolerance tol{4, 0, 0, true};
    auto add = [&](const std::string& what, const st::IntList& a, const Array& x) {
      Tolerance t2 = tol;
      int64_t terms = 1;
      for (int64_t d : a) terms *= x.shape()[static_cast<size_t>(d)];
      t2.sum_terms = static_cast<double>(terms) * 2;
      t2.scale = fl ? 2.0 * (extremes ? 1 : std::pow(2.0, static_cast<double>(terms))) : 0;
      cs.push_back({what + " " + n, axes(a), {x}, t2});
    };
    Array x = random_array({3, 4, 5}, t, lo, hi);
    add("trailing axis", {2}, x);
    add("middle axis", {1}, x);
    add("leading axis", {0}, x);
    add("two axes", {0, 2}, x);
    add("all axes", {0, 1, 2}, x);
    add("no axes", {}, x);
    add("empty axis", {1}, random_array({3, 0, 2}, t, lo, hi));
    add("size-1 axis", {0}, random_array({1, 6}, t, lo, hi));
    add("large trailing", {1}, random_array({400, 300}, t, lo, hi, 3));
    add("large leading", {0}, random_array({300, 400}, t, lo, hi, 4));
    if (extremes) add("edges", {0}, edges(t));
  }
  if (extremes)  // complex max and min: the lexicographic order
    for (DType t : kComplex) {
      std::string n(st::short_name(t));
      Array x = random_array({3, 4, 5}, t, -2, 2);
      for (auto [what, a] : {std::pair<std::string, st::IntList>{"trailing axis", {2}}, {"leading axis", {0}}, {"all axes", {0, 1, 2}}})
        cs.push_back({what + " " + n, axes(a), {x}, Tolerance{4, 0, 0, true}});
      cs.push_back({"empty axis " + n, axes({1}), {random_array({3, 0, 2}, t, -2, 2)}, Tolerance{4, 0, 0, true}});
      cs.push_back({"large trailing " + n, axes({1}), {random_array({400, 300}, t, -2, 2, 3)}, Tolerance{4, 0, 0, true}});
      cs.push_back({"large leading " + n, axes({0}), {random_array({300, 400}, t, -2, 2, 4)}, Tolerance{4, 0, 0, true}});
    }
  return cs;
}

inline std::vector<Case> dot_cases() {
  std::vector<Case> cs;
  auto dims = [](st::IntList lb, st::IntList rb, st::IntList lc, st::IntList rc) {
    return Params{{"lhs_batch", lb}, {"rhs_batch", rb}, {"lhs_contract", lc}, {"rhs_contract", rc}};
  };
  for (DType t : kNumeric) {
    std::string n(st::short_name(t));
    bool fl = st::is_floating(t);
    double lo = fl ? -1 : -20, hi = fl ? 1 : 20;
    auto add = [&](const std::string& what, Params p, st::Shape ls, st::Shape rs, int64_t k) {
      Tolerance tol{4, static_cast<double>(2 * k + 2), fl ? 1.0 : 0.0, true};
      cs.push_back({what + " " + n, p, {random_array(ls, t, lo, hi, 1), random_array(rs, t, lo, hi, 2)}, tol});
    };
    add("matmul", dims({}, {}, {1}, {0}), {4, 8}, {8, 16}, 8);
    add("lhs transposed", dims({}, {}, {0}, {0}), {8, 4}, {8, 16}, 8);
    add("rhs transposed", dims({}, {}, {1}, {1}), {4, 8}, {16, 8}, 8);
    add("both transposed", dims({}, {}, {0}, {1}), {8, 4}, {16, 8}, 8);
    add("batched", dims({0}, {0}, {2}, {1}), {2, 3, 4}, {2, 4, 5}, 4);
    add("batch in the middle (copied)", dims({1}, {1}, {2}, {0}), {3, 2, 4}, {4, 2, 5}, 4);
    add("two contracting dims", dims({}, {}, {1, 2}, {0, 1}), {3, 2, 4}, {2, 4, 5}, 8);
    add("vector dot", dims({}, {}, {0}, {0}), {7}, {7}, 7);
    add("outer product", dims({}, {}, {}, {}), {3}, {4}, 1);
    add("empty contraction", dims({}, {}, {1}, {0}), {3, 0}, {0, 4}, 0);
    add("empty rows", dims({}, {}, {1}, {0}), {0, 4}, {4, 3}, 4);
    add("size-1 dims", dims({}, {}, {1}, {0}), {1, 5}, {5, 1}, 5);
    add("large (parallel GEMM)", dims({}, {}, {1}, {0}), {96, 80}, {80, 112}, 80);
    add("large batched", dims({0}, {0}, {2}, {1}), {6, 40, 48}, {6, 48, 32}, 48);
  }
  return cs;
}

inline std::vector<Case> convert_cases() {
  std::vector<Case> cs;
  for (DType from : kAll)
    for (DType to : kAll) {
      std::string n = std::string(st::short_name(from)) + " -> " + std::string(st::short_name(to));
      Params p{{"new_dtype", to}};
      cs.push_back({"edges " + n, p, {edges(from)}});
      if (from != st::bool_) {
        // Values that round differently at each width, and big integers.
        std::vector<double> v{1.0 + 1.0 / 256 + 1.0 / (1 << 30), 16777217.0, 2147483647.0, -2147483648.5,
                              9.2233720368547758e18, -9.2233720368547758e18, 3e9, -3e9, 65519.0, 65520.0, 0.99999994,
                              257.0, 4097.0, 1e-8, -1.5, 2.5};
        Array x = st::is_integer(from) ? ints(std::vector<int64_t>{1, -1, 16777217, 16777219, 2147483647, -2147483647 - 1,
                                                                   257, 4097, 65519, 65520, 33554435, -33554435},
                                              {12}, from)
                                       : of(v, {static_cast<int64_t>(v.size())}, from);
        cs.push_back({"rounding " + n, p, {x}});
      }
      cs.push_back({"large " + n, p, {random_array({kLarge}, from, -1e3, 1e3)}});
    }
  return cs;
}

inline std::vector<Case> bitcast_cases() {
  std::vector<Case> cs;
  std::pair<DType, DType> pairs[] = {{st::f32, st::i32}, {st::i32, st::f32}, {st::f64, st::i64},
                                     {st::i64, st::f64}, {st::bf16, st::f16}, {st::f16, st::bf16},
                                     {st::f32, st::f32}};
  for (auto [from, to] : pairs)
    cs.push_back({std::string(st::short_name(from)) + " -> " + std::string(st::short_name(to)),
                  Params{{"new_dtype", to}}, {edges(from)}});
  // Between widths (a last dimension of the ratio added or removed); the narrow inputs are
  // the wide edge values' bits, made eagerly.
  std::pair<DType, DType> widths[] = {{st::f32, st::u8}, {st::f64, st::i16}, {st::f64, st::f32}, {st::i64, st::u32},
                                      {st::f32, st::bf16}};
  for (auto [wide, narrow] : widths) {
    std::string w(st::short_name(wide)), n(st::short_name(narrow));
    Array x = edges(wide), big = random_array({kLarge}, wide, -1e3, 1e3);
    cs.push_back({w + " -> " + n, Params{{"new_dtype", narrow}}, {x}});
    cs.push_back({"large " + w + " -> " + n, Params{{"new_dtype", narrow}}, {big}});
    cs.push_back({n + " -> " + w, Params{{"new_dtype", wide}}, {st::bitcast_convert_type(x, narrow)}});
    cs.push_back({"large " + n + " -> " + w, Params{{"new_dtype", wide}}, {st::bitcast_convert_type(big, narrow)}});
  }
  for (DType t : {st::c64, st::c128, st::bool_})
    cs.push_back({std::string(st::short_name(t)) + " -> itself", Params{{"new_dtype", t}}, {edges(t)}});
  return cs;
}

inline std::vector<Case> compare_cases() {
  std::vector<Case> cs = binary_cases(kAll, -3, 3);
  return cs;
}

inline std::vector<Case> select_cases() {
  std::vector<Case> cs;
  for (DType t : kAll) {
    std::string n(st::short_name(t));
    Array p = random_array({4, 5}, st::bool_, 0, 1, 3);
    cs.push_back({"arrays " + n, {}, {p, random_array({4, 5}, t, -5, 5, 1), random_array({4, 5}, t, -5, 5, 2)}});
    cs.push_back({"0-d predicate " + n, {}, {random_array({}, st::bool_, 0, 1, 4), random_array({4, 5}, t, -5, 5, 1), random_array({4, 5}, t, -5, 5, 2)}});
    cs.push_back({"0-d branch " + n, {}, {p, random_array({}, t, -5, 5, 1), random_array({4, 5}, t, -5, 5, 2)}});
    cs.push_back({"large " + n, {}, {random_array({kLarge}, st::bool_, 0, 1, 5), random_array({kLarge}, t, -5, 5, 1), random_array({kLarge}, t, -5, 5, 2)}});
  }
  return cs;
}

inline std::vector<Case> shape_op_cases(const std::string& prim) {
  std::vector<Case> cs;
  for (DType t : kAll) {
    std::string n(st::short_name(t));
    Array x234 = random_array({2, 3, 4}, t, -9, 9);
    if (prim == "broadcast_in_dim") {
      cs.push_back({"new leading dim " + n, Params{{"shape", st::IntList{2, 3}}, {"broadcast_dimensions", st::IntList{1}}}, {random_array({3}, t, -9, 9)}});
      cs.push_back({"stretched size-1 " + n, Params{{"shape", st::IntList{3, 4}}, {"broadcast_dimensions", st::IntList{0, 1}}}, {random_array({3, 1}, t, -9, 9)}});
      cs.push_back({"0-d " + n, Params{{"shape", st::IntList{2, 2}}, {"broadcast_dimensions", st::IntList{}}}, {random_array({}, t, -9, 9)}});
      cs.push_back({"large " + n, Params{{"shape", st::IntList{400, 300}}, {"broadcast_dimensions", st::IntList{1}}}, {random_array({300}, t, -9, 9)}});
    } else if (prim == "reshape") {
      cs.push_back({"2-d " + n, Params{{"new_sizes", st::IntList{4, 6}}}, {x234}});
      cs.push_back({"to 1-d " + n, Params{{"new_sizes", st::IntList{24}}}, {x234}});
      cs.push_back({"0-d to [1,1] " + n, Params{{"new_sizes", st::IntList{1, 1}}}, {random_array({}, t, -9, 9)}});
      cs.push_back({"[1] to 0-d " + n, Params{{"new_sizes", st::IntList{}}}, {random_array({1}, t, -9, 9)}});
      cs.push_back({"empty " + n, Params{{"new_sizes", st::IntList{3, 0}}}, {random_array({0, 5}, t, -9, 9)}});
    } else if (prim == "transpose") {
      cs.push_back({"3-d " + n, Params{{"permutation", st::IntList{2, 0, 1}}}, {x234}});
      cs.push_back({"2-d " + n, Params{{"permutation", st::IntList{1, 0}}}, {random_array({5, 7}, t, -9, 9)}});
      cs.push_back({"large " + n, Params{{"permutation", st::IntList{1, 0}}}, {random_array({300, 400}, t, -9, 9)}});
    } else if (prim == "slice") {
      cs.push_back({"strided " + n, Params{{"start_indices", st::IntList{1, 0}}, {"limit_indices", st::IntList{5, 6}}, {"strides", st::IntList{2, 3}}}, {random_array({5, 6}, t, -9, 9)}});
      cs.push_back({"contiguous " + n, Params{{"start_indices", st::IntList{0, 1, 1}}, {"limit_indices", st::IntList{2, 3, 4}}, {"strides", st::IntList{1, 1, 1}}}, {x234}});
      cs.push_back({"empty " + n, Params{{"start_indices", st::IntList{2}}, {"limit_indices", st::IntList{2}}, {"strides", st::IntList{1}}}, {random_array({4}, t, -9, 9)}});
    } else if (prim == "concatenate") {
      cs.push_back({"two " + n, Params{{"dimension", int64_t{1}}}, {random_array({2, 3}, t, -9, 9, 1), random_array({2, 1}, t, -9, 9, 2)}});
      cs.push_back({"three " + n, Params{{"dimension", int64_t{0}}}, {random_array({1, 3}, t, -9, 9, 1), random_array({0, 3}, t, -9, 9, 2), random_array({2, 3}, t, -9, 9, 3)}});
    } else if (prim == "pad") {
      Array v = random_array({}, t, -9, 9, 7);
      cs.push_back({"edges and interior " + n, Params{{"padding_low", st::IntList{1, 0}}, {"padding_high", st::IntList{0, 2}}, {"padding_interior", st::IntList{0, 1}}}, {random_array({2, 3}, t, -9, 9), v}});
      cs.push_back({"none " + n, Params{{"padding_low", st::IntList{0}}, {"padding_high", st::IntList{0}}, {"padding_interior", st::IntList{0}}}, {random_array({3}, t, -9, 9), v}});
      cs.push_back({"empty operand " + n, Params{{"padding_low", st::IntList{2}}, {"padding_high", st::IntList{1}}, {"padding_interior", st::IntList{3}}}, {random_array({0}, t, -9, 9), v}});
    } else if (prim == "iota") {
      if (t == st::bool_) continue;
      cs.push_back({"dim 1 " + n, Params{{"dtype", t}, {"shape", st::IntList{3, 4}}, {"dimension", int64_t{1}}}, {}});
      cs.push_back({"dim 0 " + n, Params{{"dtype", t}, {"shape", st::IntList{3, 4}}, {"dimension", int64_t{0}}}, {}});
      cs.push_back({"large " + n, Params{{"dtype", t}, {"shape", st::IntList{70000}}, {"dimension", int64_t{0}}}, {}});
    } else if (prim == "stop_gradient") {
      cs.push_back({"identity " + n, {}, {x234}});
    }
  }
  return cs;
}

inline std::vector<Case> argmax_cases() {
  std::vector<Case> cs;
  for (DType t : kNumeric)
    for (DType index : kIndexInts) {
      std::string n = std::string(st::short_name(t)) + " -> " + std::string(st::short_name(index));
      Params p0{{"axes", st::IntList{0}}, {"index_dtype", index}}, p1{{"axes", st::IntList{1}}, {"index_dtype", index}};
      Array x = random_array({5, 6}, t, -3, 3);  // integer values: ties
      cs.push_back({"rows " + n, p1, {x}});
      cs.push_back({"columns " + n, p0, {x}});
      cs.push_back({"edges " + n, p0, {edges(t)}});
      if (st::is_floating(t)) {
        Array nan_first = of({1, NAN, 3, NAN, 3}, {5}, t), ties = of({-INFINITY, -INFINITY, -INFINITY}, {3}, t);
        cs.push_back({"first nan " + n, p0, {nan_first}});
        cs.push_back({"all -inf " + n, p0, {ties}});
      }
      cs.push_back({"large " + n, p1, {random_array({500, 200}, t, -100, 100)}});
    }
  return cs;
}

inline std::vector<Case> threefry_cases() {
  std::vector<Case> cs;
  Array k0 = ints({42}, {}, st::i32), k1 = ints({-7}, {}, st::i32);
  cs.push_back({"small", {}, {k0, k1, edges(st::i32), random_array({16}, st::i32, -1e9, 1e9, 3)}});
  cs.push_back({"2-d", {}, {k1, k0, random_array({3, 5}, st::i32, -1e9, 1e9, 1), random_array({3, 5}, st::i32, -1e9, 1e9, 2)}});
  cs.push_back({"large", {}, {k0, k1, random_array({kLarge}, st::i32, -1e9, 1e9, 1), random_array({kLarge}, st::i32, -1e9, 1e9, 2)}});
  return cs;
}

// rng_bit_generator: each algorithm (DEFAULT is PHILOX) and dtype, u32[4] and u64 keys, odd,
// even, empty, 0-d and large shapes, a counter about to wrap.
inline std::vector<Case> rng_bit_generator_cases() {
  std::vector<Case> cs;
  Array key = st::array(std::vector<uint32_t>{0x12345678, 0x9abcdef0, 0xfffffffd, 0xffffffff}, {4});
  Array two = st::array(std::vector<uint64_t>{7, 0xfffffffffffffffeull}, {2});
  Array three = st::array(std::vector<uint64_t>{7, 0xfffffffffffffffeull, 9}, {3});
  const st::Shape shapes[] = {{5}, {3, 3}, {2, 0}, {}, {kLarge}, {4, 3, 5}};
  for (int64_t a : {0, 1, 2})
    for (DType t : {st::u8, st::u16, st::u32, st::u64})
      for (const st::Shape& s : shapes) {
        Params p{{"shape", st::IntList(s.begin(), s.end())}, {"dtype", t}, {"algorithm", a}};
        std::string what = "algorithm " + std::to_string(a) + " " + std::string(st::short_name(t)) + st::shape_string(s);
        cs.push_back({what, p, {key}});
        if (s.size() == 1) cs.push_back({what + " u64[2] key", p, {two}});
        if (s.size() == 1 && a != 1) cs.push_back({what + " u64[3] key", p, {three}});
      }
  return cs;
}

#include "indexing_cases.h"

#include "sortscan_cases.h"
#include "window_cases.h"  // reduce_window and its derivatives (issue 13)
#include "linalg_cases.h"  // linear algebra (issue 14)
#include "collective_cases.h"  // collectives (issue 18)

// The cases of each primitive, by name. A primitive missing here fails EveryPrimitiveHasCases.
// ---- Convolution and pooling (issue 13) ----

inline Params conv_params(st::IntList strides, st::IntList lo, st::IntList hi, st::IntList ld, st::IntList rd,
                          st::IntList ls, st::IntList rs, st::IntList os, int64_t groups = 1, int64_t batch_groups = 1) {
  return Params{{"window_strides", strides}, {"padding_low", lo}, {"padding_high", hi},
                {"lhs_dilation", ld}, {"rhs_dilation", rd}, {"lhs_spec", ls}, {"rhs_spec", rs}, {"out_spec", os},
                {"feature_group_count", groups}, {"batch_group_count", batch_groups}};
}

inline std::vector<Case> conv_cases() {
  std::vector<Case> cs;
  for (DType t : {st::f32, st::f64, st::bf16, st::f16, st::c64, st::c128}) {
    std::string n(st::short_name(t));
    auto add = [&](const std::string& what, Params p, st::Shape ls, st::Shape rs, int64_t k) {
      Tolerance tol{4, static_cast<double>(2 * k + 2), 1.0, true};
      cs.push_back({what + " " + n, p, {random_array(ls, t, -1, 1, 1), random_array(rs, t, -1, 1, 2)}, tol});
    };
    add("NCHW same", conv_params({1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}),
        {2, 3, 6, 5}, {4, 3, 3, 3}, 27);
    add("NHWC/HWIO strided", conv_params({2, 2}, {1, 0}, {1, 1}, {1, 1}, {1, 1}, {0, 3, 1, 2}, {3, 2, 0, 1}, {0, 3, 1, 2}),
        {2, 7, 6, 3}, {3, 3, 3, 4}, 27);
    add("dilated, negative padding",
        conv_params({1, 2}, {0, -1}, {2, 1}, {2, 1}, {1, 2}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 3}), {1, 2, 5, 6},
        {3, 2, 2, 2}, 8);
    add("feature groups", conv_params({1}, {1}, {1}, {1}, {1}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}, 2), {2, 4, 9},
        {6, 2, 3}, 6);
    add("batch groups", conv_params({1}, {0}, {0}, {1}, {1}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}, 1, 2), {4, 3, 6},
        {4, 3, 2}, 6);
    add("3-d", conv_params({1, 1, 2}, {1, 0, 1}, {0, 1, 0}, {1, 1, 1}, {1, 1, 1}, {0, 4, 1, 2, 3}, {4, 3, 0, 1, 2},
                           {0, 4, 1, 2, 3}),
        {1, 3, 4, 5, 2}, {2, 2, 2, 2, 3}, 16);
    add("empty output", conv_params({1}, {0}, {0}, {1}, {1}, {0, 1, 2}, {0, 1, 2}, {0, 1, 2}), {1, 2, 2}, {3, 2, 4}, 8);
  }
  return cs;
}

inline std::vector<Case> rev_cases() {
  std::vector<Case> cs;
  for (DType t : kAll) {
    std::string n(st::short_name(t));
    cs.push_back({"rev 0,2 " + n, Params{{"dimensions", st::IntList{0, 2}}}, {random_array({3, 4, 5}, t, -5, 5)}});
    cs.push_back({"rev none " + n, Params{{"dimensions", st::IntList{}}}, {random_array({3, 4}, t, -5, 5)}});
    cs.push_back({"rev empty " + n, Params{{"dimensions", st::IntList{1}}}, {random_array({3, 0}, t, -5, 5)}});
  }
  return cs;
}

// jax.lax.fft: every type, 1 to 3 transformed dimensions, f32/f64, powers of two, mixed and
// prime (Bluestein) lengths, odd real lengths, an empty batch and a batch split across the pool.
inline std::vector<Case> fft_cases() {
  std::vector<Case> cs;
  auto params = [](int64_t type, st::IntList lengths) { return Params{{"fft_type", type}, {"fft_lengths", lengths}}; };
  for (DType real : {st::f32, st::f64}) {
    const DType cx = real == st::f32 ? st::c64 : st::c128;
    const std::string n(st::short_name(real));
    for (int64_t type : {0, 1}) {
      const std::string t = type ? "ifft " : "fft ";
      cs.push_back({t + "16 " + n, params(type, {16}), {random_array({3, 16}, cx, -1, 1)}});
      cs.push_back({t + "prime 37 " + n, params(type, {37}), {random_array({2, 37}, cx, -1, 1, 2)}});
      cs.push_back({t + "2-d 6x10 " + n, params(type, {6, 10}), {random_array({2, 6, 10}, cx, -1, 1, 3)}});
      cs.push_back({t + "3-d " + n, params(type, {3, 4, 5}), {random_array({3, 4, 5}, cx, -1, 1, 4)}});
      cs.push_back({t + "empty batch " + n, params(type, {8}), {random_array({0, 8}, cx, -1, 1)}});
      cs.push_back({t + "large " + n, params(type, {1000}), {random_array({130, 1000}, cx, -1, 1, 5)}});
    }
    cs.push_back({"rfft 12 " + n, params(2, {12}), {random_array({3, 12}, real, -1, 1)}});
    cs.push_back({"rfft odd 9 " + n, params(2, {9}), {random_array({3, 9}, real, -1, 1, 2)}});
    cs.push_back({"rfft 2-d " + n, params(2, {5, 8}), {random_array({2, 5, 8}, real, -1, 1, 3)}});
    cs.push_back({"irfft 12 " + n, params(3, {12}), {random_array({3, 7}, cx, -1, 1, 4)}});
    cs.push_back({"irfft odd 9 " + n, params(3, {9}), {random_array({3, 5}, cx, -1, 1, 5)}});
    cs.push_back({"irfft 3-d " + n, params(3, {2, 3, 6}), {random_array({2, 3, 4}, cx, -1, 1, 6)}});
  }
  return cs;
}

inline const std::map<std::string, std::function<std::vector<Case>()>>& case_table() {
  static const auto* table = new std::map<std::string, std::function<std::vector<Case>()>>{
      {"neg", [] { return plus(unary_cases(kNumeric, -10, 10), unary_cases(kComplex, -10, 10)); }},
      {"exp", [] { return plus(unary_cases(kFloats, -20, 20), with_tolerance(finite_only(unary_cases(kComplex, -5, 5)), {16})); }},
      {"log", [] { return plus(unary_cases(kFloats, 0, 100), with_tolerance(finite_only(unary_cases(kComplex, -10, 10)), {16})); }},
      {"log1p", [] { return plus(unary_cases(kFloats, -0.9, 10), with_tolerance(finite_only(unary_cases(kComplex, -2, 2)), {16})); }},
      {"expm1", [] { return plus(unary_cases(kFloats, -5, 5), with_tolerance(finite_only(unary_cases(kComplex, -5, 5)), {16})); }},
      {"exp2", [] { return unary_cases(kFloats, -30, 30); }},
      {"tanh", [] { return plus(with_tolerance(unary_cases(kFloats, -5, 5), {8}), with_tolerance(unary_cases(kComplex, -1, 1), {8})); }},
      {"sinh", [] { return plus(unary_cases(kFloats, -20, 20), with_tolerance(unary_cases(kComplex, -2, 2), {8})); }},
      {"cosh", [] { return plus(unary_cases(kFloats, -20, 20), with_tolerance(unary_cases(kComplex, -2, 2), {8})); }},
      {"asinh", [] { return unary_cases(kFloats, -100, 100); }},
      {"acosh", [] { return unary_cases(kFloats, 0.5, 100); }},
      {"atanh", [] { return unary_cases(kFloats, -1.1, 1.1); }},
      {"erf", [] { return unary_cases(kFloats, -4, 4); }},
      {"erfc", [] { return unary_cases(kFloats, -4, 12); }},
      {"logistic", [] { return plus(with_tolerance(unary_cases(kFloats, -20, 20), {8}), with_tolerance(finite_only(unary_cases(kComplex, -2, 2)), {16, 16, 16})); }},
      // Complex sin, cos, sinh, cosh, tan and tanh are glibc's formulas and Annex G values, edges
      // included.
      {"sin", [] { return plus(with_tolerance(unary_cases(kFloats, -10, 10), {8}), with_tolerance(unary_cases(kComplex, -2, 2), {8})); }},
      {"cos", [] { return plus(with_tolerance(unary_cases(kFloats, -10, 10), {8}), with_tolerance(unary_cases(kComplex, -2, 2), {8})); }},
      // Vectorised loops call libmvec's tan: up to 3 ULPs from libm's (the default 4 holds).
      {"tan", [] { return plus(unary_cases(kFloats, -10, 10), with_tolerance(unary_cases(kComplex, -1.5, 1.5), {8})); }},
      {"asin", [] { return unary_cases(kFloats, -1.1, 1.1); }},
      {"acos", [] { return unary_cases(kFloats, -1.1, 1.1); }},
      {"atan", [] { return unary_cases(kFloats, -100, 100); }},
      {"sqrt", [] { return plus(unary_cases(kFloats, 0, 100), with_tolerance(finite_only(unary_cases(kComplex, -10, 10)), {16})); }},
      {"rsqrt", [] { return plus(unary_cases(kFloats, 0, 100), with_tolerance(finite_only(unary_cases(kComplex, -10, 10)), {16})); }},
      {"cbrt", [] { return unary_cases(kFloats, -100, 100); }},
      {"erf_inv", [] {
         // The open interval, its ends and beyond, and the tails where each polynomial piece
         // takes over (w = -log(1 - x^2) at 5, 6.25 and 16).
         std::vector<Case> cs = unary_cases(kFloats, -1.05, 1.05);
         for (DType t : kFloats)
           cs.push_back({"pieces " + std::string(st::short_name(t)), {},
                         {of({-1, 1, 0.5, -0.5, 0.99, 0.996, 0.9978, 0.9999, -0.99999, 0.9999999, 1 - 1e-9,
                              -(1 - 1e-12), 1.5, -1.0000001, 1e-30, -1e-300},
                             {16}, t)}});
         return cs;
       }},
      {"integer_pow", [] {
         // Exponents with every kind of bit pattern, negative ones on floats only.
         std::vector<Case> cs;
         for (int64_t y : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{3}, int64_t{7}, int64_t{12}, int64_t{31},
                           int64_t{-1}, int64_t{-2}, int64_t{-5}}) {
           std::vector<DType> types(std::begin(kFloats), std::end(kFloats));
           if (y >= 0) types.insert(types.end(), std::begin(kInts), std::end(kInts));
           for (Case c : plus(unary_cases(types, -3, 3), with_tolerance(finite_only(unary_cases(kComplex, -2, 2)), {16}))) {
             c.what += " y=" + std::to_string(y);
             c.params = Params{{"y", y}};
             cs.push_back(c);
           }
         }
         return cs;
       }},
      {"real", [] { return unary_cases(kComplex, -10, 10); }},
      {"imag", [] { return unary_cases(kComplex, -10, 10); }},
      {"conj", [] { return unary_cases(kComplex, -10, 10); }},
      {"complex", [] { return binary_cases(std::vector<DType>{st::f32, st::f64}, -10, 10); }},
      {"abs", [] { return plus(unary_cases(kNumeric, -10, 10), with_tolerance(finite_only(unary_cases(kComplex, -10, 10)), {16})); }},
      {"sign", [] { return plus(unary_cases(kNumeric, -10, 10), with_tolerance(finite_only(unary_cases(kComplex, -10, 10)), {16})); }},
      {"floor", [] { return unary_cases(kFloats, -10, 10); }},
      {"ceil", [] { return unary_cases(kFloats, -10, 10); }},
      {"round", [] {
         // Both rounding methods, on the edges, random values and halfway cases.
         std::vector<Case> cs;
         for (int64_t m : {int64_t{0}, int64_t{1}}) {
           std::vector<Case> base = unary_cases(kFloats, -10, 10);
           for (DType t : kFloats)
             base.push_back({"halfway " + std::string(st::short_name(t)), {}, {of({-2.5, -1.5, -0.5, -0.0, 0.5, 1.5, 2.5, 3.5, -0.4, 0.6, 1e30}, {11}, t)}});
           for (Case c : base) {
             c.what += m == 0 ? " away from zero" : " to nearest even";
             c.params = Params{{"rounding_method", m}};
             cs.push_back(c);
           }
         }
         return cs;
       }},
      {"is_finite", [] { return unary_cases(kFloats, -10, 10); }},
      {"population_count", [] { return unary_cases(kInts, -1e9, 1e9); }},
      // The same Lanczos expression as eager; libmvec's log/sin/log1p (4 ULPs) differ from libm's,
      // and near lgamma's and digamma's zeros that is absolute, not relative, error.
      {"lgamma", [] { return with_tolerance(unary_cases(kFloats, -10, 20), {64, 64, 10}); }},
      {"digamma", [] { return with_tolerance(unary_cases(kFloats, -10, 20), {64, 64, 10}); }},
      {"bessel_i0e", [] { return with_tolerance(unary_cases(kFloats, -30, 30), {16}); }},
      {"bessel_i1e", [] { return with_tolerance(unary_cases(kFloats, -30, 30), {16}); }},
      {"clz", [] { return unary_cases(kInts, -1e9, 1e9); }},
      {"not", [] { return unary_cases(std::vector<DType>{st::i32, st::i64, st::bool_}, -1e6, 1e6); }},
      {"add", [] { return plus(binary_cases(kNumeric, -1e3, 1e3), binary_cases(kComplex, -1000.0, 1000.0)); }},
      {"sub", [] { return plus(binary_cases(kNumeric, -1e3, 1e3), binary_cases(kComplex, -1000.0, 1000.0)); }},
      {"mul", [] { return plus(binary_cases(kNumeric, -1e3, 1e3), with_tolerance(finite_only(binary_cases(kComplex, -1000.0, 1000.0)), {16})); }},
      {"div", [] { return plus(binary_cases(kNumeric, -1e3, 1e3), with_tolerance(finite_only(binary_cases(kComplex, -1000.0, 1000.0)), {16})); }},
      {"rem", [] { return binary_cases(kNumeric, -1e3, 1e3); }},
      {"max", [] { return with_tolerance(plus(binary_cases(kNumeric, -3, 3), binary_cases(kComplex, -3, 3)), {4, 0, 0, true}); }},
      {"min", [] { return with_tolerance(plus(binary_cases(kNumeric, -3, 3), binary_cases(kComplex, -3, 3)), {4, 0, 0, true}); }},
      {"pow", [] { return plus(binary_cases(kNumeric, -4, 4), with_tolerance(finite_only(binary_cases(kComplex, -2, 2)), {16})); }},
      {"atan2", [] { return binary_cases(kFloats, -10, 10); }},
      {"nextafter", [] { return with_tolerance(binary_cases(kFloats, -10, 10), {0}); }},
      // Series and continued fractions iterated per element (an scf.while compiled): the same
      // steps as eager; libmvec's log/exp outside the loops differ from libm's by a few ULPs,
      // and x^a e^-x / Γ(a) is computed as exp(a log x - x - lgamma(a)), whose terms reach ~100
      // here and cancel: an absolute error of a few ULPs of 100 in the exponent.
      {"igamma", [] { return with_tolerance(binary_cases(kFloats, 0, 30), {64, 64, 100}); }},
      {"igammac", [] { return with_tolerance(binary_cases(kFloats, 0, 30), {64, 64, 100}); }},
      {"igamma_grad_a", [] { return with_tolerance(binary_cases(kFloats, 0, 30), {64, 64, 100}); }},
      {"random_gamma_grad", [] { return with_tolerance(binary_cases(kFloats, 0, 30), {64, 64, 100}); }},
      {"zeta", [] { return with_tolerance(binary_cases(kFloats, 0.5, 12), {64, 64, 1}); }},
      {"regularized_incomplete_beta", [] {
         // a, b in (0, 20), x in [0, 1]; the edge values in all three (domain errors, 0, 1, inf).
         std::vector<Case> cs;
         for (DType t : kFloats) {
           std::string n(st::short_name(t));
           cs.push_back({"random " + n, {}, {random_array({4, 5}, t, 0, 10, 1), random_array({4, 5}, t, 0, 10, 2), random_array({4, 5}, t, 0, 1, 3)}});
           cs.push_back({"large " + n, {}, {random_array({kLarge}, t, 0, 20, 4), random_array({kLarge}, t, 0, 20, 5), random_array({kLarge}, t, 0, 1, 6)}});
           auto [x, y] = edge_pairs(t);
           cs.push_back({"edges " + n, {}, {x, y, st::abs(st::sin(x + y))}});
           cs.push_back({"edges as x " + n, {}, {st::abs(y), st::abs(x), x}});
           cs.push_back({"empty " + n, {}, {random_array({0, 3}, t, 0, 1), random_array({0, 3}, t, 0, 1), random_array({0, 3}, t, 0, 1)}});
         }
         return with_tolerance(cs, {64, 64, 100});
       }},
      {"polygamma", [] {
         // Whole orders 0..5 against random x (fractional orders are nan on both sides).
         std::vector<Case> cs = binary_cases(kFloats, -4, 8);
         for (Case& c : cs) c.inputs[0] = st::abs(st::floor(c.inputs[0] * 0.75));
         // Near the poles (x < 0) the ten terms (x+k)^-(n+1) cancel: libmvec's pow (compiled)
         // and libm's (eager) differ there by a few ULPs of terms up to ~100.
         return with_tolerance(cs, {64, 64, 100});
       }},
      {"and", [] { return binary_cases(std::vector<DType>{st::i32, st::i64, st::bool_}, -1e6, 1e6); }},
      {"or", [] { return binary_cases(std::vector<DType>{st::i32, st::i64, st::bool_}, -1e6, 1e6); }},
      {"shift_right_logical", [] { return binary_cases(kInts, -70, 70); }},
      {"shift_left", [] { return binary_cases(kInts, -70, 70); }},
      {"shift_right_arithmetic", [] { return binary_cases(kInts, -70, 70); }},
      {"xor", [] { return binary_cases(std::vector<DType>{st::i32, st::i64, st::bool_}, -1e6, 1e6); }},
      {"eq", compare_cases},
      {"ne", compare_cases},
      {"lt", compare_cases},
      {"le", compare_cases},
      {"gt", compare_cases},
      {"ge", compare_cases},
      {"select", select_cases},
      {"convert_element_type", convert_cases},
      {"bitcast_convert_type", bitcast_cases},
      {"broadcast_in_dim", [] { return shape_op_cases("broadcast_in_dim"); }},
      {"reshape", [] { return shape_op_cases("reshape"); }},
      {"transpose", [] { return shape_op_cases("transpose"); }},
      {"slice", [] { return shape_op_cases("slice"); }},
      {"concatenate", [] { return shape_op_cases("concatenate"); }},
      {"iota", [] { return shape_op_cases("iota"); }},
      {"pad", [] { return shape_op_cases("pad"); }},
      {"reduce_sum", [] { return reduce_cases(false); }},
      {"reduce_max", [] { return reduce_cases(true); }},
      {"reduce_min", [] { return reduce_cases(true); }},
      {"reduce_prod", [] { return reduce_cases(false); }},
      {"argmax", argmax_cases},
      {"dot_general", dot_cases},
      {"stop_gradient", [] { return shape_op_cases("stop_gradient"); }},
      {"optimization_barrier", [] {
         // Any number of operands of any dtypes: each comes back unchanged.
         std::vector<Case> cs;
         std::vector<DType> types(std::begin(kAll), std::end(kAll));
         types.insert(types.end(), std::begin(kComplex), std::end(kComplex));
         for (DType t : types) cs.push_back({"one " + std::string(st::short_name(t)), {}, {random_array({3, 4}, t, -5, 5)}});
         cs.push_back({"three", {}, {random_array({kLarge}, st::f32, -1, 1), random_array({2}, st::i32, -9, 9),
                                    random_array({}, st::f8_e5m2, -3, 3)}});
         cs.push_back({"empty", {}, {random_array({0, 3}, st::f64, -1, 1)}});
         return cs;
       }},
      {"threefry2x32", threefry_cases},
      {"rng_bit_generator", rng_bit_generator_cases},
      // custom_vjp_call and custom_jvp_call need sub-programs: CpuPrimitives.CustomVjpCall and
      // CustomJvpCall build them through the API.
      {"custom_vjp_call", [] { return std::vector<Case>{}; }},
      {"custom_jvp_call", [] { return std::vector<Case>{}; }},
      // custom_linear_solve too: CpuPrimitives.CustomLinearSolve.
      {"custom_linear_solve", [] { return std::vector<Case>{}; }},
      // Control flow needs sub-programs too: tests/jit/test_control_flow_jit.cpp builds cond,
      // while and scan through the API and checks them against eager mode.
      {"cond", [] { return std::vector<Case>{}; }},
      {"while", [] { return std::vector<Case>{}; }},
      {"scan", [] { return std::vector<Case>{}; }},
      // Indexing (indexing_cases.h).
      {"dynamic_slice", dynamic_slice_cases},
      {"dynamic_update_slice", dynamic_update_slice_cases},
      {"gather", gather_cases},
      {"scatter", [] { return scatter_cases(false); }},
      {"scatter_add", [] { return scatter_cases(true); }},
      {"scatter_mul", [] { return scatter_cases(true); }},
      {"scatter_min", [] { return with_tolerance(scatter_cases(true, true), {4, 0, 0, true}); }},
      {"scatter_max", [] { return with_tolerance(scatter_cases(true, true), {4, 0, 0, true}); }},
      // Convolution and pooling (issue 13).
      {"conv_general_dilated", conv_cases},
      {"rev", rev_cases},
      // Sorting, cumulative ops and their relatives (sortscan group; sortscan_cases.h).
      {"argmin", argmax_cases},
      {"reduce_and", bool_reduce_cases},
      {"reduce_or", bool_reduce_cases},
      {"clamp", clamp_cases},
      {"cumsum", [] { return cumulative_cases(false, -3, 3); }},
      {"cumprod", [] { return cumulative_cases(false, 0.9, 1.1); }},
      {"cummax", [] { return cumulative_cases(false, -9, 9, true); }},
      {"cummin", [] { return cumulative_cases(false, -9, 9, true); }},
      {"cumlogsumexp", [] { return cumulative_cases(true, -9, 9); }},
      // Window reductions and their derivatives (issue 13; window_cases.h).
      {"reduce_window_sum", [] { return reduce_window_cases(false); }},
      {"reduce_window_max", [] { return reduce_window_cases(true); }},
      {"reduce_window_min", [] { return reduce_window_cases(true); }},
      {"select_and_scatter_add", select_and_scatter_cases},
      {"select_and_gather_add", select_and_gather_cases},
      {"sort", sort_cases},  // sort (issue 13)
      // Linear algebra (issue 14; linalg_cases.h).
      {"cholesky", cholesky_cases},
      {"triangular_solve", triangular_solve_cases},
      {"lu", [] { return decomposition_cases({}, false, false); }},
      {"qr", qr_cases},
      {"eigh", [] { return decomposition_cases(Params{{"lower", true}}, true, true); }},
      {"svd", svd_cases},
      {"eig", eig_cases},
      {"schur", schur_cases},
      {"hessenberg", [] { return decomposition_cases(Params{}, true, false); }},
      {"fft", fft_cases},
      // Collectives (issue 18; collective_cases.h).
      {"psum", [] { return collective_cases("psum"); }},
      {"pmax", [] { return collective_cases("pmax"); }},
      {"pmin", [] { return collective_cases("pmin"); }},
      {"all_gather", [] { return collective_cases("all_gather"); }},
      {"psum_scatter", [] { return collective_cases("psum_scatter"); }},
      {"all_to_all", [] { return collective_cases("all_to_all"); }},
      {"ppermute", [] { return collective_cases("ppermute"); }},
      {"axis_index", [] { return collective_cases("axis_index"); }},
      // StableHLO ops JAX programs use (issue 15): exact (0 ulps) in f16's, bf16's and
      // narrower formats, rounding edges and values beyond the format's range.
      {"reduce_precision", [] {
         std::vector<Case> cs;
         for (auto [e, m] : {std::pair<int64_t, int64_t>{5, 10}, {8, 7}, {4, 3}, {2, 1}, {11, 30}}) {
           // The 8-bit floats are refused (Float8 tests): XLA's recipe assumes IEEE specials.
           for (Case c : with_tolerance(unary_cases(std::vector<DType>{st::f32, st::f64, st::bf16, st::f16}, -70000, 70000), {0})) {
             c.what += " e" + std::to_string(e) + "m" + std::to_string(m);
             c.params = Params{{"exponent_bits", e}, {"mantissa_bits", m}};
             cs.push_back(c);
           }
         }
         return cs;
       }},
      // Host callbacks: a function the host runs (x + x, or not x for bools), on every dtype and
      // shape; the compiled call reaches it through the runtime.
      {"pure_callback", [] { return callback_cases("pure_callback"); }},
      {"io_callback", [] { return callback_cases("io_callback"); }},
      {"debug_callback", [] { return callback_cases("debug_callback"); }},
  };
  return *table;
}

inline std::vector<Case> callback_cases(const std::string& kind) {
  std::vector<Case> cs;
  auto fn = std::make_shared<const DoubleEach>(kind != "debug_callback");
  auto add = [&](const std::string& what, std::vector<Array> inputs) {
    std::vector<st::AbstractValue> results;
    if (kind != "debug_callback")
      for (const Array& x : inputs) results.push_back(st::AbstractValue{x.shape(), x.dtype(), false});
    Params p{{"callback", std::make_shared<const st::HostCallback>(fn, results, kind)}};
    if (kind == "pure_callback") p.set("vmap_method", std::string("None"));
    else p.set("ordered", false);
    cs.push_back({what, p, std::move(inputs)});
  };
  std::vector<DType> types(std::begin(kAll), std::end(kAll));
  types.insert(types.end(), std::begin(kComplex), std::end(kComplex));
  for (DType t : types) {
    std::string n(st::short_name(t));
    add("random " + n, {random_array({3, 7}, t, -5, 5)});
    add("large " + n, {random_array({kLarge}, t, -5, 5, 2)});
    add("empty " + n, {random_array({3, 0}, t, -5, 5)});
    add("scalar " + n, {random_array({}, t, -5, 5)});
  }
  add("two operands", {random_array({4, 5}, st::f32, -1, 1, 3), random_array({2}, st::i32, -9, 9, 4)});
  add("no operand", {});
  return cs;
}

// The host callbacks: they run in the CPU runtime, in the process that traced them (no GPU, no
// exported program).
inline bool is_host_callback(std::string_view name) {
  return name == "pure_callback" || name == "io_callback" || name == "debug_callback";
}

// Primitives whose params hold sub-programs: the table has no one-equation cases for them.
inline bool needs_subprograms(std::string_view name) {
  return name == "custom_vjp_call" || name == "custom_jvp_call" || name == "custom_linear_solve" || name == "cond" ||
         name == "while" || name == "scan";
}



}  // namespace primitive_cases
