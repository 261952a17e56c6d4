// strata/spatial.h — jax.scipy.spatial.transform: rotations in 3-d as unit quaternions (x, y, z,
// w; scalar last, as scipy) and their spherical-linear interpolation.
//
//   namespace tf = st::spatial::transform;
//   tf::Rotation r = tf::Rotation::from_euler("xyz", st::array({0.1, 0.2, 0.3}, {3}, st::f64));
//   st::Array v = r.apply(points);                 // points [..., 3]
//   tf::Rotation both = r * tf::Rotation::from_rotvec(w);
//   tf::Slerp s = tf::Slerp::init(times, keyframes);
//   st::Array q = s(t).as_quat();
//
// A Rotation holds one quaternion [4] or a batch [..., 4]; every method works on batches
// (broadcasting where two rotations meet) with JAX's formulas, so they trace, jit, vmap and
// differentiate. Rotation and Slerp are pytrees (STRATA_PYTREE), so they pass through jit and
// vmap as arguments and results.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "strata/array.h"
#include "strata/indexing.h"
#include "strata/pytree.h"

namespace strata::spatial::transform {

struct Rotation {
  Array quat;  // [..., 4], (x, y, z, w)

  // From unit quaternions (normalized here), scalar last.
  static Rotation from_quat(const Array& quat);
  // From rotation matrices [..., 3, 3] (Shepperd's method: the largest of the trace and the
  // diagonal decides the formula, as JAX and scipy).
  static Rotation from_matrix(const Array& matrix);
  // From rotation vectors [..., 3] (axis times angle, radians or degrees).
  static Rotation from_rotvec(const Array& rotvec, bool degrees = false);
  // From modified Rodrigues parameters [..., 3].
  static Rotation from_mrp(const Array& mrp);
  // From Euler angles [..., len(seq)] about the axes of seq: 1 to 3 of "xyz" (extrinsic) or
  // "XYZ" (intrinsic), no axis twice in a row; a 0-d angle for one axis.
  static Rotation from_euler(const std::string& seq, const Array& angles, bool degrees = false);
  // The identity, one quaternion of dtype `dtype`.
  static Rotation identity(DType dtype = DType::f64);
  // The rotations one after another along the batch (each [n_i, 4]).
  static Rotation concatenate(const std::vector<Rotation>& rotations);

  // The quaternions; canonical: w ≥ 0 (the first nonzero of w, x, y, z positive);
  // scalar_first: (w, x, y, z).
  Array as_quat(bool canonical = false, bool scalar_first = false) const;
  Array as_matrix() const;                        // [..., 3, 3]
  Array as_rotvec(bool degrees = false) const;    // [..., 3], angle in [0, π]
  Array as_mrp() const;                           // [..., 3]
  // Euler angles [..., 3] for a sequence of exactly 3 axes, each in (-π, π] (degrees: in
  // degrees); at gimbal lock the third angle is 0 and the first takes the whole rotation.
  Array as_euler(const std::string& seq, bool degrees = false) const;

  Rotation inv() const;
  Array magnitude() const;  // the rotation angle, [0, π]
  // The rotation nearest the (weighted) rotations of a batch [n, 4] in the chordal sense
  // (Markley's eigenvector of Σ w q qᵀ).
  Rotation mean(const std::optional<Array>& weights = std::nullopt) const;
  // The vectors [..., 3] rotated (by the inverse rotation with `inverse`).
  Array apply(const Array& vectors, bool inverse = false) const;
  // this ∘ other: other applied first; batches broadcast.
  Rotation operator*(const Rotation& other) const;
  // One rotation (or a sub-batch) of a batch; a single rotation refuses.
  Rotation operator[](const Index& i) const;
  // A single rotation (quat [4]) or a batch; the batch's length (a single one refuses).
  bool single() const;
  int64_t size() const;
};
STRATA_PYTREE(Rotation, quat);

// Spherical linear interpolation between keyframe rotations at strictly increasing times [n]
// (n ≥ 2): constant angular velocity on each interval.
struct Slerp {
  Array times, timedelta;
  Rotation rotations;  // the first n - 1 keyframes
  Array rotvecs;       // the rotation of each interval, as a rotation vector

  static Slerp init(const Array& times, const Rotation& rotations);
  // The interpolated rotations at `times` (0-d: a single rotation; 1-d: a batch); times
  // outside [t0, tn] extrapolate the first or last interval.
  Rotation operator()(const Array& times) const;
};
STRATA_PYTREE(Slerp, times, timedelta, rotations, rotvecs);

}  // namespace strata::spatial::transform
