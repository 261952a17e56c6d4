// The persistent cache (DiskCache.h). An entry file is a sequence of records
// `name <length>\n<bytes>\n`, starting with the format record; anything unexpected makes the
// entry a miss.
#include "backends/DiskCache.h"

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/SHA256.h"

namespace strata::backends {
namespace {

constexpr const char* kFormat = "strata-cache-2";

void put(std::string& out, const std::string& name, std::string_view value) {
  out += name + " " + std::to_string(value.size()) + "\n";
  out.append(value.data(), value.size());
  out += "\n";
}

// Reads the next record; false at the end or on malformed input.
bool get(std::string_view& in, std::string& name, std::string_view& value) {
  size_t space = in.find(' '), eol = in.find('\n');
  if (space == std::string_view::npos || eol == std::string_view::npos || space > eol) return false;
  name.assign(in.substr(0, space));
  size_t length = 0;
  for (char c : in.substr(space + 1, eol - space - 1)) {
    if (c < '0' || c > '9') return false;
    length = length * 10 + static_cast<size_t>(c - '0');
  }
  if (in.size() < eol + 1 + length + 1 || in[eol + 1 + length] != '\n') return false;
  value = in.substr(eol + 1, length);
  in.remove_prefix(eol + 1 + length + 1);
  return true;
}

template <class T>
bool parse_number(std::string_view s, T& out) {
  std::istringstream is{std::string(s)};
  is >> out;
  return !is.fail();
}

std::string number(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

}  // namespace

std::string cache_key(std::string_view program, std::string_view codegen_key, std::string_view target,
                      std::string_view build_id) {
  std::string text = std::string(kFormat) + "\ncompiler " + std::string(build_id) + "\nllvm " LLVM_VERSION_STRING "\n" +
                     std::string(codegen_key) + "\n" + std::string(target) + "\n";
  text.append(program.data(), program.size());
  std::array<uint8_t, 32> hash = llvm::SHA256::hash(
      llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (uint8_t b : hash) {
    hex += digits[b >> 4];
    hex += digits[b & 15];
  }
  return hex;
}

bool cache_load(const std::string& dir, const std::string& key, CacheEntry& out) {
  std::ifstream file(std::filesystem::path(dir) / (key + ".strata"), std::ios::binary);
  if (!file) return false;
  std::string data((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::string_view in(data);
  std::string name;
  std::string_view value;
  if (!get(in, name, value) || name != "format" || value != kFormat) return false;
  CacheEntry e;
  bool has_payload = false;
  while (!in.empty()) {
    if (!get(in, name, value)) return false;
    bool ok = true;
    if (name == "payload") { e.payload.assign(value); has_payload = true; }
    else if (name.rfind("stage:", 0) == 0) e.stages.emplace_back(name.substr(6), std::string(value));
    else if (name == "argument_bytes") ok = parse_number(value, e.memory.argument_bytes);
    else if (name == "output_bytes") ok = parse_number(value, e.memory.output_bytes);
    else if (name == "scratch_bytes") ok = parse_number(value, e.memory.scratch_bytes);
    else if (name == "temporaries_bytes") ok = parse_number(value, e.memory.temporaries_bytes);
    else if (name == "flops") ok = parse_number(value, e.cost.flops);
    else if (name == "bytes_accessed") ok = parse_number(value, e.cost.bytes_accessed);
    else if (name == "output_alias") {
      int64_t a = 0;
      ok = parse_number(value, a);
      e.output_aliases.push_back(static_cast<int>(a));
    }
    else return false;
    if (!ok) return false;
  }
  if (!has_payload || e.payload.empty()) return false;
  out = std::move(e);
  return true;
}

void cache_store(const std::string& dir, const std::string& key, const CacheEntry& entry) {
  std::string data;
  put(data, "format", kFormat);
  put(data, "argument_bytes", std::to_string(entry.memory.argument_bytes));
  put(data, "output_bytes", std::to_string(entry.memory.output_bytes));
  put(data, "scratch_bytes", std::to_string(entry.memory.scratch_bytes));
  put(data, "temporaries_bytes", std::to_string(entry.memory.temporaries_bytes));
  put(data, "flops", number(entry.cost.flops));
  put(data, "bytes_accessed", number(entry.cost.bytes_accessed));
  for (int a : entry.output_aliases) put(data, "output_alias", std::to_string(a));
  for (const auto& [stage, text] : entry.stages) put(data, "stage:" + stage, text);
  put(data, "payload", entry.payload);
  std::error_code ec;
  std::filesystem::path folder(dir);
  std::filesystem::create_directories(folder, ec);
  static std::atomic<int> counter{0};
  std::filesystem::path temp = folder / (key + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
  {
    std::ofstream file(temp, std::ios::binary);
    if (!file) return;
    file.write(data.data(), static_cast<std::streamsize>(data.size()));
    if (!file) {
      file.close();
      std::filesystem::remove(temp, ec);
      return;
    }
  }
  std::filesystem::rename(temp, folder / (key + ".strata"), ec);
  if (ec) std::filesystem::remove(temp, ec);
}

}  // namespace strata::backends
