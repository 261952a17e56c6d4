#include "parallel.h"

#include <cstdlib>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace strata::kernels {
namespace {

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
      ++generation_;
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
      pending_ = chunks - 1;
      ++generation_;
    }
    cv_.notify_all();
    fn(0);
    std::unique_lock<std::mutex> l(mu_);
    done_cv_.wait(l, [&] { return pending_ == 0; });
    fn_ = nullptr;
  }

 private:
  void work(int index) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(int)>* fn;
      {
        std::unique_lock<std::mutex> l(mu_);
        cv_.wait(l, [&] { return generation_ != seen; });
        seen = generation_;
        if (stop_) return;
        if (index >= chunks_) continue;
        fn = fn_;
      }
      in_worker = true;
      (*fn)(index);
      in_worker = false;
      std::lock_guard<std::mutex> l(mu_);
      if (--pending_ == 0) done_cv_.notify_one();
    }
  }

  int n_;
  std::vector<std::thread> threads_;
  std::mutex mu_, run_mu_;
  std::condition_variable cv_, done_cv_;
  uint64_t generation_ = 0;
  bool stop_ = false;
  const std::function<void(int)>* fn_ = nullptr;
  int chunks_ = 0;
  int pending_ = 0;

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
