// strata/spatial.h: jax.scipy.spatial.transform's Rotation and Slerp, JAX's formulas written
// over batches of quaternions [..., 4] (JAX vectorizes each over one quaternion); the Euler
// axes are static, so their index arithmetic is done here, not in the program.
#include "strata/spatial.h"

#include <cmath>
#include <numbers>

#include "op_helpers.h"
#include "strata/composites.h"
#include "strata/creation.h"
#include "strata/linalg.h"
#include "strata/searching.h"
#include "strata/selection.h"

namespace strata::spatial::transform {
namespace {

constexpr double kPi = std::numbers::pi;

Array c_like(double v, const Array& x) { return astype(Array(v), x.dtype()); }

// Component i of the last axis.
Array part(const Array& q, int i) {
  const AbstractValue& av = api::aval(q, "Rotation");
  Shape s = av.shape;
  const int last = static_cast<int>(s.size()) - 1;
  Array r = api::slice_along(q, last, i, i + 1, 1, SourceLocation::current());
  s.pop_back();
  return reshape(r, s);
}
Array vec3(const Array& q) { return api::slice_along(q, q.ndim() - 1, 0, 3, 1, SourceLocation::current()); }
Array norm_last(const Array& v) { return sqrt(sum(v * v, -1)); }
Array last_dim(const Array& scalar) { return expand_dims(scalar, -1); }

void expect_last(const char* op, const Array& x, int64_t n, const char* what) {
  const AbstractValue& av = api::aval(x, op);
  if (av.ndim() < 1 || av.shape.back() != n)
    throw ShapeError(std::string(op) + ": expects " + what + " [..., " + std::to_string(n) + "], but got " + av.str());
}

Array normalize(const Array& q) { return q / last_dim(norm_last(q)); }

// p ∘ q (q first), batches broadcast.
Array compose(const Array& p, const Array& q) {
  Array c = cross(vec3(p), vec3(q));
  Array pw = part(p, 3), qw = part(q, 3);
  std::vector<Array> out;
  for (int i = 0; i < 3; ++i) out.push_back(pw * part(q, i) + qw * part(p, i) + part(c, i));
  out.push_back(pw * qw - part(p, 0) * part(q, 0) - part(p, 1) * part(q, 1) - part(p, 2) * part(q, 2));
  return stack(out, -1);
}

// The rotation by `angle` about basis axis `axis`.
Array elementary(int axis, const Array& angle) {
  Array z = zeros_like(angle);
  std::vector<Array> q{z, z, z, cos(angle / 2.0)};
  q[static_cast<size_t>(axis)] = sin(angle / 2.0);
  return stack(q, -1);
}

int basis_index(char axis) { return axis == 'x' ? 0 : axis == 'y' ? 1 : 2; }

// seq's axes and whether they are intrinsic (upper case), after JAX's checks.
std::vector<int> parse_seq(const char* op, const std::string& seq, bool& intrinsic) {
  bool upper = !seq.empty(), lower = !seq.empty();
  for (char c : seq) {
    upper = upper && (c == 'X' || c == 'Y' || c == 'Z');
    lower = lower && (c == 'x' || c == 'y' || c == 'z');
  }
  if (!upper && !lower)
    throw ValueError(std::string(op) + ": expects axes from \"xyz\" (extrinsic) or \"XYZ\" (intrinsic), but got \"" + seq +
                     "\"");
  for (size_t i = 0; i + 1 < seq.size(); ++i)
    if (seq[i] == seq[i + 1])
      throw ValueError(std::string(op) + ": expects consecutive axes to differ, but got \"" + seq + "\"");
  intrinsic = upper;
  std::vector<int> axes;
  for (char c : seq) axes.push_back(basis_index(static_cast<char>(std::tolower(c))));
  return axes;
}

}  // namespace

Rotation Rotation::from_quat(const Array& quat) {
  expect_last("Rotation.from_quat", quat, 4, "quaternions");
  return {normalize(api::to_inexact(quat, "Rotation.from_quat", SourceLocation::current()))};
}

Rotation Rotation::from_matrix(const Array& matrix_in) {
  const char* op = "Rotation.from_matrix";
  const AbstractValue& av = api::aval(matrix_in, op);
  if (av.ndim() < 2 || av.shape.back() != 3 || av.shape[av.shape.size() - 2] != 3)
    throw ShapeError(std::string(op) + ": expects matrices [..., 3, 3], but got " + av.str());
  Array m = api::to_inexact(matrix_in, op, SourceLocation::current());
  // m[..., i, j]: column j (the last axis), then row i.
  auto e = [&](int i, int j) { return part(part(m, j), i); };
  Array trace = e(0, 0) + e(1, 1) + e(2, 2);
  Array decision = stack({e(0, 0), e(1, 1), e(2, 2), trace}, -1);
  Array choice = argmax(decision, -1);
  // Each of the four formulas, then the one of the largest of the diagonal and the trace.
  Array quat = stack({e(2, 1) - e(1, 2), e(0, 2) - e(2, 0), e(1, 0) - e(0, 1), 1.0 + trace}, -1);
  for (int i = 2; i >= 0; --i) {
    const int j = (i + 1) % 3, k = (j + 1) % 3;
    std::vector<Array> q(4);
    q[static_cast<size_t>(i)] = 1.0 - trace + 2.0 * e(i, i);
    q[static_cast<size_t>(j)] = e(j, i) + e(i, j);
    q[static_cast<size_t>(k)] = e(k, i) + e(i, k);
    q[3] = e(k, j) - e(j, k);
    quat = where(last_dim(choice == i), stack(q, -1), quat);
  }
  return {normalize(quat)};
}

Rotation Rotation::from_rotvec(const Array& rotvec_in, bool degrees) {
  expect_last("Rotation.from_rotvec", rotvec_in, 3, "rotation vectors");
  Array rotvec = api::to_inexact(rotvec_in, "Rotation.from_rotvec", SourceLocation::current());
  if (degrees) rotvec = deg2rad(rotvec);
  Array angle = norm_last(rotvec), angle2 = angle * angle;
  Array small = 0.5 - angle2 / 48.0 + angle2 * angle2 / 3840.0;
  Array tiny = angle <= 1e-3;
  Array safe = where(tiny, ones_like(angle), angle);  // no 0/0 in the branch not taken
  Array scale = where(tiny, small, sin(safe / 2.0) / safe);
  return {strata::concatenate({last_dim(scale) * rotvec, last_dim(cos(angle / 2.0))}, -1)};
}

Rotation Rotation::from_mrp(const Array& mrp_in) {
  expect_last("Rotation.from_mrp", mrp_in, 3, "modified Rodrigues parameters");
  Array mrp = api::to_inexact(mrp_in, "Rotation.from_mrp", SourceLocation::current());
  Array s = last_dim(sum(mrp * mrp, -1) + 1.0);
  return {strata::concatenate({2.0 * mrp, 2.0 - s}, -1) / s};
}

Rotation Rotation::from_euler(const std::string& seq, const Array& angles_in, bool degrees) {
  const char* op = "Rotation.from_euler";
  if (seq.empty() || seq.size() > 3)
    throw ValueError(std::string(op) + ": expects 1 to 3 axes, but got \"" + seq + "\"");
  bool intrinsic = false;
  std::vector<int> axes = parse_seq(op, seq, intrinsic);
  Array angles = api::to_inexact(atleast_1d(angles_in), op, SourceLocation::current());
  expect_last(op, angles, static_cast<int64_t>(seq.size()), ("angles, one per axis of \"" + seq + "\",").c_str());
  if (degrees) angles = deg2rad(angles);
  Array result = elementary(axes[0], part(angles, 0));
  for (size_t i = 1; i < axes.size(); ++i) {
    Array q = elementary(axes[i], part(angles, static_cast<int>(i)));
    result = intrinsic ? compose(result, q) : compose(q, result);
  }
  return {result};
}

Rotation Rotation::identity(DType dtype) { return {astype(array(std::vector<double>{0, 0, 0, 1}, {4}, DType::f64), dtype)}; }

Rotation Rotation::concatenate(const std::vector<Rotation>& rotations) {
  std::vector<Array> q;
  for (const Rotation& r : rotations) {
    if (r.single()) throw ValueError("Rotation.concatenate: expects batches of rotations [n, 4], but got a single one");
    q.push_back(r.quat);
  }
  return {strata::concatenate(q, 0)};
}

Array Rotation::as_quat(bool canonical, bool scalar_first) const {
  Array q = quat;
  if (canonical) {
    Array neg = part(q, 3) < 0, zero = part(q, 3) == 0;
    Array flip = neg;
    Array zeros_so_far = zero;
    for (int i = 0; i < 3; ++i) {
      flip = logical_or(flip, logical_and(zeros_so_far, part(q, i) < 0));
      zeros_so_far = logical_and(zeros_so_far, part(q, i) == 0);
    }
    q = where(last_dim(flip), -q, q);
  }
  if (scalar_first) q = roll(q, 1, -1);
  return q;
}

Array Rotation::as_matrix() const {
  Array x = part(quat, 0), y = part(quat, 1), z = part(quat, 2), w = part(quat, 3);
  Array x2 = x * x, y2 = y * y, z2 = z * z, w2 = w * w;
  Array xy = x * y, zw = z * w, xz = x * z, yw = y * w, yz = y * z, xw = x * w;
  return stack({stack({x2 - y2 - z2 + w2, 2.0 * (xy - zw), 2.0 * (xz + yw)}, -1),
                stack({2.0 * (xy + zw), -x2 + y2 - z2 + w2, 2.0 * (yz - xw)}, -1),
                stack({2.0 * (xz - yw), 2.0 * (yz + xw), -x2 - y2 + z2 + w2}, -1)},
               -2);
}

Array Rotation::as_rotvec(bool degrees) const {
  Array q = where(last_dim(part(quat, 3) < 0), -quat, quat);  // w ≥ 0: angle in [0, π]
  Array angle = 2.0 * atan2(norm_last(vec3(q)), part(q, 3)), angle2 = angle * angle;
  Array small = 2.0 + angle2 / 12.0 + 7.0 * angle2 * angle2 / 2880.0;
  Array tiny = angle <= 1e-3;
  Array safe = where(tiny, ones_like(angle), angle);
  Array scale = where(tiny, small, safe / sin(safe / 2.0));
  if (degrees) scale = rad2deg(scale);
  return last_dim(scale) * vec3(q);
}

Array Rotation::as_mrp() const {
  Array w = part(quat, 3);
  Array sign = where(w < 0, c_like(-1, w), c_like(1, w));
  return last_dim(sign) * vec3(quat) / last_dim(1.0 + sign * w);
}

Array Rotation::as_euler(const std::string& seq, bool degrees) const {
  const char* op = "Rotation.as_euler";
  if (seq.size() != 3) throw ValueError(std::string(op) + ": expects 3 axes, but got \"" + seq + "\"");
  bool intrinsic = false;
  std::vector<int> axes = parse_seq(op, seq, intrinsic);
  const bool extrinsic = !intrinsic;
  // JAX's _compute_euler_from_quat (Bernardes & Viollet 2022) with its static index arithmetic.
  const int first = extrinsic ? 0 : 2, third = extrinsic ? 2 : 0;
  if (!extrinsic) std::swap(axes[0], axes[2]);
  const int i = axes[0], j = axes[1];
  const bool symmetric = i == axes[2];
  const int k = symmetric ? 3 - i - j : axes[2];
  const double sign = static_cast<double>((i - j) * (j - k) * (k - i) / 2);
  Array w = part(quat, 3), qi = part(quat, i), qj = part(quat, j), qk = part(quat, k);
  Array a = symmetric ? w : w - qj, b = symmetric ? qi : qi + qk * sign;
  Array c = symmetric ? qj : qj + w, d = symmetric ? qk * sign : qk * sign - qi;
  Array middle = 2.0 * atan2(hypot(c, d), hypot(a, b));
  const double eps = 1e-7;
  Array degenerate_sum = abs(middle) <= eps;          // case 1
  Array degenerate_diff = abs(middle - kPi) <= eps;   // case 2
  Array regular = logical_not(logical_or(degenerate_sum, degenerate_diff));
  Array half_sum = atan2(b, a), half_diff = atan2(d, c);
  std::vector<Array> angles(3, zeros_like(middle));
  angles[1] = middle;
  angles[0] = where(degenerate_sum, 2.0 * half_sum, 2.0 * half_diff * (extrinsic ? -1.0 : 1.0));
  angles[first] = where(regular, half_sum - half_diff, angles[first]);
  angles[third] = where(regular, half_sum + half_diff, angles[third]);
  if (!symmetric) {
    angles[third] = angles[third] * sign;
    angles[1] = angles[1] - kPi / 2;
  }
  Array r = stack(angles, -1);
  r = remainder(r + kPi, c_like(2 * kPi, r)) - kPi;
  return degrees ? rad2deg(r) : r;
}

Rotation Rotation::inv() const {
  return {quat * astype(array(std::vector<double>{-1, -1, -1, 1}, {4}, DType::f64), quat.dtype())};
}

Array Rotation::magnitude() const { return 2.0 * atan2(norm_last(vec3(quat)), abs(part(quat, 3))); }

Rotation Rotation::mean(const std::optional<Array>& weights) const {
  const char* op = "Rotation.mean";
  if (quat.ndim() != 2) throw ValueError(std::string(op) + ": expects a batch of rotations [n, 4], but got " + api::aval(quat, op).str());
  const int64_t n = quat.shape()[0];
  Array w = weights ? astype(*weights, quat.dtype()) : ones({n}, quat.dtype());
  if (w.ndim() != 1 || w.shape()[0] != n)
    throw ValueError(std::string(op) + ": expects one weight per rotation [" + std::to_string(n) + "], but got " +
                     api::aval(w, op).str());
  Array k = matmul(reshape(w, {1, n}) * transpose(quat), quat);
  Array v = linalg::eigh(k).eigenvectors;
  return {index(v, {Slice(), 3})};
}

Array Rotation::apply(const Array& vectors, bool inverse) const {
  expect_last("Rotation.apply", vectors, 3, "vectors");
  Array m = as_matrix();
  if (inverse) m = matrix_transpose(m);
  return squeeze(matmul(m, expand_dims(astype(vectors, promote_types(vectors.dtype(), quat.dtype())), -1)), {-1});
}

Rotation Rotation::operator*(const Rotation& other) const { return from_quat(compose(quat, other.quat)); }

Rotation Rotation::operator[](const Index& i) const {
  if (single()) throw ValueError("Rotation: a single rotation is not subscriptable");
  return {strata::index(quat, {i})};
}

bool Rotation::single() const { return quat.ndim() == 1; }

int64_t Rotation::size() const {
  if (single()) throw ValueError("Rotation: a single rotation has no size");
  return quat.shape()[0];
}

Slerp Slerp::init(const Array& times_in, const Rotation& rotations) {
  const char* op = "Slerp";
  if (rotations.single() || rotations.size() < 2)
    throw ValueError(std::string(op) + ": expects a batch of at least 2 rotations, but got " + api::aval(rotations.quat, op).str());
  Array times = astype(times_in, rotations.quat.dtype());
  const int64_t n = rotations.size();
  if (times.ndim() != 1 || times.shape()[0] != n)
    throw ValueError(std::string(op) + ": expects one time per rotation [" + std::to_string(n) + "], but got " +
                     api::aval(times_in, op).str());
  Rotation head{index(rotations.quat, {Slice(0, n - 1)})}, tail{index(rotations.quat, {Slice(1, n)})};
  return {times, diff(times), head, (head.inv() * tail).as_rotvec()};
}

Rotation Slerp::operator()(const Array& times_in) const {
  Array t = astype(times_in, times.dtype());
  if (t.ndim() > 1) throw ValueError("Slerp: expects 0-d or 1-d times, but got " + api::aval(times_in, "Slerp").str());
  const bool single_time = t.ndim() == 0;
  t = atleast_1d(t);
  // The interval of each time, clamped to the first and last (which extrapolate).
  const int64_t intervals = timedelta.shape()[0];
  Array ind = clip(searchsorted(times, t) - 1, Array(int32_t{0}), Array(static_cast<int32_t>(intervals - 1)));
  Array alpha = (t - take(times, ind)) / take(timedelta, ind);
  Rotation r = Rotation{take(rotations.quat, ind)} *
               Rotation::from_rotvec(take(rotvecs, ind) * expand_dims(alpha, -1));
  return single_time ? r[0] : r;
}

}  // namespace strata::spatial::transform
