// strata/initializers.h — jax.nn.initializers: parameter initialisers, each a callable
// init(key, shape, dtype) that draws with strata's random functions (JAX's streams: the same
// values as JAX's initialisers for the same key, to the few ulps normal draws differ by).
//
//   auto init = st::initializers::glorot_uniform();
//   st::Array w = init(st::random::key(0), {784, 256});            // f32 by default
//   st::Array k = st::initializers::he_normal()(key, {3, 3, 16, 32});  // HWIO: fans 16·9, 32·9
//
// variance_scaling is the general form: variance = scale / n, n the fan in, out, their mean or
// geometric mean, from the weight shape — in_axes (default: the second to last) and out_axes
// (the last) give the fans, batch_axes are left out, every other axis is receptive field. It
// draws from a normal truncated to ±2 (rescaled to that variance), a normal, or a uniform.
// Complex dtypes (normal and the variance_scaling family, as JAX): a complex normal, JAX's
// uniform on the unit-variance disk, a complex normal whose modulus is truncated at 2; the
// other initializers refuse them, as JAX's.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "strata/array.h"
#include "strata/ops.h"

namespace strata::initializers {

class Initializer {
 public:
  enum class Kind { kConstant, kUniform, kNormal, kTruncatedNormal, kVarianceScaling, kOrthogonal, kDeltaOrthogonal };
  // The parameters of the factory that made it (see below); `dtype` is the factory's default.
  struct Config {
    Kind kind = Kind::kConstant;
    double value = 0, scale = 1, lower = -2, upper = 2;
    std::string mode, distribution;
    std::vector<int> in_axes{-2}, out_axes{-1}, batch_axes;
    int column_axis = -1;
    std::optional<DType> dtype;
  };
  explicit Initializer(Config c) : c_(std::move(c)) {}
  // Draws an array of `shape` (dtype: the argument, else the factory's, else f32).
  Array operator()(const Array& key, const Shape& shape, std::optional<DType> dtype = std::nullopt) const;
  const Config& config() const { return c_; }

 private:
  Config c_;
};

// Constants (the key is unused).
Initializer zeros(std::optional<DType> dtype = std::nullopt);
Initializer ones(std::optional<DType> dtype = std::nullopt);
Initializer constant(double value, std::optional<DType> dtype = std::nullopt);
// uniform in [0, scale); normal with stddev; a standard normal truncated to (lower, upper), times stddev.
Initializer uniform(double scale = 1e-2, std::optional<DType> dtype = std::nullopt);
Initializer normal(double stddev = 1e-2, std::optional<DType> dtype = std::nullopt);
Initializer truncated_normal(double stddev = 1e-2, std::optional<DType> dtype = std::nullopt, double lower = -2.0,
                             double upper = 2.0);
// mode: "fan_in", "fan_out", "fan_avg" or "fan_geo_avg"; distribution: "truncated_normal",
// "normal" or "uniform".
Initializer variance_scaling(double scale, const std::string& mode, const std::string& distribution,
                             std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1},
                             std::vector<int> batch_axes = {}, std::optional<DType> dtype = std::nullopt);
// Glorot (Xavier): scale 1, fan_avg; LeCun: scale 1, fan_in; He (Kaiming): scale 2, fan_in;
// *_normal draw from the truncated normal, as JAX.
Initializer glorot_uniform(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                           std::optional<DType> dtype = std::nullopt);
Initializer glorot_normal(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                          std::optional<DType> dtype = std::nullopt);
Initializer xavier_uniform(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                           std::optional<DType> dtype = std::nullopt);
Initializer xavier_normal(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                          std::optional<DType> dtype = std::nullopt);
Initializer lecun_uniform(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                          std::optional<DType> dtype = std::nullopt);
Initializer lecun_normal(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                         std::optional<DType> dtype = std::nullopt);
Initializer he_uniform(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                       std::optional<DType> dtype = std::nullopt);
Initializer he_normal(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                      std::optional<DType> dtype = std::nullopt);
Initializer kaiming_uniform(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                            std::optional<DType> dtype = std::nullopt);
Initializer kaiming_normal(std::vector<int> in_axes = {-2}, std::vector<int> out_axes = {-1}, std::vector<int> batch_axes = {},
                           std::optional<DType> dtype = std::nullopt);
// scale × a random matrix with orthonormal columns: the shape flattened to
// [size / shape[column_axis], shape[column_axis]] (random::orthogonal), then reshaped back.
Initializer orthogonal(double scale = 1.0, int column_axis = -1, std::optional<DType> dtype = std::nullopt);
// For 3-d to 5-d convolution kernels [spatial..., in, out] (in <= out): zeros but an orthogonal
// [in, out] matrix at the spatial centre.
Initializer delta_orthogonal(double scale = 1.0, int column_axis = -1, std::optional<DType> dtype = std::nullopt);

}  // namespace strata::initializers
