// An object file linked into the process by ORC's LLJIT (JitCode.h). The JIT gets the
// runtime's symbols as absolute addresses and no view of the process's symbol table, so an
// unexpected external reference fails to link instead of binding to whatever is loaded.
// One JIT serves every program, each in a JITDylib of its own (SharedJit below).
#include "backends/cpu/JitCode.h"

#include <cstring>
#include <mutex>

#include "backends/cpu/Runtime.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "lowering/LlvmCodegen.h"
#include "lowering/VectorMath.h"

namespace strata::backends::cpu {

struct JitCode::Impl {
  llvm::orc::JITDylib* dylib = nullptr;  // the program's, in SharedJit's session
};

JitCode::JitCode(std::unique_ptr<Impl> impl, EntryFn entry) : impl_(std::move(impl)), entry_(entry) {}

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

namespace {

// One LLJIT for the process: creating one per program (its execution session, linking layer
// and target machine) was ~2% of a small program's first call. Each program is a JITDylib of
// its own whose link order is itself, then the runtime's symbols (a JITDylib of absolute
// addresses), so it still binds to nothing else; ~JitCode removes it, freeing its code.
class SharedJit {
 public:
  static SharedJit& get() {
    static SharedJit* shared = new SharedJit;  // never destroyed: executables may outlive statics
    return *shared;
  }
  // The JIT, or null with the reason in error() (then every load fails with it).
  llvm::orc::LLJIT* jit() { return jit_.get(); }
  const std::string& error() const { return error_; }
  // A fresh, uniquely named JITDylib linking against the runtime.
  llvm::orc::JITDylib& program() {
    llvm::orc::JITDylib& jd =
        jit_->getExecutionSession().createBareJITDylib("strata.program." + std::to_string(next_++));
    jd.addToLinkOrder(*runtime_);
    return jd;
  }

  std::mutex mu;  // loads and removals, one at a time

 private:
  SharedJit() {
    mlir::strata::initializeNativeTarget();
    // The target machine settings the objects are compiled for (lowering/LlvmCodegen.h).
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
      error_ = "cannot create the JIT: " + llvm::toString(jit.takeError());
      return;
    }
    llvm::orc::JITDylib& runtime = (*jit)->getExecutionSession().createBareJITDylib("strata.runtime");
    llvm::orc::SymbolMap symbols;
    auto add = [&](llvm::StringRef name, const void* address) {
      symbols[(*jit)->mangleAndIntern(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                                llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
    };
    for (const RuntimeSymbol& s : runtime_symbols()) add(s.name, s.address);
    for (const auto& [name, address] : mlir::strata::vectorMathLibrary()) add(name, address);
    if (auto err = runtime.define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
      error_ = "cannot define the runtime's symbols: " + llvm::toString(std::move(err));
      return;
    }
    runtime_ = &runtime;
    jit_ = std::move(*jit);
  }

  std::unique_ptr<llvm::orc::LLJIT> jit_;
  llvm::orc::JITDylib* runtime_ = nullptr;
  std::string error_;
  uint64_t next_ = 0;
};

}  // namespace

JitCode::~JitCode() {
  if (!impl_ || !impl_->dylib) return;
  SharedJit& shared = SharedJit::get();
  std::lock_guard<std::mutex> lock(shared.mu);
  // Nothing to report to: a failure to free leaves the code mapped, which is harmless.
  llvm::consumeError(shared.jit()->getExecutionSession().removeJITDylib(*impl_->dylib));
}

std::unique_ptr<JitCode> JitCode::load(const std::vector<std::string_view>& objects, const char* entry,
                                       std::string& error) {
  SharedJit& shared = SharedJit::get();
  if (!shared.jit()) {
    error = shared.error();
    return nullptr;
  }
  std::lock_guard<std::mutex> lock(shared.mu);
  llvm::orc::JITDylib& jd = shared.program();
  auto impl = std::make_unique<Impl>();
  impl->dylib = &jd;
  // From here on a failure removes the JITDylib again (the JitCode's destructor).
  std::unique_ptr<JitCode> code(new JitCode(std::move(impl), nullptr));
  auto fail = [&](std::string message) -> std::unique_ptr<JitCode> {
    error = std::move(message);
    code->impl_->dylib = nullptr;
    llvm::consumeError(shared.jit()->getExecutionSession().removeJITDylib(jd));
    return nullptr;
  };
  for (std::string_view object : objects) {
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(object.data(), object.size()), "strata.o");
    if (auto err = shared.jit()->addObjectFile(jd, std::move(buffer)))
      return fail("cannot add the object to the JIT: " + llvm::toString(std::move(err)));
  }
  auto address = shared.jit()->lookup(jd, entry);
  if (!address) return fail("cannot link the generated code: " + llvm::toString(address.takeError()));
  code->entry_ = address->toPtr<EntryFn>();
  return code;
}

}  // namespace strata::backends::cpu
