// Edge inputs for the jax.numpy/jax.nn/jax.scipy composites added with the set operations:
// empty arrays, 0-d arrays, and each dtype family. Each call either returns or throws a
// strata::Error (a clear message) — never another exception, never a crash.
#include <gtest/gtest.h>

#include <functional>

#include "strata/strata.h"

namespace st = strata;
using st::Array;

namespace {

struct Call {
  const char* name;
  std::function<void(const Array&)> f;
};

std::vector<Call> calls() {
  namespace sp = strata::special;
  return {
      {"unique", [](const Array& x) { (void)st::unique(x); }},
      {"unique sized", [](const Array& x) { (void)st::unique(x, {.return_index = true, .return_inverse = true, .return_counts = true, .size = 3, .fill_value = Array(0)}); }},
      {"unique axis 0", [](const Array& x) { (void)st::unique(x, {.return_inverse = true, .axis = 0}); }},
      {"isin", [](const Array& x) { (void)st::isin(x, x); }},
      {"union1d", [](const Array& x) { (void)st::union1d(x, x); }},
      {"intersect1d", [](const Array& x) { (void)st::intersect1d_indices(x, x, false, 2, Array(0)); }},
      {"setdiff1d", [](const Array& x) { (void)st::setdiff1d(x, x); }},
      {"setxor1d", [](const Array& x) { (void)st::setxor1d(x, x, false, 2); }},
      {"partition", [](const Array& x) { (void)st::partition(x, 0); }},
      {"argpartition", [](const Array& x) { (void)st::argpartition(x, -1); }},
      {"lexsort", [](const Array& x) { (void)st::lexsort({x, x}); }},
      {"sort_complex", [](const Array& x) { (void)st::sort_complex(x); }},
      {"trapezoid", [](const Array& x) { (void)st::trapezoid(x); }},
      {"gradient", [](const Array& x) { (void)st::gradient(x); }},
      {"ediff1d", [](const Array& x) { (void)st::ediff1d(x); }},
      {"nancumsum", [](const Array& x) { (void)st::nancumsum(x); }},
      {"nanargmax", [](const Array& x) { (void)st::nanargmax(x); }},
      {"polymul", [](const Array& x) { (void)st::polymul(x, x); }},
      {"polyadd", [](const Array& x) { (void)st::polyadd(x, x); }},
      {"polydiv", [](const Array& x) { (void)st::polydiv(x, x); }},
      {"roots", [](const Array& x) { (void)st::roots(x); }},
      {"array_split", [](const Array& x) { (void)st::array_split(x, 2); }},
      {"unstack", [](const Array& x) { (void)st::unstack(x); }},
      {"diagflat", [](const Array& x) { (void)st::diagflat(x); }},
      {"fill_diagonal", [](const Array& x) { (void)st::fill_diagonal(x, Array(1)); }},
      {"trim_zeros", [](const Array& x) { (void)st::trim_zeros(x); }},
      {"choose", [](const Array& x) { (void)st::choose(x, {x, x}, "clip"); }},
      {"compress", [](const Array& x) { (void)st::compress(st::ravel(x), x); }},
      {"extract", [](const Array& x) { (void)st::extract(x, x, 1); }},
      {"put_along_axis", [](const Array& x) { (void)st::put_along_axis(x, st::zeros_like(x), Array(1), std::nullopt); }},
      {"packbits", [](const Array& x) { (void)st::packbits(x); }},
      {"unpackbits", [](const Array& x) { (void)st::unpackbits(x); }},
      {"spacing", [](const Array& x) { (void)st::spacing(x); }},
      {"delete_", [](const Array& x) { (void)st::delete_(x, {0}); }},
      {"insert", [](const Array& x) { (void)st::insert(x, 0, Array(1)); }},
      {"block", [](const Array& x) { (void)st::block({{x, x}}); }},
      {"histogramdd", [](const Array& x) { (void)st::histogramdd(x, std::vector<int64_t>{2, 2}); }},
      {"apply_along_axis", [](const Array& x) { (void)st::apply_along_axis([](const Array& r) { return st::sum(r); }, 0, x); }},
      {"relu6", [](const Array& x) { (void)st::relu6(x); }},
      {"log1mexp", [](const Array& x) { (void)st::log1mexp(x); }},
      {"logmeanexp", [](const Array& x) { (void)st::logmeanexp(x); }},
      {"standardize", [](const Array& x) { (void)st::standardize(x); }},
      {"expn", [](const Array& x) { (void)sp::expn(Array(2.0), x); }},
      {"expi", [](const Array& x) { (void)sp::expi(x); }},
      {"spence", [](const Array& x) { (void)sp::spence(x); }},
      {"erfcx", [](const Array& x) { (void)sp::erfcx(x); }},
      {"dawsn", [](const Array& x) { (void)sp::dawsn(x); }},
      {"wofz", [](const Array& x) { (void)sp::wofz(x); }},
      {"sici", [](const Array& x) { (void)sp::sici(x); }},
      {"fresnel", [](const Array& x) { (void)sp::fresnel(x); }},
      {"owens_t", [](const Array& x) { (void)sp::owens_t(x, x); }},
      {"bessel_jn", [](const Array& x) { (void)sp::bessel_jn(x, 1); }},
      {"hyp1f1", [](const Array& x) { (void)sp::hyp1f1(x, x + 1.0f, x); }},
      {"binomial", [](const Array& x) { (void)st::random::binomial(st::random::key(0), x, Array(0.5f)); }},
      {"multinomial", [](const Array& x) { (void)st::random::multinomial(st::random::key(0), Array(3.0f), x); }},
      {"initializer", [](const Array& x) { (void)st::initializers::glorot_uniform()(st::random::key(0), x.shape()); }},
  };
}

std::vector<std::pair<const char*, Array>> inputs() {
  return {
      {"f32[0]", st::zeros({0}, st::f32)},
      {"f32[]", st::Array(1.5f)},
      {"f32[0,3]", st::zeros({0, 3}, st::f32)},
      {"f32[2,3]", st::reshape(st::arange(0, 6, 1, st::f32), {2, 3})},
      {"i32[4]", st::array(std::vector<int32_t>{3, -1, 3, 0}, {4})},
      {"u8[5]", st::array(std::vector<uint8_t>{1, 0, 255, 7, 7}, {5})},
      {"bool[3]", st::array(std::vector<bool>{true, false, true}, {3})},
      {"bf16[3]", st::astype(st::array(std::vector<float>{0.5f, -2.0f, 0.5f}, {3}), st::bf16)},
      {"c64[2]", st::complex(st::ones({2}), st::zeros({2}))},
      {"f64 nan", st::array(std::vector<double>{NAN, 1.0, INFINITY}, {3}, st::f64)},
  };
}

TEST(JnpEdgeInputs, EveryCallReturnsOrThrowsAStrataError) {
  for (const auto& [what, x] : inputs()) {
    for (const Call& c : calls()) {
      SCOPED_TRACE(std::string(c.name) + " on " + what);
      try {
        c.f(x);
      } catch (const st::Error&) {
        // a clear, typed error is fine
      } catch (const std::exception& e) {
        ADD_FAILURE() << "threw a non-strata exception: " << e.what();
      }
    }
  }
}

}  // namespace
