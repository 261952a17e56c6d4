#include "parallel.h"

#include <cstdlib>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace strata::kernels {
namespace {

// How long a worker that finished its chunk, and a caller waiting for the workers, poll before
// they sleep on the condition variable. Waking a sleeping thread took ~110 µs on the 2-core VMs
// this was measured on (the seed line, relu(x·w + b) at 8×256×256, ran in 127 µs on two threads
// and 15 µs on one); a parallel region that follows another within this window starts at
// once. OpenMP runtimes and Eigen's pool spin the same way (GOMP_SPINCOUNT, …).
constexpr auto kSpin = std::chrono::microseconds(100);

// Calls done() until it is true or kSpin has passed; whether it became true. After a few
// pauses it yields the core between polls, so that a busy machine (ctest -j, several processes
// per core) runs other threads rather than the poll.
template <class Done>
bool spin_until(Done done) {
  auto start = std::chrono::steady_clock::now();
  for (int i = 0;; ++i) {
    if (done()) return true;
    if (i < 64) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      continue;
    }
    if (std::chrono::steady_clock::now() - start > kSpin) return false;
    std::this_thread::yield();
  }
}

// Workers wait for a generation number to change, then claim chunks of that generation, as the
// caller does, until none is left. Chunks are claimed rather than assigned: on a busy machine a
// worker may not be scheduled for a whole time slice (milliseconds), and a caller that had to
// wait for the worker's chunk then took that long for a region worth microseconds (a kernel
// that runs one region per matrix column took 15 s for 1024 columns instead of 1.4 s on one
// thread). Which thread runs a chunk never changes what the chunk computes.
class Pool {
 public:
  explicit Pool(int n) : n_(n) {
    for (int i = 1; i < n_; ++i) threads_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> l(mu_);
      stop_ = true;
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  int size() const { return n_; }

  // Runs fn(i) for i in [0, chunks), chunks <= size(), the caller taking part.
  void run(int chunks, const std::function<void(int)>& fn) {
    std::lock_guard<std::mutex> serial(run_mu_);
    uint64_t g;
    {
      std::lock_guard<std::mutex> l(mu_);
      fn_ = &fn;
      chunks_ = chunks;
      done_.store(0, std::memory_order_relaxed);
      g = generation_.load(std::memory_order_relaxed) + 1;
      claim_.store((g & 0xffffffffu) << 32, std::memory_order_relaxed);
      generation_.store(g, std::memory_order_release);
    }
    cv_.notify_all();
    run_chunks(g, &fn, chunks);
    // Chunks a worker claimed may still be running.
    spin_until([&] { return done_.load(std::memory_order_acquire) == chunks; });
    std::unique_lock<std::mutex> l(mu_);
    done_cv_.wait(l, [&] { return done_.load(std::memory_order_acquire) == chunks; });
    fn_ = nullptr;
  }

 private:
  // Claims and runs chunks of generation g until all are claimed. claim_ holds the generation's
  // low 32 bits and the next chunk, so a worker that wakes after its generation ended claims
  // nothing and never calls that run's fn (which may then be null).
  void run_chunks(uint64_t g, const std::function<void(int)>* fn, int chunks) {
    for (;;) {
      uint64_t s = claim_.load(std::memory_order_acquire);
      do {
        if (s >> 32 != (g & 0xffffffffu) || static_cast<int>(s & 0xffffffffu) >= chunks) return;
      } while (!claim_.compare_exchange_weak(s, s + 1, std::memory_order_acq_rel));
      (*fn)(static_cast<int>(s & 0xffffffffu));
      std::lock_guard<std::mutex> l(mu_);
      if (done_.fetch_add(1, std::memory_order_acq_rel) + 1 == chunks) done_cv_.notify_one();
    }
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* fn;
      int chunks;
      spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
        seen = generation_.load(std::memory_order_relaxed);
        if (stop_) return;
        fn = fn_;
        chunks = chunks_;
      }
      in_worker = true;
      run_chunks(seen, fn, chunks);
      in_worker = false;
    }
  }

  int n_;
  std::vector<std::thread> threads_;
  std::mutex mu_, run_mu_;
  std::condition_variable cv_, done_cv_;
  std::atomic<uint64_t> generation_{0};  // written under mu_; polled without it while spinning
  bool stop_ = false;
  const std::function<void(int)>* fn_ = nullptr;
  int chunks_ = 0;
  std::atomic<uint64_t> claim_{0};  // generation's low 32 bits << 32 | the next chunk to claim
  std::atomic<int> done_{0};        // chunks finished in this generation

 public:
  static thread_local bool in_worker;
};
thread_local bool Pool::in_worker = false;

// The pool's size: STRATA_NUM_THREADS, else the cores shared among the processes a launcher
// started on this machine (Open MPI's OMPI_COMM_WORLD_LOCAL_SIZE, Slurm's SLURM_NTASKS_PER_NODE),
// so that N ranks on one machine do not each start a thread per core.
unsigned pool_size() {
  auto number = [](const char* name) -> long {
    const char* v = std::getenv(name);
    return v ? std::strtol(v, nullptr, 10) : 0;
  };
  if (long n = number("STRATA_NUM_THREADS"); n > 0) return static_cast<unsigned>(n);
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  long local = number("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (local <= 0) local = number("SLURM_NTASKS_PER_NODE");
  return local > 1 ? std::max(1u, cores / static_cast<unsigned>(local)) : cores;
}

Pool& pool() {
  static Pool p(pool_size());
  return p;
}

}  // namespace

int num_threads() { return pool().size(); }

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  Pool& p = pool();
  int64_t chunks = std::min<int64_t>(p.size(), std::max<int64_t>(1, n / std::max<int64_t>(grain, 1)));
  if (chunks <= 1 || Pool::in_worker) {
    fn(0, n);
    return;
  }
  // The caller is a participant too: mark it so nested calls run serially.
  bool was = Pool::in_worker;
  Pool::in_worker = true;
  p.run(static_cast<int>(chunks), [&](int i) {
    int64_t lo = n * i / chunks, hi = n * (i + 1) / chunks;
    fn(lo, hi);
  });
  Pool::in_worker = was;
}

}  // namespace strata::kernels
