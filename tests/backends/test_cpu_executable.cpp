// The CPU executable as the API sees it: stage texts and compile times, memory and cost
// analyses, constants, parallel loops, the runtime GEMM, the scratch arena, concurrent calls,
// the persistent cache, and errors (compiler::compile never throws; diagnostics name the user's
// file:line:col).
#include <filesystem>
#include <fstream>
#include <thread>

#include "backends/DiskCache.h"
#include "cpu_test_util.h"

namespace st = strata;
using st::Array;
using namespace st::testing;

namespace {

Array seed_line(const Array& x, const Array& w, const Array& b) { return st::relu(st::matmul(x, w) + b); }

std::string stage_text(const st::Executable& e, const std::string& stage) {
  for (const auto& [name, text] : e.stage_texts())
    if (name == stage) return text;
  ADD_FAILURE() << "no stage " << stage;
  return "";
}

// Runs `e` on `inputs`, returning its outputs.
std::vector<Array> run(const st::Executable& e, const std::vector<Array>& inputs) {
  std::vector<Array> out;
  std::vector<void*> o;
  for (const st::AbstractValue& a : e.output_types()) {
    out.push_back(output_like(a));
    o.push_back(const_cast<void*>(out.back().data()));
  }
  std::vector<const void*> in;
  for (const Array& a : inputs) in.push_back(a.data());
  EXPECT_TRUE(e.execute(in.data(), o.data()).ok());
  return out;
}

std::filesystem::path fresh_dir(const std::string& name) {
  std::filesystem::path p = std::filesystem::temp_directory_path() /
                            ("strata_backend_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(p);
  return p;
}

// A queue of work on one device, as a caller hands it to Executable::execute.
struct TestStream final : st::Stream {
  explicit TestStream(st::Device d) : d(d) {}
  st::Device device() const override { return d; }
  absl::Status synchronize() override { return absl::OkStatus(); }
  st::Device d;
};

// The seed line on small inputs (4x8, 8x16, 16), compiled with default options.
struct CompiledSeed {
  Array x = random_array({4, 8}, st::f32, -1, 1, 1), w = random_array({8, 16}, st::f32, -1, 1, 2),
        b = random_array({16}, st::f32, -1, 1, 3);
  st::CompileResult r = st::compiler::compile(*st::make_jaxpr(seed_line)(x, w, b).impl(), {});
};

}  // namespace

// execute() with a stream: a CPU stream runs the work (inline, done on return); a stream of
// another device is refused with a status, and nothing runs.
TEST(CpuExecutable, ExecuteOnAStream) {
  CompiledSeed seed;
  ASSERT_TRUE(seed.r.ok()) << seed.r.error;
  const Array &x = seed.x, &w = seed.w, &b = seed.b;
  const st::Executable& e = *seed.r.executable;
  EXPECT_EQ(e.device(), st::cpu());
  Array out = output_like(e.output_types()[0]);
  const void* in[] = {x.data(), w.data(), b.data()};
  void* o[] = {const_cast<void*>(out.data())};
  TestStream cpu_stream(st::cpu());
  ASSERT_TRUE(e.execute(in, o, &cpu_stream).ok());
  ASSERT_TRUE(cpu_stream.synchronize().ok());
  expect_arrays_match(out, seed_line(x, w, b), {});
  TestStream gpu_stream(st::Device{st::DeviceKind::cuda, 0});
  absl::Status s = e.execute(in, o, &gpu_stream);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("cuda:0"), std::string::npos) << s;
}

// A device no target serves, or one the process does not have, is a compile error naming the
// device and the targets (or the count).
TEST(CpuExecutable, NoTargetForADeviceIsAnError) {
  st::Jaxpr j = st::make_jaxpr([](const Array& v) { return v + 1.0f; })(st::ones({2}));
  const int gpus = st::compiler::device_count(st::DeviceKind::cuda);
  st::CompileResult r = st::compiler::compile(*j.impl(), {.device = st::Device{st::DeviceKind::cuda, gpus}});
  ASSERT_FALSE(r.ok());
  if (st::compiler::stage_names(st::DeviceKind::cuda).empty()) {  // built without the cuda target
    EXPECT_NE(r.error.find("no compiler target for cuda:0"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("targets: cpu"), std::string::npos) << r.error;
  } else {
    EXPECT_NE(r.error.find("no device cuda:" + std::to_string(gpus) + " (this process has " + std::to_string(gpus)),
              std::string::npos)
        << r.error;
  }
  EXPECT_EQ(st::compiler::device_count(st::DeviceKind::cpu), 1);
}

TEST(CpuExecutable, SeedLineReportsEveryStage) {
  CompiledSeed seed;
  ASSERT_TRUE(seed.r.ok()) << seed.r.error;
  const Array &x = seed.x, &w = seed.w, &b = seed.b;
  const st::Executable& e = *seed.r.executable;
  std::vector<std::string> names;
  for (const auto& s : e.stage_texts()) names.push_back(s.first);
  EXPECT_EQ(names, (std::vector<std::string>{"jaxpr", "strata", "canonicalized", "cse", "fused", "linalg",
                                             "bufferized", "buffers", "loops", "llvm-dialect", "llvm-ir", "asm"}));
  EXPECT_NE(stage_text(e, "fused").find("strata.fusion"), std::string::npos);
  EXPECT_NE(stage_text(e, "linalg").find("linalg.batch_matmul"), std::string::npos);
  EXPECT_NE(stage_text(e, "buffers").find("BufferAssignment"), std::string::npos);
  // The bias add and relu run as the GEMM's epilogue.
  EXPECT_NE(stage_text(e, "loops").find("call @strata_rt_dot_f32"), std::string::npos) << stage_text(e, "loops");
  EXPECT_NE(stage_text(e, "llvm-dialect").find("llvm.call @strata_rt_dot_ep_f32"), std::string::npos);
  EXPECT_NE(stage_text(e, "llvm-dialect").find("llvm.func @strata_entry"), std::string::npos);
  EXPECT_NE(stage_text(e, "llvm-ir").find("define void @strata_entry"), std::string::npos);
  EXPECT_NE(e.assembly().find("strata_entry:"), std::string::npos) << e.assembly().substr(0, 2000);
  EXPECT_EQ(e.assembly(), stage_text(e, "asm"));
  std::vector<std::string> timed;
  for (const st::StageTime& t : e.compile_times()) {
    timed.push_back(t.stage);
    EXPECT_GE(t.ms, 0);
  }
  for (const char* s : {"strata", "cse", "fused", "linalg", "bufferized", "buffers", "loops", "llvm-dialect", "llvm-ir",
                        "asm", "link"})
    EXPECT_NE(std::find(timed.begin(), timed.end(), s), timed.end()) << s;
  EXPECT_EQ(e.device(), st::cpu());
  EXPECT_FALSE(e.from_disk_cache());
  ASSERT_EQ(e.input_types().size(), 3u);
  EXPECT_EQ(e.input_types()[1].shape, (st::Shape{8, 16}));
  ASSERT_EQ(e.output_types().size(), 1u);
  EXPECT_EQ(e.output_types()[0].shape, (st::Shape{4, 16}));

  st::MemoryAnalysis m = e.memory_analysis();
  EXPECT_EQ(m.argument_bytes, (4 * 8 + 8 * 16 + 16) * 4);
  EXPECT_EQ(m.output_bytes, 4 * 16 * 4);
  EXPECT_GE(m.temporaries_bytes, m.scratch_bytes);
  st::CostAnalysis c = e.cost_analysis();
  EXPECT_GE(c.flops, 2.0 * 4 * 8 * 16);  // the GEMM, plus the elementwise ops
  EXPECT_LE(c.flops, 2.0 * 4 * 8 * 16 + 3 * 4 * 16);
  EXPECT_GE(c.bytes_accessed, (4 * 8 + 8 * 16 + 4 * 16) * 4.0);

  expect_arrays_match(run(e, {x, w, b})[0], seed_line(x, w, b), {4, 16, 1, true});
}

TEST(CpuExecutable, DotGeneralCallsTheRuntimeGemmWithoutCopiesForTransposedOperands) {
  Array a = random_array({8, 4}, st::f32, -1, 1, 1), b = random_array({16, 8}, st::f32, -1, 1, 2);
  // a^T · b^T: both operands transposed, no copy, one call.
  st::Jaxpr j = st::make_jaxpr([](const Array& x, const Array& y) { return st::matmul(st::transpose(x), st::transpose(y)); })(a, b);
  st::CompileResult r = st::compiler::compile(*j.impl(), {});
  ASSERT_TRUE(r.ok()) << r.error;
  std::string loops = stage_text(*r.executable, "loops");
  EXPECT_NE(loops.find("call @strata_rt_dot_f32"), std::string::npos) << loops;
  EXPECT_EQ(r.executable->memory_analysis().temporaries_bytes, 0) << loops;
  expect_compiled_matches_eager(j, {a, b}, {4, 18, 1, true});
}

TEST(CpuExecutable, LargeLoopsRunInParallelAndSmallOnesDoNot) {
  auto f = [](const Array& x, const Array& y) { return st::exp(x) * y + 1.0f; };
  Array big_x = random_array({300, 400}, st::f32, -2, 2, 1), big_y = random_array({300, 400}, st::f32, -2, 2, 2);
  st::Jaxpr big = st::make_jaxpr(f)(big_x, big_y);
  st::CompileResult r = st::compiler::compile(*big.impl(), {});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_NE(stage_text(*r.executable, "loops").find("call @main_parallel_0"), std::string::npos);
  EXPECT_NE(stage_text(*r.executable, "llvm-ir").find("@strata_rt_parallel_for"), std::string::npos);
  // exp differs from Eigen's by an ULP, which the product and the +1 scale: an absolute bound.
  Tolerance tol{4, 4, 16, false};
  expect_compiled_matches_eager(big, {big_x, big_y}, tol);

  st::CompileResult serial = st::compiler::compile(*big.impl(), {.parallel = false});
  ASSERT_TRUE(serial.ok()) << serial.error;
  EXPECT_EQ(stage_text(*serial.executable, "loops").find("_parallel_"), std::string::npos);
  expect_compiled_matches_eager(big, {big_x, big_y}, tol, {.parallel = false});

  Array small_x = random_array({8, 8}, st::f32, -2, 2, 1);
  st::Jaxpr small = st::make_jaxpr(f)(small_x, small_x);
  st::CompileResult s = st::compiler::compile(*small.impl(), {});
  ASSERT_TRUE(s.ok()) << s.error;
  EXPECT_EQ(stage_text(*s.executable, "loops").find("_parallel_"), std::string::npos);
}

TEST(CpuExecutable, ElementwiseChainsFuseIntoOneLoopNest) {
  Array x = random_array({64, 64}, st::f32, -2, 2);
  st::Jaxpr j = st::make_jaxpr([](const Array& v) {
    Array y = v;
    for (int i = 0; i < 4; ++i) y = st::tanh(y * 1.5f + 0.25f);
    return y;
  })(x);
  st::CompileResult r = st::compiler::compile(*j.impl(), {});
  ASSERT_TRUE(r.ok()) << r.error;
  std::string linalg = stage_text(*r.executable, "linalg");
  size_t generics = 0;
  for (size_t p = linalg.find("linalg.generic"); p != std::string::npos; p = linalg.find("linalg.generic", p + 1)) ++generics;
  EXPECT_EQ(generics, 1u) << linalg;
  EXPECT_EQ(r.executable->memory_analysis().scratch_bytes, 0);
  expect_compiled_matches_eager(j, {x}, {8, 8, 2, false});
}

TEST(CpuExecutable, TemporariesShareTheScratchArena) {
  // Two independent chains of GEMMs and reductions on arrays of different shapes, unfused: the
  // second chain's temporaries are made after the first's died, in the same bytes.
  Array x = random_array({32, 32}, st::f32, -1, 1, 1), y = random_array({16, 64}, st::f32, -1, 1, 2);
  st::Jaxpr j = st::make_jaxpr([](const Array& v, const Array& u) {
    Array a = st::matmul(st::exp(v), v);
    Array s = st::sum(st::transpose(a) * 2.0f, st::Axes{1});
    Array b = st::matmul(st::exp(u), st::transpose(u));
    Array t = st::sum(st::transpose(b) + 1.0f, st::Axes{1});
    return std::make_tuple(s, t);
  })(x, y);
  st::CompileResult shared = st::compiler::compile(*j.impl(), {.fuse = false});
  ASSERT_TRUE(shared.ok()) << shared.error;
  st::MemoryAnalysis m = shared.executable->memory_analysis();
  EXPECT_GT(m.scratch_bytes, 0);
  EXPECT_LT(m.scratch_bytes, m.temporaries_bytes) << stage_text(*shared.executable, "buffers");
  EXPECT_EQ(stage_text(*shared.executable, "llvm-ir").find("@malloc"), std::string::npos);
  // Without buffer assignment every temporary has its own bytes.
  st::CompileResult own = st::compiler::compile(*j.impl(), {.fuse = false, .assign_buffers = false});
  ASSERT_TRUE(own.ok()) << own.error;
  EXPECT_EQ(own.executable->memory_analysis().scratch_bytes, own.executable->memory_analysis().temporaries_bytes);
  EXPECT_EQ(own.executable->memory_analysis().temporaries_bytes, m.temporaries_bytes);
  expect_compiled_matches_eager(j, {x, y}, {4, 2000, 50, true}, {.fuse = false});
  expect_compiled_matches_eager(j, {x, y}, {4, 2000, 50, true}, {.fuse = false, .assign_buffers = false});
  expect_compiled_matches_eager(j, {x, y}, {4, 2000, 50, true});
}

TEST(CpuExecutable, ConstantsArePassedAheadOfTheInputs) {
  Array table = random_array({3, 5}, st::f32, -4, 4, 9);
  Array ids = random_array({3, 5}, st::i32, 0, 3, 1);
  Array x = random_array({3, 5}, st::f32, -1, 1, 2);
  st::Jaxpr j = st::make_jaxpr([&](const Array& v, const Array& k) { return v * table + st::astype(k, st::f32); })(x, ids);
  ASSERT_EQ(j.impl()->constvars.size(), 1u) << j;
  st::CompileResult r = st::compiler::compile(*j.impl(), {});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_EQ(r.executable->input_types().size(), 2u);
  EXPECT_EQ(r.executable->memory_analysis().argument_bytes, (15 * 4) * 3);
  expect_compiled_matches_eager(j, {x, ids});
}

TEST(CpuExecutable, OutputsThatAreInputsLiteralsOrRepeated) {
  Array x = random_array({2, 3}, st::f32, -1, 1);
  st::Jaxpr j = st::make_jaxpr([](const Array& v) {
    Array y = v * 2.0f;
    return std::vector<Array>{v, y, y, st::reshape(y, {3, 2}), st::full({2}, 7.0, st::i64)};
  })(x);
  expect_compiled_matches_eager(j, {x});
}

TEST(CpuExecutable, GradientProgramsCompile) {
  auto loss = [](const Array& x, const Array& w, const Array& b) { return st::sum(st::relu(st::matmul(x, w) + b)); };
  Array x = random_array({6, 8}, st::f32, -1, 1, 1), w = random_array({8, 5}, st::f32, -1, 1, 2),
        b = random_array({5}, st::f32, -1, 1, 3);
  st::Jaxpr j = st::make_jaxpr(st::grad(loss, st::argnums<1, 2>))(x, w, b);
  expect_compiled_matches_eager(j, {x, w, b}, {8, 40, 8, true});
}

TEST(CpuExecutable, ManyThreadsRunOneExecutable) {
  Array w = random_array({64, 64}, st::f32, -1, 1, 1), b = random_array({64}, st::f32, -1, 1, 2);
  st::Jaxpr j = st::make_jaxpr(seed_line)(random_array({64, 64}, st::f32, -1, 1, 3), w, b);
  st::CompileResult r = st::compiler::compile(*j.impl(), {});
  ASSERT_TRUE(r.ok()) << r.error;
  std::vector<Array> xs, want;
  for (int t = 0; t < 8; ++t) {
    xs.push_back(random_array({64, 64}, st::f32, -1, 1, 10 + static_cast<uint64_t>(t)));
    want.push_back(seed_line(xs.back(), w, b));
  }
  std::vector<std::vector<Array>> got(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int rep = 0; rep < 20; ++rep) got[static_cast<size_t>(t)] = run(*r.executable, {xs[static_cast<size_t>(t)], w, b});
    });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 8; ++t) expect_arrays_match(got[static_cast<size_t>(t)][0], want[static_cast<size_t>(t)], {4, 130, 1, true});
}

TEST(CpuExecutable, DiskCacheSkipsCodegenOnAHit) {
  std::filesystem::path dir = fresh_dir("cache");
  Array x = random_array({64, 32}, st::f32, -1, 1, 1), w = random_array({32, 16}, st::f32, -1, 1, 2),
        b = random_array({16}, st::f32, -1, 1, 3);
  st::Jaxpr j = st::make_jaxpr(seed_line)(x, w, b);
  st::JitOptions options{.cache_dir = dir.string()};
  st::CompileResult first = st::compiler::compile(*j.impl(), options);
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_FALSE(first.executable->from_disk_cache());
  size_t files = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) files += f.path().extension() == ".strata";
  EXPECT_EQ(files, 1u);

  st::CompileResult second = st::compiler::compile(*j.impl(), options);
  ASSERT_TRUE(second.ok()) << second.error;
  EXPECT_TRUE(second.executable->from_disk_cache());
  for (const st::StageTime& t : second.executable->compile_times()) EXPECT_NE(t.stage, "llvm-ir");
  EXPECT_EQ(second.executable->stage_texts().size(), first.executable->stage_texts().size());
  EXPECT_EQ(stage_text(*second.executable, "llvm-ir"), stage_text(*first.executable, "llvm-ir"));
  EXPECT_EQ(second.executable->memory_analysis().scratch_bytes, first.executable->memory_analysis().scratch_bytes);
  EXPECT_EQ(second.executable->cost_analysis().flops, first.executable->cost_analysis().flops);
  expect_arrays_match(run(*second.executable, {x, w, b})[0], run(*first.executable, {x, w, b})[0], {0});

  // Other options are another entry.
  st::CompileResult serial = st::compiler::compile(*j.impl(), {.cache_dir = dir.string(), .parallel = false});
  ASSERT_TRUE(serial.ok());
  EXPECT_FALSE(serial.executable->from_disk_cache());
  std::filesystem::remove_all(dir);
}

// The persistent cache is keyed on the compiler's build (a hash of its sources), not on the
// project's version: code cached by another build of the compiler is never served.
TEST(CpuExecutable, CacheKeyChangesWithTheCompilerBuild) {
  std::string id = st::compiler_build_id();
  EXPECT_EQ(id.size(), 64u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_EQ(st::backends::cache_key("program", "O3", "cpu"), st::backends::cache_key("program", "O3", "cpu", id));
  EXPECT_NE(st::backends::cache_key("program", "O3", "cpu", id),
            st::backends::cache_key("program", "O3", "cpu", "another build"));
}

TEST(CpuExecutable, CorruptOrUnwritableCacheEntriesAreIgnored) {
  std::filesystem::path dir = fresh_dir("corrupt");
  Array x = random_array({5, 7}, st::f32, -1, 1, 1);
  st::Jaxpr j = st::make_jaxpr([](const Array& v) { return st::exp(v) + 1.0f; })(x);
  st::JitOptions options{.cache_dir = dir.string()};
  ASSERT_TRUE(st::compiler::compile(*j.impl(), options).ok());
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    // Truncated, then garbage: each time the program compiles afresh and runs right.
    std::filesystem::resize_file(f.path(), std::filesystem::file_size(f.path()) / 2);
    st::CompileResult r = st::compiler::compile(*j.impl(), options);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_FALSE(r.executable->from_disk_cache());
    std::ofstream(f.path(), std::ios::binary | std::ios::trunc) << "format 18\nstrata-cpu-cache-1\nobject 5\nnope!\n";
    r = st::compiler::compile(*j.impl(), options);
    ASSERT_TRUE(r.ok()) << r.error;
    EXPECT_FALSE(r.executable->from_disk_cache());
    expect_compiled_matches_eager(j, {x}, {}, options);
  }
  // A cache "directory" that is a file cannot be written: compiling still works.
  std::filesystem::path file = dir / "not_a_dir";
  std::ofstream(file) << "x";
  st::CompileResult r = st::compiler::compile(*j.impl(), {.cache_dir = file.string()});
  ASSERT_TRUE(r.ok()) << r.error;
  EXPECT_FALSE(r.executable->from_disk_cache());
  std::filesystem::remove_all(dir);
}

TEST(CpuExecutable, ErrorsAreDiagnosticsWithTheUsersLocation) {
  Array x = random_array({2, 3}, st::f32, -1, 1);
  st::Jaxpr j = st::make_jaxpr([](const Array& v) { return st::transpose(v); })(x);
  // The same program with a broken equation, as if traced at user.cpp:12:5.
  auto broken = std::make_shared<st::JaxprImpl>(*j.impl());
  broken->eqns[0].params.set("permutation", st::IntList{0, 0});
  broken->eqns[0].loc = st::SourceLoc{"user.cpp", 12, 5};
  st::CompileResult r;
  EXPECT_NO_THROW(r = st::compiler::compile(*broken, {}));
  EXPECT_FALSE(r.ok());
  expect_contains(r.error, "user.cpp:12:5: error:");

  // A constant without a value (a tracer of an enclosing trace) is refused, not dereferenced.
  auto no_value = std::make_shared<st::JaxprImpl>(*j.impl());
  no_value->constvars.push_back(no_value->invars[0]);
  no_value->consts.push_back(Array());
  EXPECT_NO_THROW(r = st::compiler::compile(*no_value, {}));
  EXPECT_FALSE(r.ok());
  expect_contains(r.error, "constant");
}

TEST(CpuExecutable, CompilesConcurrentlyFromManyThreads) {
  std::vector<st::Jaxpr> programs;
  std::vector<std::vector<Array>> inputs;
  for (int t = 0; t < 4; ++t) {
    Array x = random_array({16, 8 + t}, st::f32, -1, 1, static_cast<uint64_t>(t));
    Array w = random_array({8 + t, 4}, st::f32, -1, 1, static_cast<uint64_t>(t + 10));
    inputs.push_back({x, w});
    programs.push_back(st::make_jaxpr([](const Array& a, const Array& b) { return st::tanh(st::matmul(a, b)); })(x, w));
  }
  std::vector<st::CompileResult> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { results[static_cast<size_t>(t)] = st::compiler::compile(*programs[static_cast<size_t>(t)].impl(), {}); });
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    ASSERT_TRUE(results[static_cast<size_t>(t)].ok()) << results[static_cast<size_t>(t)].error;
    std::vector<Array> want = st::eval_jaxpr(programs[static_cast<size_t>(t)], inputs[static_cast<size_t>(t)]);
    expect_arrays_match(run(*results[static_cast<size_t>(t)].executable, inputs[static_cast<size_t>(t)])[0], want[0], {8, 24, 2, true});
  }
}

// Threads compiling one program into one cache directory at once (as processes sharing a cache
// do): each writes its own temporary file and renames it over the entry, so every compile
// succeeds and computes right, one entry remains, no temporary is left, and the next compile
// loads it. tools/sanitize.sh tsan runs this under ThreadSanitizer.
TEST(CpuExecutable, ThreadsWritingOneDiskCacheEntryAtOnce) {
  std::filesystem::path dir = fresh_dir("shared_entry");
  Array x = random_array({24, 12}, st::f32, -1, 1, 1), w = random_array({12, 6}, st::f32, -1, 1, 2);
  st::Jaxpr j = st::make_jaxpr([](const Array& a, const Array& b) { return st::tanh(st::matmul(a, b)) * 2.0f; })(x, w);
  const st::JitOptions options{.cache_dir = dir.string()};
  std::vector<st::CompileResult> results(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { results[static_cast<size_t>(t)] = st::compiler::compile(*j.impl(), options); });
  for (std::thread& th : threads) th.join();
  std::vector<Array> want = st::eval_jaxpr(j, {x, w});
  for (const st::CompileResult& r : results) {
    ASSERT_TRUE(r.ok()) << r.error;
    expect_arrays_match(run(*r.executable, {x, w})[0], want[0], {8, 24, 2, true});
  }
  size_t entries = 0, others = 0;
  for (const auto& f : std::filesystem::directory_iterator(dir)) (f.path().extension() == ".strata" ? entries : others)++;
  EXPECT_EQ(entries, 1u);
  EXPECT_EQ(others, 0u);
  st::CompileResult again = st::compiler::compile(*j.impl(), options);
  ASSERT_TRUE(again.ok()) << again.error;
  EXPECT_TRUE(again.executable->from_disk_cache());
  expect_arrays_match(run(*again.executable, {x, w})[0], want[0], {8, 24, 2, true});
  std::filesystem::remove_all(dir);
}

TEST(CpuExecutable, EveryOptimisationLevelComputesTheSame) {
  Array x = random_array({8, 12}, st::f32, -1, 1, 1), w = random_array({12, 6}, st::f32, -1, 1, 2),
        b = random_array({6}, st::f32, -1, 1, 3);
  st::Jaxpr j = st::make_jaxpr([](const Array& a, const Array& c, const Array& d) {
    return st::softmax(st::relu(st::matmul(a, c) + d), -1);
  })(x, w, b);
  for (int level : {0, 1, 2, 3}) expect_compiled_matches_eager(j, {x, w, b}, {8, 16, 1, true}, {.opt_level = level}, "O" + std::to_string(level));
}

TEST(CpuExecutable, FusionCanBeSwitchedOff) {
  Array x = random_array({64, 64}, st::f32, -2, 2);
  st::Jaxpr j = st::make_jaxpr([](const Array& v) { return st::exp(v * 2.0f + 1.0f); })(x);
  st::CompileResult fused = st::compiler::compile(*j.impl(), {});
  st::CompileResult unfused = st::compiler::compile(*j.impl(), {.fuse = false});
  ASSERT_TRUE(fused.ok() && unfused.ok()) << fused.error << unfused.error;
  auto count = [](const std::string& s) {
    size_t n = 0;
    for (size_t p = s.find("linalg.generic"); p != std::string::npos; p = s.find("linalg.generic", p + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count(stage_text(*fused.executable, "linalg")), 1u);
  EXPECT_EQ(count(stage_text(*unfused.executable, "linalg")), 3u);
  EXPECT_GT(unfused.executable->cost_analysis().bytes_accessed, fused.executable->cost_analysis().bytes_accessed);
  expect_compiled_matches_eager(j, {x}, {}, {.fuse = false});
}
