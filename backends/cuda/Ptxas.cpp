// ptxas as a subprocess (Ptxas.h), through LLVM's process and file utilities.
#include "backends/cuda/Ptxas.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace strata::backends::cuda {
namespace {

// Removes the files it names when it goes.
struct TempFiles {
  llvm::SmallVector<llvm::SmallString<128>, 3> paths;
  ~TempFiles() {
    for (const auto& p : paths) llvm::sys::fs::remove(p);
  }
  absl::StatusOr<std::string> make(const char* suffix) {
    llvm::SmallString<128> path;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile("strata-kernels", suffix, path))
      return absl::InternalError("cannot create a temporary file: " + ec.message());
    paths.push_back(path);
    return std::string(path.str());
  }
};

std::string read(const std::string& path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> b = llvm::MemoryBuffer::getFile(path, false, false);
  return b ? (*b)->getBuffer().str() : std::string();
}

}  // namespace

absl::StatusOr<std::string> ptx_to_cubin(std::string_view ptx, const std::string& chip, const std::string& toolkit) {
  std::string ptxas = toolkit + "/bin/ptxas";
  if (!llvm::sys::fs::can_execute(ptxas))
    return absl::FailedPreconditionError("no ptxas at " + ptxas + " (the CUDA toolkit makes cubins)");
  TempFiles files;
  absl::StatusOr<std::string> in = files.make("ptx"), out = files.make("cubin"), log = files.make("log");
  if (!in.ok()) return in.status();
  if (!out.ok()) return out.status();
  if (!log.ok()) return log.status();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(*in, ec);
    if (ec) return absl::InternalError("cannot write " + *in + ": " + ec.message());
    os << ptx;
  }
  llvm::SmallVector<llvm::StringRef, 8> args{ptxas, "-O3", "-arch", chip, *in, "-o", *out};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(*log), llvm::StringRef(*log)};
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(ptxas, args, std::nullopt, redirects, 0, 0, &error);
  if (rc != 0)
    return absl::InternalError("ptxas -arch " + chip + " failed" + (error.empty() ? "" : " (" + error + ")") + ": " +
                               read(*log));
  std::string cubin = read(*out);
  if (cubin.empty()) return absl::InternalError("ptxas wrote no cubin");
  return cubin;
}

}  // namespace strata::backends::cuda
