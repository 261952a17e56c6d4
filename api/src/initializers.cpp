// jax.nn.initializers (strata/initializers.h), step by step as jax/_src/nn/initializers.py.
#include "strata/initializers.h"

#include <cmath>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/indexing.h"
#include "strata/random.h"

namespace strata::initializers {

namespace {

using Kind = Initializer::Kind;

Initializer make(Kind kind, std::optional<DType> dtype) {
  Initializer::Config c;
  c.kind = kind;
  c.dtype = dtype;
  return Initializer(c);
}

int64_t axis_product(const Shape& shape, const std::vector<int>& axes, const char* what) {
  int64_t p = 1;
  const int rank = static_cast<int>(shape.size());
  for (int a : axes) {
    int b = a < 0 ? a + rank : a;
    if (b < 0 || b >= rank)
      throw ValueError(std::string("variance_scaling: ") + what + " axis " + std::to_string(a) + " is out of range for shape " +
                       shape_string(shape));
    p *= shape[static_cast<size_t>(b)];
  }
  return p;
}

// (fan_in, fan_out): the in and out sizes times the receptive field (every other non-batch axis).
std::pair<double, double> fans(const Shape& shape, const Initializer::Config& c) {
  if (c.in_axes == std::vector<int>{-2} && shape.size() <= 1)
    throw ValueError("variance_scaling: a weight of shape " + shape_string(shape) +
                     " has no input axis at -2; give in_axes explicitly (weights need 2 dimensions or more)");
  double in = static_cast<double>(axis_product(shape, c.in_axes, "in"));
  double out = static_cast<double>(axis_product(shape, c.out_axes, "out"));
  double batch = static_cast<double>(axis_product(shape, c.batch_axes, "batch"));
  double field = static_cast<double>(num_elements(shape)) / in / out / batch;
  return {in * field, out * field};
}

Array scalar(double v, DType t) { return astype(Array(v), t); }

// JAX's complex samplers: r(u) e^{iθ}, u uniform (real) from the first key of a split, θ = 2πu'
// from the second; `modulus` maps u to r (in the complex dtype t).
template <class R>
Array polar_sample(const Array& key, const Shape& shape, DType t, R modulus) {
  Array keys = random::split(key, 2);
  const DType rt = real_dtype(t);
  Array r = modulus(random::uniform(random::key_at(keys, 0), shape, rt));
  Array theta = scalar(2 * M_PI, t) * astype(random::uniform(random::key_at(keys, 1), shape, rt), t);
  return r * exp(complex(zeros_like(real(theta)), real(theta)));
}

// JAX's _complex_uniform: uniform on the unit-variance disk, r = sqrt(2u).
Array complex_uniform(const Array& key, const Shape& shape, DType t) {
  return polar_sample(key, shape, t, [t](const Array& u) { return astype(sqrt(2.0 * u), t); });
}

// JAX's _complex_truncated_normal: a unit-variance complex normal whose modulus is cut at `upper`
// (inverse-CDF sampling of the modulus).
Array complex_truncated_normal(const Array& key, double upper, const Shape& shape, DType t) {
  return polar_sample(key, shape, t, [t, upper](const Array& u) {
    Array v = (scalar(1.0, t) - exp(scalar(-(upper * upper), t))) * astype(u, t);
    return sqrt(-log(scalar(1.0, t) - v));
  });
}

}  // namespace

Array Initializer::operator()(const Array& key, const Shape& shape, std::optional<DType> dtype_arg) const {
  const DType t = dtype_arg ? *dtype_arg : c_.dtype.value_or(f32);
  // Complex dtypes: normal and variance_scaling draw JAX's complex samples; the others refuse
  // them, as JAX's random.uniform / truncated_normal / orthogonal do.
  const bool complex_ok = c_.kind == Kind::kNormal || c_.kind == Kind::kVarianceScaling;
  if (c_.kind != Kind::kConstant && !is_floating(t) && !(complex_ok && is_complex(t)))
    throw DTypeError("initializers: expects a " + std::string(complex_ok ? "floating-point or complex" : "real floating-point") +
                     " dtype, but got " + std::string(short_name(t)));
  switch (c_.kind) {
    case Kind::kConstant: return full(shape, c_.value, t);
    case Kind::kUniform: return random::uniform(key, shape, t) * scalar(c_.scale, t);
    case Kind::kNormal: return random::normal(key, shape, t) * scalar(c_.scale, t);
    case Kind::kTruncatedNormal:
      return random::truncated_normal(key, Array(c_.lower), Array(c_.upper), shape, t) * scalar(c_.scale, t);
    case Kind::kVarianceScaling: {
      auto [fan_in, fan_out] = fans(shape, c_);
      double denominator;
      if (c_.mode == "fan_in") denominator = fan_in;
      else if (c_.mode == "fan_out") denominator = fan_out;
      else if (c_.mode == "fan_avg") denominator = (fan_in + fan_out) / 2;
      else if (c_.mode == "fan_geo_avg") denominator = std::sqrt(fan_in * fan_out);
      else throw ValueError("variance_scaling: invalid mode '" + c_.mode + "'");
      // The variance in the dtype first, as JAX (jnp.array(scale / denominator, dtype)).
      Array variance = scalar(c_.scale / denominator, t);
      if (c_.distribution == "truncated_normal") {
        // .8796… is the stddev of a standard normal truncated to (-2, 2); .9531… that of a
        // complex standard normal whose modulus is truncated to 2.
        if (is_complex(t)) return complex_truncated_normal(key, 2.0, shape, t) * (sqrt(variance) / scalar(.95311164380491208, t));
        Array stddev = sqrt(variance) / scalar(.87962566103423978, t);
        return random::truncated_normal(key, Array(-2.0), Array(2.0), shape, t) * stddev;
      }
      if (c_.distribution == "normal") return random::normal(key, shape, t) * sqrt(variance);
      if (c_.distribution == "uniform") {
        if (is_complex(t)) return complex_uniform(key, shape, t) * sqrt(variance);
        return random::uniform(key, shape, t, -1.0, 1.0) * sqrt(scalar(3, t) * variance);
      }
      throw ValueError("variance_scaling: invalid distribution '" + c_.distribution + "'");
    }
    case Kind::kOrthogonal: {
      if (shape.size() < 2) throw ValueError("orthogonal: expects a shape of rank >= 2, but got " + shape_string(shape));
      for (int64_t d : shape)
        if (d == 0) return zeros(shape, t);
      const int rank = static_cast<int>(shape.size());
      const int col = c_.column_axis < 0 ? c_.column_axis + rank : c_.column_axis;
      if (col < 0 || col >= rank)
        throw ValueError("orthogonal: column_axis " + std::to_string(c_.column_axis) + " is out of range for " + shape_string(shape));
      const int64_t cols = shape[static_cast<size_t>(col)], rows = num_elements(shape) / cols;
      Array q = random::orthogonal(key, rows, {}, t, cols);
      Shape rest;
      for (int d = 0; d < rank; ++d)
        if (d != col) rest.push_back(shape[static_cast<size_t>(d)]);
      rest.push_back(cols);
      return scalar(c_.scale, t) * moveaxis(reshape(q, rest), -1, col);
    }
    case Kind::kDeltaOrthogonal: {
      const size_t rank = shape.size();
      if (rank < 3 || rank > 5) throw ValueError("delta_orthogonal: expects a 3-d, 4-d or 5-d shape, but got " + shape_string(shape));
      if (shape[rank - 1] < shape[rank - 2])
        throw ValueError("delta_orthogonal: the input size (fan_in) must not exceed the output size, but got " + shape_string(shape));
      Initializer::Config oc = c_;
      oc.kind = Kind::kOrthogonal;
      Array m = Initializer(oc)(key, {shape[rank - 2], shape[rank - 1]}, t);
      std::vector<Index> centre;
      for (size_t d = 0; d + 2 < rank; ++d) centre.emplace_back((shape[d] - 1) / 2);
      return At(zeros(shape, t), centre).set(m);
    }
  }
  throw ValueError("initializers: unknown kind");
}

Initializer zeros(std::optional<DType> dtype) { return constant(0, dtype); }
Initializer ones(std::optional<DType> dtype) { return constant(1, dtype); }
Initializer constant(double value, std::optional<DType> dtype) {
  Initializer::Config c;
  c.value = value;
  c.dtype = dtype;
  return Initializer(c);
}

Initializer uniform(double scale, std::optional<DType> dtype) {
  Initializer::Config c = make(Kind::kUniform, dtype).config();
  c.scale = scale;
  return Initializer(c);
}
Initializer normal(double stddev, std::optional<DType> dtype) {
  Initializer::Config c = make(Kind::kNormal, dtype).config();
  c.scale = stddev;
  return Initializer(c);
}
Initializer truncated_normal(double stddev, std::optional<DType> dtype, double lower, double upper) {
  Initializer::Config c = make(Kind::kTruncatedNormal, dtype).config();
  c.scale = stddev;
  c.lower = lower;
  c.upper = upper;
  return Initializer(c);
}

Initializer variance_scaling(double scale, const std::string& mode, const std::string& distribution, std::vector<int> in_axes,
                             std::vector<int> out_axes, std::vector<int> batch_axes, std::optional<DType> dtype) {
  if (mode != "fan_in" && mode != "fan_out" && mode != "fan_avg" && mode != "fan_geo_avg")
    throw ValueError("variance_scaling: invalid mode '" + mode + "' (fan_in, fan_out, fan_avg or fan_geo_avg)");
  if (distribution != "truncated_normal" && distribution != "normal" && distribution != "uniform")
    throw ValueError("variance_scaling: invalid distribution '" + distribution + "' (truncated_normal, normal or uniform)");
  Initializer::Config c = make(Kind::kVarianceScaling, dtype).config();
  c.scale = scale;
  c.mode = mode;
  c.distribution = distribution;
  c.in_axes = std::move(in_axes);
  c.out_axes = std::move(out_axes);
  c.batch_axes = std::move(batch_axes);
  return Initializer(c);
}

#define STRATA_VARIANCE_SCALING(name, scale, mode, distribution)                                                         \
  Initializer name(std::vector<int> in_axes, std::vector<int> out_axes, std::vector<int> batch_axes,                     \
                   std::optional<DType> dtype) {                                                                         \
    return variance_scaling(scale, mode, distribution, std::move(in_axes), std::move(out_axes), std::move(batch_axes), \
                            dtype);                                                                                      \
  }
STRATA_VARIANCE_SCALING(glorot_uniform, 1.0, "fan_avg", "uniform")
STRATA_VARIANCE_SCALING(glorot_normal, 1.0, "fan_avg", "truncated_normal")
STRATA_VARIANCE_SCALING(xavier_uniform, 1.0, "fan_avg", "uniform")
STRATA_VARIANCE_SCALING(xavier_normal, 1.0, "fan_avg", "truncated_normal")
STRATA_VARIANCE_SCALING(lecun_uniform, 1.0, "fan_in", "uniform")
STRATA_VARIANCE_SCALING(lecun_normal, 1.0, "fan_in", "truncated_normal")
STRATA_VARIANCE_SCALING(he_uniform, 2.0, "fan_in", "uniform")
STRATA_VARIANCE_SCALING(he_normal, 2.0, "fan_in", "truncated_normal")
STRATA_VARIANCE_SCALING(kaiming_uniform, 2.0, "fan_in", "uniform")
STRATA_VARIANCE_SCALING(kaiming_normal, 2.0, "fan_in", "truncated_normal")
#undef STRATA_VARIANCE_SCALING

Initializer orthogonal(double scale, int column_axis, std::optional<DType> dtype) {
  Initializer::Config c = make(Kind::kOrthogonal, dtype).config();
  c.scale = scale;
  c.column_axis = column_axis;
  return Initializer(c);
}

Initializer delta_orthogonal(double scale, int column_axis, std::optional<DType> dtype) {
  Initializer::Config c = make(Kind::kDeltaOrthogonal, dtype).config();
  c.scale = scale;
  c.column_axis = column_axis;
  return Initializer(c);
}

}  // namespace strata::initializers
