// NumPy .npy files (strata/npy.h). The format: the magic "\x93NUMPY", a version, the length of
// a header that is a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)},
// then the raw data.
#include "strata/npy.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>
#include <sstream>

#include "strata/creation.h"
#include "strata/device.h"
#include "strata/errors.h"
#include "strata/ops.h"

namespace strata {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ValueError("load_npy(" + path + "): " + what);
}

// The value of `key` in the header dict: the text after "'key':" up to the matching end.
std::string field(const std::string& header, const std::string& key, const std::string& path) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) fail(path, "the header has no '" + key + "': " + header);
  size_t colon = header.find(':', k);
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (colon == std::string::npos || start == std::string::npos) fail(path, "malformed header: " + header);
  size_t end = header[start] == '(' ? header.find(')', start) + 1
               : header[start] == '\'' ? header.find('\'', start + 1) + 1
                                       : header.find_first_of(",}", start);
  if (end == std::string::npos || end == 0) fail(path, "malformed header: " + header);
  return header.substr(start, end - start);
}

struct Descr {
  DType dtype;
  bool big_endian;
};

Descr parse_descr(std::string d, const std::string& path) {
  if (d.size() < 4 || d.front() != '\'' || d.back() != '\'') fail(path, "malformed descr " + d);
  d = d.substr(1, d.size() - 2);
  char order = d[0];
  std::string code = d.substr(1);
  bool big = order == '>';
  if (code == "b1") return {DType::bool_, false};
  if (code == "i1") return {DType::i8, false};
  if (code == "i2") return {DType::i16, big};
  if (code == "i4") return {DType::i32, big};
  if (code == "i8") return {DType::i64, big};
  if (code == "u1") return {DType::u8, false};
  if (code == "u2") return {DType::u16, big};
  if (code == "u4") return {DType::u32, big};
  if (code == "u8") return {DType::u64, big};
  if (code == "f2") return {DType::f16, big};
  if (code == "f4") return {DType::f32, big};
  if (code == "f8") return {DType::f64, big};
  if (code == "V2") return {DType::bf16, big};  // ml_dtypes' bfloat16 as NumPy writes it
  if (code == "c8") return {DType::c64, big};
  if (code == "c16") return {DType::c128, big};
  if (code == "V1")
    fail(path, "its dtype '" + d + "' is one untyped byte (NumPy's spelling of an 8-bit float, whose kind it does not "
               "keep); save it as uint8 and bitcast_convert_type the loaded array to its float type (f8_e4m3fn, f8_e5m2, ...)");
  constexpr const char* kOurs = " (bool, int8-64, uint8-64, bfloat16, float16, float32, float64, complex64, complex128)";
  if (code == "f16") fail(path, "its dtype float128 ('" + d + "') is not one of strata's dtypes" + kOurs);
  fail(path, "its dtype '" + d + "' is not one of strata's dtypes" + kOurs);
}

Shape parse_shape(const std::string& s, const std::string& path) {
  if (s.size() < 2 || s.front() != '(' || s.back() != ')') fail(path, "malformed shape " + s);
  Shape shape;
  std::stringstream in(s.substr(1, s.size() - 2));
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
    if (item.empty()) continue;
    char* end = nullptr;
    long long v = std::strtoll(item.c_str(), &end, 10);
    if (*end || v < 0) fail(path, "malformed shape " + s);
    shape.push_back(v);
  }
  return shape;
}

std::string shape_tuple(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string descr_of(DType t) {
  switch (t) {
    case DType::bool_: return "|b1";
    case DType::i8: return "|i1";
    case DType::i16: return "<i2";
    case DType::i32: return "<i4";
    case DType::i64: return "<i8";
    case DType::u8: return "|u1";
    case DType::u16: return "<u2";
    case DType::u32: return "<u4";
    case DType::u64: return "<u8";
    case DType::bf16: return "<V2";
    case DType::f16: return "<f2";
    case DType::f32: return "<f4";
    case DType::f64: return "<f8";
    case DType::c64: return "<c8";
    case DType::c128: return "<c16";
    default: break;  // the byte floats and sub-byte integers
  }
  // NumPy writes ml_dtypes' arrays as raw bytes ('<V1'), which do not say which kind.
  throw DTypeError("save_npy: the .npy format has no " + std::string(long_name(t)) + " (NumPy stores ml_dtypes' " +
                   (is_float8(t) ? "8-, 6- and 4-bit floats" : "sub-byte integers") + " as untyped bytes, '<V1'); save x.astype(" +
                   (is_float8(t) ? "st::f32" : "st::i32") + ")" +
                   (is_float8(t) ? ", or the bytes bitcast_convert_type(x, st::u8)" : ""));
}

}  // namespace

Array load_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open the file");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < 10 || bytes.compare(0, 6, kMagic) != 0) fail(path, "not a .npy file (no \\x93NUMPY magic)");
  unsigned major = static_cast<unsigned char>(bytes[6]);
  size_t header_len, offset;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8;
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) fail(path, "truncated header");
    header_len = 0;
    for (int i = 0; i < 4; ++i) header_len |= static_cast<size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
    offset = 12;
  } else {
    fail(path, "unknown .npy format version " + std::to_string(major));
  }
  if (bytes.size() < offset + header_len) fail(path, "truncated header");
  std::string header = bytes.substr(offset, header_len);
  Descr descr = parse_descr(field(header, "descr", path), path);
  bool fortran = field(header, "fortran_order", path) == "True";
  Shape shape = parse_shape(field(header, "shape", path), path);
  size_t count = static_cast<size_t>(num_elements(shape));
  size_t size = itemsize(descr.dtype);
  const size_t data_at = offset + header_len;
  if (bytes.size() - data_at < count * size)
    fail(path, "has " + std::to_string(bytes.size() - data_at) + " bytes of data, but " + shape_tuple(shape) + " of " +
                   std::string(long_name(descr.dtype)) + " needs " + std::to_string(count * size));
  char* data = bytes.data() + data_at;
  // Big-endian values byte-swapped; a complex number's two parts each on their own.
  const size_t word = is_complex(descr.dtype) ? size / 2 : size;
  if (descr.big_endian && word > 1)
    for (size_t i = 0; i < count * size / word; ++i) std::reverse(data + i * word, data + (i + 1) * word);
  if (!fortran || shape.size() < 2) return from_buffer(data, shape, descr.dtype);
  // Fortran order is C order of the reversed shape; transposing it back gives the array.
  Shape reversed(shape.rbegin(), shape.rend());
  std::vector<int> perm(shape.size());
  std::iota(perm.rbegin(), perm.rend(), 0);
  return transpose(from_buffer(data, reversed, descr.dtype), perm);
}

void save_npy(const std::string& path, const Array& x) {
  if (x.is_tracer())
    throw ConcretizationError("save_npy(" + path + "): the array is a tracer (inside jit or grad) and has no data");
  Array host = x.device() == cpu() ? x : device_put(x, cpu());
  std::string header = "{'descr': '" + descr_of(host.dtype()) + "', 'fortran_order': False, 'shape': " +
                       shape_tuple(host.shape()) + ", }";
  // Padded with spaces and ended by a newline so that the data starts 64-byte aligned.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) throw ValueError("save_npy(" + path + "): cannot open the file for writing");
  out.write(kMagic, 6);
  const char version[2] = {1, 0};
  out.write(version, 2);
  const char len[2] = {static_cast<char>(header.size() & 0xff), static_cast<char>(header.size() >> 8)};
  out.write(len, 2);
  out << header;
  host.block_until_ready();
  if (host.nbytes()) out.write(static_cast<const char*>(host.data()), static_cast<std::streamsize>(host.nbytes()));
  if (!out) throw ValueError("save_npy(" + path + "): writing failed");
}

}  // namespace strata
