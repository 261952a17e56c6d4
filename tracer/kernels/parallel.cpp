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

// Workers wait for a generation number to change, run their chunk, and count down.
class Pool {
 public:
  explicit Pool(int n) : n_(n) {
    for (int i = 1; i < n_; ++i) threads_.emplace_back([this, i] { work(i); });
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

  // Runs fn(i) for i in [0, chunks), chunks <= size(); the caller runs chunk 0.
  void run(int chunks, const std::function<void(int)>& fn) {
    std::lock_guard<std::mutex> serial(run_mu_);
    {
      std::lock_guard<std::mutex> l(mu_);
      fn_ = &fn;
      chunks_ = chunks;
      pending_.store(chunks - 1, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
    }
    cv_.notify_all();
    fn(0);
    spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> l(mu_);
    done_cv_.wait(l, [&] { return pending_.load(std::memory_order_acquire) == 0; });
    fn_ = nullptr;
  }

 private:
  void work(int index) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* fn;
      spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
        seen = generation_.load(std::memory_order_relaxed);
        if (stop_) return;
        if (index >= chunks_) continue;
        fn = fn_;
      }
      in_worker = true;
      (*fn)(index);
      in_worker = false;
      std::lock_guard<std::mutex> l(mu_);
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_cv_.notify_one();
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
  std::atomic<int> pending_{0};  // likewise

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
