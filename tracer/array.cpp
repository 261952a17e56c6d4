// Array: the handle's accessors, scalar construction, copying data out, and printing.
#include "strata/array.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>
#include <new>
#include <ostream>
#include <sstream>

#include "array_impl.h"
#include "kernels/types.h"
#include "trace.h"

namespace strata {
namespace detail {

namespace {

// Large blocks are kept for reuse when freed: the C allocator returns them to the OS (munmap),
// and the next array of that size would pay a page fault per 4 KiB page — for a 64 MiB output,
// more than the kernel that fills it. Blocks are reused by exact padded size; the cache holds
// at most kCacheBytes and drops the oldest block beyond that.
class BlockCache {
 public:
  static constexpr std::size_t kMinBytes = 1 << 20;
  static constexpr std::size_t kCacheBytes = std::size_t{1} << 30;

  void* take(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    for (std::size_t i = blocks_.size(); i-- > 0;)
      if (blocks_[i].bytes == bytes) {
        void* p = blocks_[i].ptr;
        held_ -= bytes;
        blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
        return p;
      }
    return nullptr;
  }
  void give(void* p, std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mu_);
    blocks_.push_back({p, bytes});
    held_ += bytes;
    while (held_ > kCacheBytes) {
      std::free(blocks_.front().ptr);
      held_ -= blocks_.front().bytes;
      blocks_.erase(blocks_.begin());
    }
  }
  ~BlockCache() {
    for (const Block& b : blocks_) std::free(b.ptr);
  }

 private:
  struct Block {
    void* ptr;
    std::size_t bytes;
  };
  std::mutex mu_;
  std::vector<Block> blocks_;
  std::size_t held_ = 0;
};

BlockCache& block_cache() {
  static BlockCache* cache = new BlockCache();  // never destroyed: buffers may outlive statics
  return *cache;
}

std::size_t padded_size(std::size_t n) {
  // Round up to the alignment so aligned_alloc's contract holds; never allocate 0 bytes.
  std::size_t padded = ((n + 63) / 64) * 64;
  return padded ? padded : 64;
}

}  // namespace

Buffer::Buffer(std::size_t n, Device d) : nbytes(n), device(d) {
  if (device.kind != DeviceKind::cpu) {
    const DeviceMemory* m = device_memory(device.kind);
    if (!m || !m->allocate)
      throw ValueError("Buffer: no memory for device " + device.str() + " in this build");
    data = m->allocate(device.index, n);
    if (!data) {
      const char* why = m->last_error ? m->last_error() : nullptr;
      throw ValueError("Buffer: cannot allocate " + std::to_string(n) + " bytes on " + device.str() +
                       (why ? std::string(": ") + why : std::string()));
    }
    return;
  }
  std::size_t padded = padded_size(n);
  if (padded >= BlockCache::kMinBytes) data = block_cache().take(padded);
  if (!data) data = std::aligned_alloc(64, padded);
  if (!data) throw Error("cannot allocate " + std::to_string(n) + " bytes on the host (out of memory)");
}
Buffer::~Buffer() {
  if (device.kind != DeviceKind::cpu) {
    device_memory(device.kind)->deallocate(device.index, data, nbytes);
    return;
  }
  std::size_t padded = padded_size(nbytes);
  if (padded >= BlockCache::kMinBytes) block_cache().give(data, padded);
  else std::free(data);
}

namespace {
std::mutex g_memory_mu;
DeviceMemory g_memory[2];  // by DeviceKind
bool g_registered[2] = {false, false};
}  // namespace

void set_device_memory(DeviceKind kind, const DeviceMemory& memory) {
  std::lock_guard<std::mutex> lock(g_memory_mu);
  g_memory[static_cast<int>(kind)] = memory;
  g_registered[static_cast<int>(kind)] = true;
}

void check_device_memory(const DeviceMemory& memory, const char* what) {
  if (const char* why = memory.last_error ? memory.last_error() : nullptr)
    throw Error(std::string(what) + ": " + why);
}

const DeviceMemory* device_memory(DeviceKind kind) {
  std::lock_guard<std::mutex> lock(g_memory_mu);
  return g_registered[static_cast<int>(kind)] ? &g_memory[static_cast<int>(kind)] : nullptr;
}

Array make_concrete(AbstractValue aval) {
  auto impl = std::make_shared<ArrayImpl>();
  try {
    impl->buffer = std::make_shared<Buffer>(aval.nbytes());
  } catch (const Error& e) {
    throw Error("an array " + aval.str() + ": " + e.what());
  }
  impl->aval = std::move(aval);
  return Array(std::move(impl));
}

}  // namespace detail

namespace {

const detail::ArrayImpl& checked(const std::shared_ptr<detail::ArrayImpl>& impl) {
  if (!impl) throw ValueError("Array: this Array is null (default-constructed, never assigned)");
  return *impl;
}

std::string producer_description(const detail::ArrayImpl& impl) {
  const detail::TraceState& t = *impl.trace;
  int eqn = impl.var < static_cast<int>(t.producer.size()) ? t.producer[impl.var] : -1;
  if (eqn < 0 || eqn >= static_cast<int>(t.jaxpr.eqns.size()))
    return "an argument of the traced function (" + impl.aval.str() + ")";
  const Equation& e = t.jaxpr.eqns[eqn];
  return "the result of `" + std::string(e.prim->name) + "` (" + impl.aval.str() + ") at " +
         e.loc.str();
}

}  // namespace

const Shape& Array::shape() const { return checked(impl_).aval.shape; }
int64_t Array::shape(int axis) const {
  const Shape& s = shape();
  int n = static_cast<int>(s.size());
  int a = axis < 0 ? axis + n : axis;
  if (a < 0 || a >= n)
    throw ValueError("Array::shape: axis " + std::to_string(axis) + " is out of range for " +
                     checked(impl_).aval.str());
  return s[static_cast<size_t>(a)];
}
DType Array::dtype() const { return checked(impl_).aval.dtype; }
bool Array::weak_type() const { return checked(impl_).aval.weak; }
int Array::ndim() const { return checked(impl_).aval.ndim(); }
int64_t Array::size() const { return checked(impl_).aval.size(); }
std::size_t Array::nbytes() const { return checked(impl_).aval.nbytes(); }
bool Array::is_tracer() const { return impl_ && impl_->trace != nullptr; }
// A donated array keeps its buffer pointer (another thread may hold a handle), but has no data.
const void* Array::data() const {
  return impl_ && impl_->buffer && !impl_->donated() ? impl_->buffer->data : nullptr;
}

Array Array::from_scalar(double fvalue, int64_t ivalue, DType dtype, bool weak) {
  Array a = detail::make_concrete(AbstractValue{{}, dtype, weak});
  void* p = a.impl_->buffer->data;
  if (is_inexact(dtype)) kernels::convert_elements(&fvalue, DType::f64, p, dtype, 1);
  else kernels::convert_elements(&ivalue, DType::i64, p, dtype, 1);
  return a;
}

Array Array::from_complex(double re, double im, DType dtype) {
  Array a = detail::make_concrete(AbstractValue{{}, dtype, true});
  std::complex<double> v(re, im);
  kernels::convert_elements(&v, DType::c128, a.impl_->buffer->data, dtype, 1);
  return a;
}

void Array::copy_to(void* dst, DType as, const char* what) const {
  const detail::ArrayImpl& impl = checked(impl_);
  if (impl.donated()) check_usable(*this, what);
  if (impl.trace) {
    check_usable(*this, what);
    throw ConcretizationError(
        std::string(what) + "() needs a concrete value, but got a tracer: " +
        producer_description(impl) +
        ". Inside jit, grad or make_jaxpr an Array has no data. Return the value instead of "
        "reading it, use st::cond for control flow on traced values, or pass the value as a "
        "static (non-Array) argument.");
  }
  if (impl.buffer->device.kind != DeviceKind::cpu) return detail::copy_to_device(*this, cpu()).copy_to(dst, as, what);
  kernels::convert_elements(impl.buffer->data, impl.aval.dtype, dst, as, impl.aval.size());
}

void Array::check_single(const char* what) const {
  const detail::ArrayImpl& impl = checked(impl_);
  if (!impl.trace && impl.aval.size() != 1)
    throw ValueError(std::string(what) + "() needs an array with one element, but got " +
                     impl.aval.str());
}

Array::operator bool() const {
  const detail::ArrayImpl& impl = checked(impl_);
  if (impl.trace) {
    check_usable(*this, "operator bool");
    throw ConcretizationError(
        "operator bool: a C++ `if` (or &&, ||, !) needs a concrete truth value, but got a "
        "tracer: " + producer_description(impl) +
        ". Control flow on a traced value must be staged: use st::cond (or st::switch_) for an "
        "`if`, st::while_loop or st::fori_loop for a loop (strata/control_flow.h), st::where "
        "for an elementwise choice, or pass the value as a static (non-Array) argument so it "
        "is known at trace time.");
  }
  return item<bool>();
}

// ---- Printing, as numpy does: array([[1., 2.],\n       [3., 4.]], dtype=float32) ----

namespace {

std::string format_element(const detail::ArrayImpl& impl, int64_t i) {
  DType t = impl.aval.dtype;
  const char* base = static_cast<const char*>(impl.buffer->data) + i * static_cast<int64_t>(itemsize(t));
  if (t == DType::bool_) return *reinterpret_cast<const uint8_t*>(base) ? "True" : "False";
  if (is_unsigned_integer(t)) {
    uint64_t v;
    kernels::convert_elements(base, t, &v, DType::u64, 1);
    return std::to_string(v);
  }
  if (is_integer(t)) {
    int64_t v;
    kernels::convert_elements(base, t, &v, DType::i64, 1);
    return std::to_string(v);
  }
  int digits = t == DType::f64 || t == DType::c128 || t == DType::f32 || t == DType::c64 ? 8 : 4;
  auto number = [digits](double v) -> std::string {
    if (v != v) return "nan";
    if (v == 1.0 / 0.0) return "inf";
    if (v == -1.0 / 0.0) return "-inf";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    std::string s = buf;
    if (s.find_first_of(".en") == std::string::npos) s += ".";
    return s;
  };
  if (is_complex(t)) {  // numpy's 1.+2.j
    std::complex<double> z;
    kernels::convert_elements(base, t, &z, DType::c128, 1);
    std::string im = number(z.imag());
    if (im[0] != '-') im = "+" + im;
    return number(z.real()) + im + "j";
  }
  double v;
  kernels::convert_elements(base, t, &v, DType::f64, 1);
  return number(v);
}

// repr (numpy's repr: "array([1., 2.], ...)", elements separated by ", ") or str ("[1. 2.]").
void print_rec(std::ostream& os, const detail::ArrayImpl& impl, const std::vector<std::string>& elems,
               const std::vector<int64_t>& index_of, size_t width, int dim, int64_t offset,
               int indent, bool summarize, bool repr = true) {
  const Shape& shape = impl.aval.shape;
  int64_t stride = 1;
  for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) stride *= shape[d];
  int64_t n = shape[static_cast<size_t>(dim)];
  os << "[";
  bool last = dim + 1 == static_cast<int>(shape.size());
  auto item = [&](int64_t k, bool first) {
    if (!first) {
      if (last) os << (repr ? ", " : " ");
      else {
        if (repr) os << ",";
        for (size_t d = static_cast<size_t>(dim) + 1; d < shape.size(); ++d) os << "\n";
        os << std::string(static_cast<size_t>(indent + 1), ' ');
      }
    }
    if (last) {
      std::string s = elems[static_cast<size_t>(index_of[static_cast<size_t>(offset + k * stride)])];
      os << std::string(width > s.size() ? width - s.size() : 0, ' ') << s;
    } else {
      print_rec(os, impl, elems, index_of, width, dim + 1, offset + k * stride, indent + 1, summarize, repr);
    }
  };
  if (summarize && n > 6) {
    for (int64_t k = 0; k < 3; ++k) item(k, k == 0);
    if (last) os << (repr ? ", ..." : " ...");
    else os << (repr ? "," : "") << "\n" << std::string(static_cast<size_t>(indent + 1), ' ') << "...";
    for (int64_t k = n - 3; k < n; ++k) item(k, false);
  } else {
    for (int64_t k = 0; k < n; ++k) item(k, k == 0);
  }
  os << "]";
}

void print_body(std::ostream& os, const detail::ArrayImpl& impl, int indent, bool repr);

}  // namespace

std::string Array::to_string() const {
  std::ostringstream os;
  os << *this;
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Array& a) {
  if (!a.valid()) return os << "Array(null)";
  const detail::ArrayImpl& impl = *a.impl();
  if (impl.trace) return os << "Traced<" << impl.aval.str() << ">";
  if (impl.donated()) return os << "Donated<" << impl.aval.str() << ">";
  if (impl.buffer->device.kind != DeviceKind::cpu) return os << detail::copy_to_device(a, cpu());
  std::string dtype = "dtype=" + std::string(long_name(impl.aval.dtype));
  if (impl.aval.shape.empty()) return os << "array(" << format_element(impl, 0) << ", " << dtype << ")";
  if (impl.aval.size() == 0) {
    // NumPy omits the shape of an empty 1-d array.
    if (impl.aval.shape.size() == 1) return os << "array([], " << dtype << ")";
    os << "array([], shape=(";
    for (size_t i = 0; i < impl.aval.shape.size(); ++i) os << (i ? ", " : "") << impl.aval.shape[i];
    return os << "), " << dtype << ")";
  }
  os << "array(";
  print_body(os, impl, 6, true);
  return os << ", " << dtype << ")";
}

namespace detail {
std::string array_str(const Array& a) {
  if (!a.valid() || a.impl()->trace || a.impl()->donated()) return a.to_string();
  if (a.device().kind != DeviceKind::cpu) return array_str(copy_to_device(a, cpu()));
  const detail::ArrayImpl& impl = *a.impl();
  std::ostringstream os;
  if (impl.aval.shape.empty()) {
    std::string s = format_element(impl, 0);
    if (!s.empty() && s.back() == '.') s += "0";  // Python's float: 3.0
    return s;
  }
  if (impl.aval.size() == 0) return "[]";
  print_body(os, impl, 0, false);
  return os.str();
}
}  // namespace detail

namespace {
// The elements of a non-empty array with at least one dimension, bracketed, as numpy prints them.
void print_body(std::ostream& os, const detail::ArrayImpl& impl, int indent, bool repr) {
  // Format every printed element once (all of them, or the corners when summarising) to find
  // the common width.
  bool summarize = impl.aval.size() > 1000;
  std::vector<int64_t> index_of(static_cast<size_t>(impl.aval.size()), 0);
  std::vector<std::string> elems;
  size_t width = 0;
  const Shape& shape = impl.aval.shape;
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0; i < impl.aval.size(); ++i) {
    bool shown = true;
    if (summarize)
      for (size_t d = 0; d < shape.size(); ++d)
        if (shape[d] > 6 && idx[d] >= 3 && idx[d] < shape[d] - 3) shown = false;
    if (shown) {
      index_of[static_cast<size_t>(i)] = static_cast<int64_t>(elems.size());
      elems.push_back(format_element(impl, i));
      width = std::max(width, elems.back().size());
    }
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      if (++idx[static_cast<size_t>(d)] < shape[static_cast<size_t>(d)]) break;
      idx[static_cast<size_t>(d)] = 0;
    }
  }
  // Real floats align on the decimal point, as numpy's: integer parts padded on the left,
  // fractions on the right (nan and inf right-aligned in the common width). Exponent forms
  // (%g chose one per element, numpy one for all) stay right-aligned.
  DType t = impl.aval.dtype;
  if (is_floating(t) && std::none_of(elems.begin(), elems.end(), [](const std::string& e) { return e.find('e') != std::string::npos; })) {
    size_t left = 0, right = 0;
    for (const std::string& e : elems)
      if (size_t dot = e.find('.'); dot != std::string::npos) {
        left = std::max(left, dot);
        right = std::max(right, e.size() - dot - 1);
      }
    width = 0;
    for (std::string& e : elems) {
      if (size_t dot = e.find('.'); dot != std::string::npos)
        e = std::string(left - dot, ' ') + e + std::string(right - (e.size() - dot - 1), ' ');
      width = std::max(width, e.size());
    }
  }
  print_rec(os, impl, elems, index_of, width, 0, 0, indent, summarize, repr);
}
}  // namespace

}  // namespace strata
