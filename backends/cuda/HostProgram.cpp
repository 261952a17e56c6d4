// The host program's byte form and text (HostProgram.h). The byte form is a sequence of
// little-endian integers and length-prefixed strings, tagged with a version.
#include "backends/cuda/HostProgram.h"

#include <cstring>

namespace strata::backends::cuda {
namespace {

constexpr uint32_t kMagic = 0x53545048;  // "HPTS"
constexpr uint32_t kVersion = 1;

struct Writer {
  std::string out;
  void u64(uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void f64(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u64(bits);
  }
  void str(std::string_view s) {
    u64(s.size());
    out.append(s);
  }
  void ref(const BufferRef& r) {
    u64(static_cast<uint64_t>(r.base));
    i64(r.index);
    i64(r.offset);
  }
};

struct Reader {
  std::string_view in;
  bool ok = true;
  uint64_t u64() {
    uint64_t v = 0;
    if (in.size() < sizeof v) {
      ok = false;
      return 0;
    }
    std::memcpy(&v, in.data(), sizeof v);
    in.remove_prefix(sizeof v);
    return v;
  }
  int64_t i64() { return static_cast<int64_t>(u64()); }
  double f64() {
    uint64_t bits = u64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  std::string str() {
    uint64_t n = u64();
    if (!ok || n > in.size()) {
      ok = false;
      return {};
    }
    std::string s(in.substr(0, n));
    in.remove_prefix(n);
    return s;
  }
  BufferRef ref() {
    BufferRef r;
    uint64_t base = u64();
    if (base > static_cast<uint64_t>(BufferRef::Base::global)) ok = false;
    r.base = static_cast<BufferRef::Base>(base);
    r.index = static_cast<int>(i64());
    r.offset = i64();
    return r;
  }
};

const char* base_name(BufferRef::Base b) {
  switch (b) {
    case BufferRef::Base::constant: return "const";
    case BufferRef::Base::input: return "in";
    case BufferRef::Base::output: return "out";
    case BufferRef::Base::scratch: return "scratch";
    case BufferRef::Base::global: return "global";
  }
  return "?";
}

std::string ref_str(const BufferRef& r) {
  std::string s = std::string(base_name(r.base)) + std::to_string(r.index);
  if (r.offset) s += "+" + std::to_string(r.offset);
  return s;
}

}  // namespace

std::string HostProgram::serialize() const {
  Writer w;
  w.u64(kMagic);
  w.u64(kVersion);
  w.u64(kernels.size());
  for (const std::string& k : kernels) w.str(k);
  w.u64(globals.size());
  for (const std::string& g : globals) w.str(g);
  w.u64(steps.size());
  for (const Step& s : steps) {
    w.u64(static_cast<uint64_t>(s.kind));
    w.i64(s.kernel);
    for (int d = 0; d < 3; ++d) w.u64(s.grid[d]);
    for (int d = 0; d < 3; ++d) w.u64(s.block[d]);
    w.u64(s.shared_bytes);
    w.u64(s.args.size());
    for (const KernelArg& a : s.args) {
      w.u64(static_cast<uint64_t>(a.kind));
      w.ref(a.buffer);
      w.i64(a.i);
      w.f64(a.f);
    }
    w.ref(s.dst);
    w.ref(s.src);
    w.i64(s.bytes);
  }
  return std::move(w.out);
}

absl::StatusOr<HostProgram> HostProgram::parse(std::string_view bytes) {
  Reader r{bytes};
  auto bad = [] { return absl::InvalidArgumentError("a malformed cuda host program"); };
  if (r.u64() != kMagic || r.u64() != kVersion || !r.ok) return bad();
  HostProgram p;
  uint64_t n = r.u64();
  for (uint64_t i = 0; i < n && r.ok; ++i) p.kernels.push_back(r.str());
  n = r.u64();
  for (uint64_t i = 0; i < n && r.ok; ++i) p.globals.push_back(r.str());
  n = r.u64();
  for (uint64_t i = 0; i < n && r.ok; ++i) {
    Step s;
    uint64_t kind = r.u64();
    if (kind > static_cast<uint64_t>(Step::Kind::gemm)) return bad();
    s.kind = static_cast<Step::Kind>(kind);
    s.kernel = static_cast<int>(r.i64());
    for (int d = 0; d < 3; ++d) s.grid[d] = static_cast<uint32_t>(r.u64());
    for (int d = 0; d < 3; ++d) s.block[d] = static_cast<uint32_t>(r.u64());
    s.shared_bytes = static_cast<uint32_t>(r.u64());
    uint64_t na = r.u64();
    for (uint64_t j = 0; j < na && r.ok; ++j) {
      KernelArg a;
      uint64_t k = r.u64();
      if (k > static_cast<uint64_t>(KernelArg::Kind::f64)) return bad();
      a.kind = static_cast<KernelArg::Kind>(k);
      a.buffer = r.ref();
      a.i = r.i64();
      a.f = r.f64();
      s.args.push_back(a);
    }
    s.dst = r.ref();
    s.src = r.ref();
    s.bytes = r.i64();
    if (s.kind == Step::Kind::launch && (s.kernel < 0 || static_cast<size_t>(s.kernel) >= p.kernels.size()))
      return bad();
    if (s.kind == Step::Kind::gemm && s.args.size() != 9 && s.args.size() != 11) return bad();
    p.steps.push_back(std::move(s));
  }
  if (!r.ok || !r.in.empty()) return bad();
  return p;
}

std::string HostProgram::str() const {
  std::string out;
  for (const Step& s : steps) {
    if (s.kind == Step::Kind::copy) {
      out += "copy " + std::to_string(s.bytes) + " bytes " + ref_str(s.src) + " -> " + ref_str(s.dst) + "\n";
      continue;
    }
    if (s.kind == Step::Kind::gemm) {
      static const char* types[] = {"f32", "bf16", "f16"};
      const std::vector<KernelArg>& a = s.args;
      out += "gemm " + std::string(types[a[0].i]) + " flags " + std::to_string(a[1].i) + " B " + std::to_string(a[2].i) +
             " M " + std::to_string(a[3].i) + " N " + std::to_string(a[4].i) + " K " + std::to_string(a[5].i) + " " +
             ref_str(a[6].buffer) + " x " + ref_str(a[7].buffer) + " -> " + ref_str(a[8].buffer);
      if (a.size() == 11 && a[9].i > 0 && gemm_epilogue_known(a[9].i))
        out += std::string(" epilogue ") + gemm_epilogue_name(a[9].i) +
               (a[10].kind == KernelArg::Kind::pointer ? " " + ref_str(a[10].buffer) : "");
      out += "\n";
      continue;
    }
    out += "launch " + kernels[static_cast<size_t>(s.kernel)] + " grid(" + std::to_string(s.grid[0]) + "," +
           std::to_string(s.grid[1]) + "," + std::to_string(s.grid[2]) + ") block(" + std::to_string(s.block[0]) +
           "," + std::to_string(s.block[1]) + "," + std::to_string(s.block[2]) + ")";
    for (const KernelArg& a : s.args) {
      out += " ";
      switch (a.kind) {
        case KernelArg::Kind::pointer: out += ref_str(a.buffer); break;
        case KernelArg::Kind::i32:
        case KernelArg::Kind::i64: out += std::to_string(a.i); break;
        case KernelArg::Kind::f32:
        case KernelArg::Kind::f64: out += std::to_string(a.f); break;
      }
    }
    out += "\n";
  }
  return out;
}

const char* gemm_epilogue_name(int64_t kind) {
  static const char* names[] = {"", "relu", "bias", "bias+relu", "gelu", "", "bias+gelu"};
  return gemm_epilogue_known(kind) ? names[kind] : "";
}

std::string pack_payload(const HostProgram& host, std::string_view cubin, std::string_view ptx) {
  Writer w;
  w.str(host.serialize());
  w.str(cubin);
  w.str(ptx);
  return std::move(w.out);
}

absl::Status unpack_payload(std::string_view payload, HostProgram& host, std::string& cubin, std::string& ptx) {
  Reader r{payload};
  std::string h = r.str();
  cubin = r.str();
  ptx = r.str();
  if (!r.ok || !r.in.empty()) return absl::InvalidArgumentError("a malformed cuda payload");
  absl::StatusOr<HostProgram> p = HostProgram::parse(h);
  if (!p.ok()) return p.status();
  host = *std::move(p);
  return absl::OkStatus();
}

}  // namespace strata::backends::cuda
