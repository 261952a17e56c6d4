// strata-lower-examples: prints `jit(f).lower(args...).as_text(STAGE)` for named example
// programs, so lit tests can FileCheck what the C++ API lowers them to.
//
//   strata-lower-examples EXAMPLE STAGE            the text of one stage
//   strata-lower-examples EXAMPLE --dump=DIR       every stage into DIR (JitOptions.dump_dir)
//   strata-lower-examples EXAMPLE --stages         the stage names
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <string>

#include "strata/strata.h"

namespace st = strata;

namespace {

st::Array layer(const st::Array& x, const st::Array& w, const st::Array& b) {
  return st::relu(st::matmul(x, w) + b);
}

st::Array softmax(const st::Array& x) {
  st::Array shifted = x - st::max(x, -1, /*keepdims=*/true);
  st::Array e = st::exp(shifted);
  return e / st::sum(e, -1, /*keepdims=*/true);
}

st::Array mlp(const st::Array& x, const st::Array& w1, const st::Array& b1, const st::Array& w2,
              const st::Array& b2) {
  st::Array h = st::tanh(st::matmul(x, w1) + b1);
  return st::logistic(st::matmul(h, w2) + b2);
}

st::Array classify(const st::Array& logits) { return st::argmax(logits, 1); }

st::Array layer_norm(const st::Array& x, const st::Array& g, const st::Array& b) {
  st::Array d = x - st::mean(x, -1, /*keepdims=*/true);
  st::Array v = st::mean(d * d, -1, /*keepdims=*/true);
  return d * st::rsqrt(v + 1e-5f) * g + b;
}

// The MLP's mean squared error, differentiated with respect to its four parameters.
st::Array mlp_loss(const st::Array& w1, const st::Array& b1, const st::Array& w2, const st::Array& b2,
                   const st::Array& x, const st::Array& y) {
  st::Array e = mlp(x, w1, b1, w2, b2) - y;
  return st::mean(e * e);
}

// A scan whose step is elementwise: the carry and the stacked ys stay in one buffer each.
std::pair<st::Array, st::Array> scan_step(const st::Array& c0, const st::Array& xs) {
  return st::scan([](const st::Array& c, const st::Array& x) { return std::make_pair(st::sin(c) * 0.5f + x, c * x); }, c0, xs);
}

// Doubles x until its sum reaches 100, then picks a branch on the result.
st::Array while_cond(const st::Array& x) {
  st::Array y = st::while_loop([](const st::Array& v) { return st::sum(v) < 100.0f; },
                               [](const st::Array& v) { return v * 2.0f; }, x);
  return st::cond(st::sum(y) > 150.0f, [](const st::Array& v) { return st::exp(v); }, [](const st::Array& v) { return -v; }, y);
}

// Conjugate-gradient steps on a 2-D Poisson grid (5-point stencil, zero boundary): the carry
// (x, r, p, |r|², k) goes around a while_loop.
struct CgState {
  st::Array x, r, p, rs, k;
};
STRATA_PYTREE(CgState, x, r, p, rs, k);

st::Array laplacian(const st::Array& u) {
  int64_t n = u.shape(0), m = u.shape(1);
  st::Array zr = st::zeros({1, m}), zc = st::zeros({n, 1});
  st::Array up = st::concatenate({st::slice(u, {1, 0}, {n, m}), zr}, 0);
  st::Array down = st::concatenate({zr, st::slice(u, {0, 0}, {n - 1, m})}, 0);
  st::Array left = st::concatenate({st::slice(u, {0, 1}, {n, m}), zc}, 1);
  st::Array right = st::concatenate({zc, st::slice(u, {0, 0}, {n, m - 1})}, 1);
  return u * 4.0f - up - down - left - right;
}

st::Array cg(const st::Array& b) {
  CgState s0{st::zeros_like(b), b, b, st::sum(b * b), st::full({}, 0, st::i32)};
  return st::while_loop([](const CgState& s) { return (s.rs > 1e-8f) & (s.k < 100); },
                        [](const CgState& s) {
                          st::Array ap = laplacian(s.p);
                          st::Array alpha = s.rs / st::sum(s.p * ap);
                          st::Array r = s.r - alpha * ap;
                          st::Array rs = st::sum(r * r);
                          return CgState{s.x + alpha * s.p, r, r + (rs / s.rs) * s.p, rs, s.k + 1};
                        },
                        s0)
      .x;
}

// Each example lowers with `options` and returns the result.
using Example = std::function<st::Lowered(const st::JitOptions&)>;

std::map<std::string, Example> examples() {
  return {
      {"scan",
       [](const st::JitOptions& o) { return st::jit(scan_step, o).lower(st::zeros({256}), st::zeros({16, 256})); }},
      {"while_cond", [](const st::JitOptions& o) { return st::jit(while_cond, o).lower(st::zeros({64})); }},
      {"cg", [](const st::JitOptions& o) { return st::jit(cg, o).lower(st::zeros({512, 512})); }},
      {"seed",
       [](const st::JitOptions& o) {
         return st::jit(layer, o).lower(st::zeros({4, 8}), st::zeros({8, 16}), st::zeros({16}));
       }},
      {"softmax",
       [](const st::JitOptions& o) { return st::jit(softmax, o).lower(st::zeros({2, 5})); }},
      {"mlp",
       [](const st::JitOptions& o) {
         return st::jit(mlp, o).lower(st::zeros({4, 8}), st::zeros({8, 32}), st::zeros({32}), st::zeros({32, 2}),
                                      st::zeros({2}));
       }},
      {"argmax",
       [](const st::JitOptions& o) { return st::jit(classify, o).lower(st::zeros({3, 10})); }},
      {"layer_norm",
       [](const st::JitOptions& o) {
         return st::jit(layer_norm, o).lower(st::zeros({4, 8}), st::zeros({8}), st::zeros({8}));
       }},
      {"mlp_grad",
       [](const st::JitOptions& o) {
         return st::jit(st::grad(mlp_loss, st::argnums<0, 1, 2, 3>), o)
             .lower(st::zeros({8, 32}), st::zeros({32}), st::zeros({32, 2}), st::zeros({2}), st::zeros({4, 8}),
                    st::zeros({4, 2}));
       }},
  };
}

}  // namespace

int main(int argc, char** argv) {
  auto all = examples();
  if (argc != 3 || !all.count(argv[1])) {
    std::cerr << "usage: strata-lower-examples EXAMPLE (STAGE | --dump=DIR | --stages); examples:";
    for (const auto& [name, _] : all) std::cerr << " " << name;
    std::cerr << "\n";
    return 2;
  }
  std::string name = argv[1], what = argv[2];
  st::JitOptions options{.name = name};
  if (what.rfind("--dump=", 0) == 0) options.dump_dir = what.substr(7);
  try {
    st::Lowered lowered = all[name](options);
    if (what == "--stages") {
      for (const std::string& s : lowered.stages()) std::cout << s << "\n";
    } else if (options.dump_dir.empty()) {
      std::cout << lowered.as_text(what);
    }
  } catch (const st::Error& e) {
    std::cerr << "strata-lower-examples: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
