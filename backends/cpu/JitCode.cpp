// An object file linked into the process by ORC's LLJIT (JitCode.h). The JIT gets the
// runtime's symbols as absolute addresses and no view of the process's symbol table, so an
// unexpected external reference fails to link instead of binding to whatever is loaded.
#include "backends/cpu/JitCode.h"

#include <cstring>

#include "backends/cpu/Runtime.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/VectorMath.h"

namespace strata::backends::cpu {

struct JitCode::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
};

JitCode::JitCode(std::unique_ptr<Impl> impl, EntryFn entry) : impl_(std::move(impl)), entry_(entry) {}
JitCode::~JitCode() = default;

namespace {
constexpr std::string_view kMagic = "strata-objects-1\n";
}  // namespace

std::string pack_objects(const std::vector<std::string>& objects) {
  std::string out(kMagic);
  auto word = [&](uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
  word(objects.size());
  for (const std::string& o : objects) word(o.size());
  for (const std::string& o : objects) out += o;
  return out;
}

bool unpack_objects(std::string_view payload, std::vector<std::string_view>& objects) {
  objects.clear();
  if (!payload.starts_with(kMagic)) return false;
  payload.remove_prefix(kMagic.size());
  auto word = [&](uint64_t& v) {
    if (payload.size() < sizeof v) return false;
    std::memcpy(&v, payload.data(), sizeof v);
    payload.remove_prefix(sizeof v);
    return true;
  };
  uint64_t count = 0;
  if (!word(count) || count == 0 || count > payload.size() / sizeof(uint64_t)) return false;
  std::vector<uint64_t> sizes(count);
  for (uint64_t& n : sizes)
    if (!word(n)) return false;
  for (uint64_t n : sizes) {
    if (n > payload.size()) return false;
    objects.push_back(payload.substr(0, n));
    payload.remove_prefix(n);
  }
  return payload.empty();
}

std::unique_ptr<JitCode> JitCode::load(const std::vector<std::string_view>& objects, const char* entry,
                                       std::string& error) {
  mlir::strata::initializeNativeTarget();
  // The target machine settings the object was compiled for (lowering/LlvmCodegen.h).
  const mlir::strata::HostTarget& host = mlir::strata::hostTarget();
  llvm::orc::JITTargetMachineBuilder jtmb{llvm::Triple(host.triple)};
  jtmb.setCPU(host.cpu);
  jtmb.addFeatures(std::vector<std::string>{host.features});
  jtmb.setRelocationModel(llvm::Reloc::PIC_);
  jtmb.setCodeModel(llvm::CodeModel::Small);
  auto jit = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(jtmb))
                 .setLinkProcessSymbolsByDefault(false)
                 .setPlatformSetUp(llvm::orc::setUpInactivePlatform)
                 .create();
  if (!jit) {
    error = "cannot create the JIT: " + llvm::toString(jit.takeError());
    return nullptr;
  }
  llvm::orc::SymbolMap symbols;
  for (const RuntimeSymbol& s : runtime_symbols())
    symbols[(*jit)->mangleAndIntern(s.name)] = {llvm::orc::ExecutorAddr::fromPtr(s.address),
                                                llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  for (const auto& [name, address] : mlir::strata::vectorMathLibrary())
    symbols[(*jit)->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                              llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
  if (auto err = (*jit)->getMainJITDylib().define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
    error = "cannot define the runtime's symbols: " + llvm::toString(std::move(err));
    return nullptr;
  }
  for (std::string_view object : objects) {
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), "strata.o");
    if (auto err = (*jit)->addObjectFile(std::move(buffer))) {
      error = "cannot add the object to the JIT: " + llvm::toString(std::move(err));
      return nullptr;
    }
  }
  auto address = (*jit)->lookup(entry);
  if (!address) {
    error = "cannot link the generated code: " + llvm::toString(address.takeError());
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  impl->jit = std::move(*jit);
  return std::unique_ptr<JitCode>(new JitCode(std::move(impl), address->toPtr<EntryFn>()));
}

}  // namespace strata::backends::cpu
