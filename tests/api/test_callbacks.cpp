// strata/callbacks.h: pure_callback, io_callback, debug::callback and debug::print — eagerly,
// under jit (the runtime calling back, nested calls, failures rethrown), inside loops and
// branches, under vmap (each vmap_method), grad (refused, or through custom_jvp; debug
// callbacks see primal values), the persistent cache skipping them, and the format checks.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <stdexcept>

#include "autodiff/check_grads.h"
#include "strata/strata.h"
#include "test_util.h"

namespace st = strata;
using st::Array;
using st::testing::expect_exact;
using st::testing::expect_relative;
using st::testing::values;

namespace {

// A host function strata could not trace: a loop over the values in plain C++.
Array host_cumulative_max(const Array& x) {
  std::vector<double> v = x.to_vector<double>();
  for (size_t i = 1; i < v.size(); ++i) v[i] = std::max(v[i], v[i - 1]);
  return st::astype(st::array<double>(v, x.shape()), x.dtype());
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(Callbacks, PureCallbackEagerAndJit) {
  int calls = 0;
  auto f = [&](const Array& x) {
    Array y = st::pure_callback(
        [&](const Array& v) {
          ++calls;
          EXPECT_FALSE(v.is_tracer());
          return host_cumulative_max(v);
        },
        st::ShapeDtypeStruct(x), st::sin(x));
    return y * 2.0f;
  };
  Array x = st::testing::sin_sequence({7}, 1.3, 0.9);
  Array want = host_cumulative_max(st::sin(x)) * 2.0f;
  expect_relative(f(x), values(want), 1e-6);
  EXPECT_EQ(calls, 1);
  auto jf = st::jit(f);
  calls = 0;
  expect_relative(jf(x), values(want), 1e-6);  // tracing does not call it; the run does
  EXPECT_EQ(calls, 1);
  expect_relative(jf(x * 0.5f), values(host_cumulative_max(st::sin(x * 0.5f)) * 2.0f), 1e-6);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(jf.lower(x).jaxpr().primitive_names()[1], "pure_callback");
  EXPECT_NE(jf.lower(x).as_text("strata").find("strata.host_callback \"pure_callback\""), std::string::npos);
}

// Several results of several dtypes, complex and boolean values, 0-d and empty arrays, and
// operands that are temporaries of the program (their buffers reused right after the call).
TEST(Callbacks, ManyResultsAndDtypes) {
  auto host = [](const Array& a, const Array& z, const Array& flags, const Array& empty) {
    return std::vector<Array>{st::sum(a) + 1.0, st::conj(z), st::logical_not(flags), empty * 2.0f,
                              st::astype(st::sum(st::astype(flags, st::i32)), st::i64)};
  };
  auto f = [&](const Array& a, const Array& z, const Array& flags) {
    Array t = st::exp(a) - 1.0;  // a temporary
    std::vector<Array> r = st::pure_callback(
        host,
        {st::ShapeDtypeStruct({}, st::f64), st::ShapeDtypeStruct(z), st::ShapeDtypeStruct(flags),
         st::ShapeDtypeStruct({0, 3}, st::f32), st::ShapeDtypeStruct({}, st::i64)},
        t, z * 2.0, flags, st::zeros({0, 3}));
    return std::make_tuple(r[0] + st::sum(t), r[1], r[2], r[3], r[4]);
  };
  Array a = st::testing::sin_sequence({3, 4}, 0.7, 0.1);
  a = st::astype(a, st::f64);
  Array z = st::complex(st::arange(0.0, 3.0, 1.0, st::f32), st::arange(1.0, 4.0, 1.0, st::f32));
  Array flags = st::array<bool>({true, false, true}, {3});
  auto [e0, e1, e2, e3, e4] = f(a, z, flags);
  auto [j0, j1, j2, j3, j4] = st::jit(f)(a, z, flags);
  expect_relative(j0, values(e0), 1e-15);
  expect_relative(e0, {2.0 * st::sum(st::exp(a) - 1.0).item<double>() + 1.0}, 1e-14);
  expect_exact(j1, {3}, st::c64, values(e1));
  EXPECT_EQ(st::real(j1).to_vector<float>(), (std::vector<float>{0, 2, 4}));
  EXPECT_EQ(st::imag(j1).to_vector<float>(), (std::vector<float>{-2, -4, -6}));
  expect_exact(j2, {3}, st::bool_, {0, 1, 0});
  expect_exact(j3, {0, 3}, st::f32, {});
  expect_exact(j4, {}, st::i64, {2});
}

// An unused pure callback is dead code under jit (JAX: it may not be called at all); an unused
// io_callback runs anyway, as often as the program says, in program order.
TEST(Callbacks, PureIsRemovedWhenUnusedIoIsNot) {
  int pure_calls = 0;
  std::vector<double> io_seen;
  auto f = [&](const Array& x) {
    st::pure_callback([&](const Array& v) { ++pure_calls; return v; }, st::ShapeDtypeStruct(x), x);
    st::io_callback([&](const Array& v) { io_seen.push_back(v.item<double>()); return v; },
                    st::ShapeDtypeStruct(x), x + 1.0f);
    st::io_callback([&](const Array& v) { io_seen.push_back(v.item<double>()); return v; },
                    st::ShapeDtypeStruct(x), x + 2.0f);
    return x * 3.0f;
  };
  auto jf = st::jit(f);
  expect_exact(jf(Array(1.0f)), {}, st::f32, {3});
  EXPECT_EQ(pure_calls, 0);
  EXPECT_EQ(io_seen, (std::vector<double>{2, 3}));
}

// A callback that throws: the jitted call rethrows the callback's own exception; the next call
// runs normally (no failure left behind). Results of the wrong type are ValueErrors naming both.
TEST(Callbacks, FailuresAreRethrown) {
  struct Boom : std::runtime_error {
    using std::runtime_error::runtime_error;
  };
  bool fail = true;
  auto jf = st::jit([&](const Array& x) {
    Array y = st::io_callback(
        [&](const Array& v) {
          if (fail) throw Boom("sensor offline");
          return v + 1.0f;
        },
        st::ShapeDtypeStruct(x), x);
    st::debug::callback([](const Array&) { ADD_FAILURE() << "a callback after a failed one ran"; }, y);
    return y;
  });
  EXPECT_THROW(jf(Array(1.0f)), Boom);
  fail = false;
  auto jg = st::jit([&](const Array& x) {
    return st::io_callback([&](const Array& v) { return v + 1.0f; }, st::ShapeDtypeStruct(x), x);
  });
  expect_exact(jg(Array(1.0f)), {}, st::f32, {2});

  auto wrong = [](const Array& x) {
    return st::pure_callback([](const Array& v) { return st::concatenate({v, v}); }, st::ShapeDtypeStruct(x), x);
  };
  Array x = st::ones({3});
  std::string eager = message_of([&] { wrong(x); });
  EXPECT_NE(eager.find("pure_callback: the callback returned f32[6] as result 0, but f32[3] was declared"),
            std::string::npos)
      << eager;
  std::string jitted = message_of([&] { st::jit(wrong)(x); });
  EXPECT_NE(jitted.find("f32[6] as result 0, but f32[3] was declared"), std::string::npos) << jitted;
  std::string count = message_of([&] {
    st::pure_callback_list([](const std::vector<Array>& v) { return v; },
                           {st::ShapeDtypeStruct({3}, st::f32), st::ShapeDtypeStruct({3}, st::f32)}, {x},
                           {.name = "my_solver"});
  });
  EXPECT_NE(count.find("my_solver: the callback returned 1 array, but 2 were declared"), std::string::npos) << count;
  std::string dtype = message_of([&] {
    st::jit([](const Array& v) {
      return st::pure_callback([](const Array& a) { return st::astype(a, st::f64); }, st::ShapeDtypeStruct(v), v);
    })(x);
  });
  EXPECT_NE(dtype.find("f64[3] as result 0, but f32[3] was declared"), std::string::npos) << dtype;
  std::string negative = message_of([&] { st::pure_callback([](const Array& a) { return a; }, {{-1}, st::f32}, x); });
  EXPECT_NE(negative.find("negative dimension"), std::string::npos) << negative;
  std::string option = message_of([&] {
    st::io_callback([](const Array& a) { return a; }, st::ShapeDtypeStruct(x),
                    {.vmap_method = st::VmapMethod::sequential}, x);
  });
  EXPECT_NE(option.find("vmap_method is an option of pure_callback"), std::string::npos) << option;
}

// A callback may call strata itself, jitted functions included: the nested run has its own
// buffers, and the outer run's survive it.
TEST(Callbacks, NestedJitInsideACallback) {
  auto inner = st::jit([](const Array& v) { return st::tanh(v) * 3.0 + st::exp(-v); });
  auto outer = st::jit([&](const Array& x) {
    Array t = st::cos(x) * 2.0;  // lives across the callback
    Array y = st::pure_callback([&](const Array& v) { return inner(v) + inner(v * 2.0); }, st::ShapeDtypeStruct(x), t);
    return y + t;
  });
  Array x = st::astype(st::testing::sin_sequence({5, 6}, 0.4, 0.3), st::f64);
  Array t = st::cos(x) * 2.0;
  Array want = st::tanh(t) * 3.0 + st::exp(-t) + st::tanh(t * 2.0) * 3.0 + st::exp(-(t * 2.0)) + t;
  expect_relative(outer(x), values(want), 1e-14, 1e-14);
  // And recursion through the same jitted function, two levels deep.
  int depth = 0;
  std::function<Array(const Array&)> rec;
  auto jr = st::jit([&](const Array& v) {
    return st::pure_callback(
        [&](const Array& a) {
          if (++depth < 3) return rec(a + 1.0);
          return a;
        },
        st::ShapeDtypeStruct(v), v);
  });
  rec = [&](const Array& a) { return jr(a); };
  expect_exact(jr(Array(0.0)), {}, st::f64, {2});
}

// Inside a loop the callback runs once per step, with that step's values; inside a branch only
// when the branch is taken.
TEST(Callbacks, InsideLoopsAndBranches) {
  std::vector<double> seen;
  auto body = [&](const Array& i, const Array& c) {
    st::debug::callback([&](const Array& a, const Array& b) { seen.push_back(a.item<double>() * 100 + b.item<double>()); },
                        i, c);
    Array twice = st::pure_callback([](const Array& v) { return v * 2.0; }, st::ShapeDtypeStruct(c), c);
    return twice + st::astype(i, st::f64);
  };
  auto f = [&](const Array& c0) { return st::fori_loop(0, 4, body, c0); };
  Array c0(1.0);
  Array eager = f(c0);
  std::vector<double> eager_seen = seen;
  seen.clear();
  expect_exact(st::jit(f)(c0), {}, st::f64, values(eager));
  EXPECT_EQ(seen, eager_seen);
  EXPECT_EQ(eager_seen, (std::vector<double>{1, 102, 205, 312}));
  // Many steps: the callback's table lives in an alloca scope, not one stack slot per step.
  int steps = 0;
  auto many = st::jit([&](const Array& c) {
    return st::fori_loop(0, 200000, [&](const Array&, const Array& v) {
      return st::io_callback([&](const Array& a) { ++steps; return a + 1.0; }, st::ShapeDtypeStruct(v), v);
    }, c);
  });
  expect_exact(many(Array(0.0)), {}, st::f64, {200000});
  EXPECT_EQ(steps, 200000);

  std::vector<int> branches;
  auto g = st::jit([&](const Array& p, const Array& x) {
    return st::cond(
        p, [&](const Array& v) { st::debug::callback([&](const Array&) { branches.push_back(1); }, v); return v + 1.0f; },
        [&](const Array& v) { st::debug::callback([&](const Array&) { branches.push_back(0); }, v); return v - 1.0f; },
        x);
  });
  g(Array(true), Array(1.0f));
  g(Array(false), Array(1.0f));
  g(Array(false), Array(1.0f));
  EXPECT_EQ(branches, (std::vector<int>{1, 0, 0}));
}

// vmap: refused without a vmap_method; sequential calls once per example (eager and jit, a
// scan), expand_dims and broadcast_all once with the batch in front.
TEST(Callbacks, VmapMethods) {
  Array xs = st::reshape(st::arange(0.0, 12.0, 1.0, st::f32), {4, 3});
  Array y = st::array<float>({10, 20, 30}, {3});
  std::vector<st::Shape> shapes;
  auto host = [&](const Array& a, const Array& b) {
    shapes.push_back(a.shape());
    shapes.push_back(b.shape());
    return a * 2.0f + b;  // broadcasts: works per example and on a batch
  };
  auto per = [&](st::VmapMethod m) {
    return [&, m](const Array& x, const Array& b) {
      st::Shape out = x.shape();
      return st::pure_callback(host, st::ShapeDtypeStruct(out, st::f32), {.vmap_method = m}, x, b);
    };
  };
  Array want = xs * 2.0f + y;
  std::string refused = message_of([&] { st::vmap(per(st::VmapMethod::unspecified), {0, std::nullopt})(xs, y); });
  EXPECT_NE(refused.find("vmap of a pure_callback needs a vmap_method"), std::string::npos) << refused;

  for (bool jitted : {false, true}) {
    SCOPED_TRACE(jitted ? "jit" : "eager");
    auto run = [&](st::VmapMethod m) {
      shapes.clear();
      auto v = st::vmap(per(m), {0, std::nullopt});
      return jitted ? st::jit(v)(xs, y) : v(xs, y);
    };
    expect_exact(run(st::VmapMethod::sequential), {4, 3}, st::f32, values(want));
    EXPECT_EQ(shapes.size(), 8u);
    EXPECT_EQ(shapes[0], (st::Shape{3}));
    expect_exact(run(st::VmapMethod::sequential_unrolled), {4, 3}, st::f32, values(want));
    EXPECT_EQ(shapes.size(), 8u);
    expect_exact(run(st::VmapMethod::expand_dims), {4, 3}, st::f32, values(want));
    ASSERT_EQ(shapes.size(), 2u);
    EXPECT_EQ(shapes[0], (st::Shape{4, 3}));
    EXPECT_EQ(shapes[1], (st::Shape{1, 3}));
    expect_exact(run(st::VmapMethod::broadcast_all), {4, 3}, st::f32, values(want));
    ASSERT_EQ(shapes.size(), 2u);
    EXPECT_EQ(shapes[1], (st::Shape{4, 3}));
  }
  // A batch dimension not in front; nested vmap.
  Array xt = st::transpose(xs);
  expect_exact(st::vmap(per(st::VmapMethod::expand_dims), {1, std::nullopt})(xt, y), {4, 3}, st::f32, values(want));
  Array xss = st::stack({xs, xs * 2.0f});
  expect_exact(st::vmap(st::vmap(per(st::VmapMethod::sequential), {0, std::nullopt}), {0, std::nullopt})(xss, y),
               {2, 4, 3}, st::f32, values(st::stack({want, xs * 4.0f + y})));

  // io_callback loops; an ordered one is refused; debug callbacks run once per example.
  std::vector<double> order;
  auto io = [&](bool ordered) {
    return [&, ordered](const Array& x) {
      return st::io_callback([&](const Array& v) { order.push_back(v.item<double>()); return v * v; },
                             st::ShapeDtypeStruct(x), {.ordered = ordered}, x);
    };
  };
  Array v = st::array<float>({1, 2, 3}, {3});
  expect_exact(st::jit(st::vmap(io(false)))(v), {3}, st::f32, {1, 4, 9});
  EXPECT_EQ(order, (std::vector<double>{1, 2, 3}));
  std::string ordered = message_of([&] { st::vmap(io(true))(v); });
  EXPECT_NE(ordered.find("cannot vmap an ordered io_callback"), std::string::npos) << ordered;
  order.clear();
  st::jit(st::vmap([&](const Array& x, const Array& s) {
    st::debug::callback([&](const Array& a, const Array& b) { order.push_back(a.item<double>() + b.item<double>()); }, x, s);
    return x;
  }, {0, std::nullopt}))(v, Array(100.0f));
  EXPECT_EQ(order, (std::vector<double>{101, 102, 103}));
}

// grad: a pure or io callback has no derivative (an error naming custom_jvp); through
// custom_jvp it differentiates; a debug callback sees primal values and leaves the gradient alone.
TEST(Callbacks, Derivatives) {
  auto host_sin = [](const Array& v) { return st::sin(v); };
  auto opaque = [&](const Array& x) { return st::pure_callback(host_sin, st::ShapeDtypeStruct(x), x); };
  Array x = st::astype(st::testing::sin_sequence({4}, 0.6, 0.4), st::f64);
  std::string refused = message_of([&] { st::grad([&](const Array& v) { return st::sum(opaque(v)); })(x); });
  EXPECT_NE(refused.find("pure callbacks have no derivative"), std::string::npos) << refused;
  EXPECT_NE(refused.find("st::custom_jvp"), std::string::npos) << refused;
  std::string io = message_of([&] {
    st::jit(st::grad([&](const Array& v) {
      return st::sum(st::io_callback(host_sin, st::ShapeDtypeStruct(v), v));
    }))(x);
  });
  EXPECT_NE(io.find("IO callbacks have no derivative"), std::string::npos) << io;

  auto with_rule = st::custom_jvp(opaque, [&](const Array& v, const Array& t) {
    return std::make_pair(opaque(v), t * st::pure_callback([](const Array& a) { return st::cos(a); },
                                                           st::ShapeDtypeStruct(v), v));
  });
  auto loss = [&](const Array& v) { return st::sum(with_rule(v) * v); };
  expect_relative(st::grad(loss)(x), values(st::sin(x) + x * st::cos(x)), 1e-15);
  expect_relative(st::jit(st::grad(loss))(x), values(st::sin(x) + x * st::cos(x)), 1e-15);
  st::testing::check_grads([&](const std::vector<Array>& v) { return loss(v[0]); }, {x}, "custom_jvp of a callback", 1e-6);

  std::vector<std::vector<double>> seen;
  auto traced = [&](const Array& v) {
    Array y = st::exp(v);
    st::debug::callback([&](const Array& a) { seen.push_back(a.to_vector<double>()); }, y);
    return st::sum(y * y);
  };
  Array g = st::jit(st::grad(traced))(x);
  expect_relative(g, values(2.0 * st::exp(2.0 * x)), 1e-14);
  ASSERT_EQ(seen.size(), 1u);
  expect_relative(st::array<double>(seen[0], {4}), values(st::exp(x)), 1e-15);
  seen.clear();
  st::grad(traced)(x);
  EXPECT_EQ(seen.size(), 1u);
}

// Reverse mode through control flow recomputes the forward pass (the residuals of a scan, a
// branch's backward program): the debug callbacks in it run once per step, as in JAX, not again.
TEST(Callbacks, DebugCallbacksRunOnceUnderGradOfControlFlow) {
  int steps = 0, taken = 0;
  auto scanned = [&](const Array& x) {
    auto [c, ys] = st::scan(
        [&](const Array& c, const Array& xi) {
          st::debug::callback([&](const Array&) { ++steps; }, c);
          return std::make_pair(st::sin(c) * xi, c);
        },
        x, st::full({5}, 1.5, st::f64));
    return c + st::sum(ys);
  };
  auto branch = [&](const Array& x) {
    return st::cond(
        x > 0.0,
        [&](const Array& v) {
          st::debug::callback([&](const Array&) { ++taken; }, v);
          return st::sin(v) * v;
        },
        [](const Array& v) { return v; }, x);
  };
  Array x(0.5);
  for (bool jitted : {false, true}) {
    steps = taken = 0;
    Array g = jitted ? st::jit(st::grad(scanned))(x) : st::grad(scanned)(x);
    EXPECT_EQ(steps, 5) << (jitted ? "jit" : "eager");
    Array h = jitted ? st::jit(st::grad(branch))(x) : st::grad(branch)(x);
    EXPECT_EQ(taken, 1) << (jitted ? "jit" : "eager");
    expect_relative(h, {std::cos(0.5) * 0.5 + std::sin(0.5)}, 1e-15);
    double eps = 1e-6;
    double fd = (scanned(Array(0.5 + eps)).item<double>() - scanned(Array(0.5 - eps)).item<double>()) / (2 * eps);
    expect_relative(g, {fd}, 1e-7);
  }
}

TEST(Callbacks, DebugPrintFormats) {
  Array v = st::array<float>({1.5, -2, 3}, {3});
  Array m = st::array<int32_t>({1, 2, 3, 4}, {2, 2});
  std::vector<Array> args{Array(0.25), v, m, Array(true)};
  EXPECT_EQ(st::debug::format("x={} v={} m={} b={}", args), "x=0.25 v=[ 1.5 -2.   3. ] m=[[1 2]\n [3 4]] b=True");
  EXPECT_EQ(st::debug::format("{1} {0:.3f} {0:+8.2e} {2!r}", std::vector<Array>{args[0], args[1], args[3]}),
            "[ 1.5 -2.   3. ] 0.250 +2.50e-01 array(True, dtype=bool)");
  EXPECT_EQ(st::debug::format("{{literal}} {0}", std::vector<Array>{args[2]}), "{literal} [[1 2]\n [3 4]]");
  std::vector<Array> ints{Array(int64_t{255}), Array(1.0f)};
  EXPECT_EQ(st::debug::format("{:x} {:05d} {}", std::vector<Array>{ints[0], ints[0], ints[1]}), "ff 00255 1.0");
  EXPECT_EQ(st::debug::format("no fields:", args), "no fields: 0.25 [ 1.5 -2.   3. ] [[1 2]\n [3 4]] True");

  auto error = [&](std::string fmt, std::vector<Array> a) { return message_of([&] { st::debug::format(fmt, a); }); };
  EXPECT_NE(error("{} {}", {Array(1.0f)}).find("field 1 with 1 argument"), std::string::npos);
  EXPECT_NE(error("{}", {Array(1.0f), Array(2.0f)}).find("argument 1 unused"), std::string::npos);
  EXPECT_NE(error("{x}", {Array(1.0f)}).find("named field {x}"), std::string::npos);
  EXPECT_NE(error("{:.2f}", {v}).find("specs apply to 0-d values"), std::string::npos);
  EXPECT_NE(error("{:d}", {Array(1.5f)}).find("the integer format 'd' for a float32 value"), std::string::npos);
  EXPECT_NE(error("{", {}).find("a single '{'"), std::string::npos);
  EXPECT_NE(error("{} {0}", {Array(1.0f)}).find("manual field numbering after automatic"), std::string::npos);
  EXPECT_NE(error("{:>8}", {Array(1.0f)}).find("the format spec '>8'"), std::string::npos);
  // Checked when print is called, before anything runs (under jit: when tracing).
  std::string traced = message_of([] {
    st::jit([](const Array& x) {
      st::debug::print("{} {}", x);
      return x;
    })(Array(1.0f));
  });
  EXPECT_NE(traced.find("debug::print: field 1 with 1 argument"), std::string::npos) << traced;
}

TEST(Callbacks, DebugPrintWritesWhenTheCodeRuns) {
  auto f = [](const Array& x) {
    Array y = st::exp(x);
    st::debug::print("step {}: y = {:.4f}", Array(int32_t{3}), st::sum(y));
    st::debug::print("done");
    return y;
  };
  Array x = st::array<float>({0, 1}, {2});
  ::testing::internal::CaptureStdout();
  f(x);
  auto jf = st::jit(f);
  jf(x);
  jf(x * 0.0f);
  std::string out = ::testing::internal::GetCapturedStdout();
  EXPECT_EQ(out, "step 3: y = 3.7183\ndone\nstep 3: y = 3.7183\ndone\nstep 3: y = 2.0000\ndone\n");
  EXPECT_NE(jf.lower(x).jaxpr().to_string().find("debug_callback[callback=<debug.print #"), std::string::npos)
      << jf.lower(x).jaxpr();
}

// debug::check: a run-time assertion, eagerly and in compiled code (the jitted call throws the
// formatted message), per example under vmap, and silent when it holds.
TEST(Callbacks, DebugCheck) {
  auto f = [](const Array& x) {
    st::debug::check(st::all(x > 0.0f), "x must be positive, got {} (sum {:.1f})", x, st::sum(x));
    return st::log(x);
  };
  Array good = st::array<float>({1, 2}, {2}), bad = st::array<float>({1, -2}, {2});
  EXPECT_NO_THROW(f(good));
  std::string eager = message_of([&] { f(bad); });
  EXPECT_EQ(eager, "debug::check failed: x must be positive, got [ 1. -2.] (sum -1.0)");
  auto jf = st::jit(f);
  expect_relative(jf(good), {0, std::log(2.0)}, 1e-7, 1e-7);
  std::string jitted = message_of([&] { jf(bad); });
  EXPECT_EQ(jitted, eager);
  expect_relative(jf(good * 2.0f), {std::log(2.0), std::log(4.0)}, 1e-7);  // the next call runs normally
  // Per example under vmap: the second row fails.
  Array rows = st::array<float>({1, 2, 3, -4}, {2, 2});
  std::string batched = message_of([&] { st::jit(st::vmap(f))(rows); });
  EXPECT_EQ(batched, "debug::check failed: x must be positive, got [ 3. -4.] (sum -1.0)");
  // Under grad it checks the primal values.
  EXPECT_NO_THROW(st::grad([&](const Array& v) { return st::sum(f(v)); })(good));
  std::string type = message_of([&] { st::debug::check(Array(1.0f), "no"); });
  EXPECT_NE(type.find("expects a boolean predicate, but got f32[]"), std::string::npos) << type;
}

// A program holding a callback is not written to the persistent cache (its id means nothing in
// another process); it still compiles and runs with a cache directory set.
TEST(Callbacks, PersistentCacheSkipsThem) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("strata_cb_cache_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  st::JitOptions o;
  o.cache_dir = dir.string();
  int calls = 0;
  auto jf = st::jit([&](const Array& x) {
    return st::pure_callback([&](const Array& v) { ++calls; return v + 1.0f; }, st::ShapeDtypeStruct(x), x) * 2.0f;
  }, o);
  expect_exact(jf(Array(1.0f)), {}, st::f32, {4});
  EXPECT_EQ(calls, 1);
  size_t files = 0;
  if (std::filesystem::exists(dir))
    for ([[maybe_unused]] auto& e : std::filesystem::recursive_directory_iterator(dir))
      if (e.is_regular_file()) ++files;
  EXPECT_EQ(files, 0u);
  // The same program without the callback is cached.
  auto plain = st::jit([](const Array& x) { return (x + 1.0f) * 2.0f; }, o);
  expect_exact(plain(Array(1.0f)), {}, st::f32, {4});
  files = 0;
  for ([[maybe_unused]] auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) ++files;
  EXPECT_GT(files, 0u);
  std::filesystem::remove_all(dir);
}

}  // namespace
