// jit: tracing is in the header; lowering goes through the compiler's plain-C++ entry point
// (lowering/Lower.h), whose failures become strata::Error here, on the API side.
#include "strata/jit.h"

#include <atomic>
#include <filesystem>
#include <fstream>

#include "jaxpr.h"
#include "lowering/Lower.h"
#include "strata/errors.h"

namespace strata {

struct Lowered::Impl {
  Jaxpr jaxpr;
  std::vector<lowering::StageText> stages;
};

const std::string& Lowered::as_text(std::string_view stage) const {
  for (const lowering::StageText& s : impl_->stages)
    if (s.stage == stage) return s.text;
  std::string names;
  for (const lowering::StageText& s : impl_->stages) names += (names.empty() ? "" : ", ") + s.stage;
  throw ValueError("Lowered::as_text: expects a stage (" + names + "), but got '" +
                   std::string(stage) + "'");
}

std::vector<std::string> Lowered::stages() const {
  std::vector<std::string> names;
  for (const lowering::StageText& s : impl_->stages) names.push_back(s.stage);
  return names;
}

const Jaxpr& Lowered::jaxpr() const { return impl_->jaxpr; }

namespace detail {

struct JitState {
  JitOptions options;
};

std::shared_ptr<JitState> make_jit_state(JitOptions options) {
  return std::make_shared<JitState>(JitState{std::move(options)});
}

namespace {

// NAME.N.STAGE.{jaxpr,mlir} for every stage, N unique in the process.
void dump(const JitOptions& options, const std::vector<lowering::StageText>& stages) {
  static std::atomic<int> counter{0};
  int n = counter++;
  std::filesystem::path dir(options.dump_dir);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const lowering::StageText& s : stages) {
    std::string ext = s.stage == "jaxpr" ? ".jaxpr" : ".mlir";
    std::filesystem::path file = dir / (options.name + "." + std::to_string(n) + "." + s.stage + ext);
    std::ofstream out(file);
    out << (s.located_text.empty() ? s.text : s.located_text);
    if (!out) throw Error("jit: cannot write the dump file " + file.string());
  }
}

}  // namespace

Lowered lower_jaxpr(const Jaxpr& jaxpr, JitState& state) {
  const bool dumping = !state.options.dump_dir.empty();
  lowering::LowerResult r = lowering::lower(*jaxpr.impl(), dumping);
  if (!r.ok()) throw Error("jit: lowering '" + state.options.name + "' failed:\n" + r.error);
  if (dumping) dump(state.options, r.stages);
  for (lowering::StageText& s : r.stages) s.located_text.clear();
  return Lowered(std::make_shared<const Lowered::Impl>(Lowered::Impl{jaxpr, std::move(r.stages)}));
}

}  // namespace detail
}  // namespace strata
