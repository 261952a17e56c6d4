// The MPI transport (MpiTransport.h). Each collective is issued non-blocking and polled, so
// that a rank that died or a collective issued out of order ends in an error after the
// timeout instead of a hang (mpirun itself ends the job, naming the rank, when a rank exits
// with an error first). One sub-communicator per process group, made by MPI_Comm_split the
// first time the group is used (every rank reaches that collective at once: collectives are
// issued in one order on every rank).
#define OMPI_SKIP_MPICXX 1
#include "MpiTransport.h"

#include <mpi.h>

#include <chrono>
#include <climits>
#include <cstdlib>
#include <map>
#include <mutex>
#include <thread>
#include <utility>

#include "strata/errors.h"

namespace strata::distributed::mpi {
namespace {

namespace cr = collective_rules;
using collectives::Group;
using collectives::Kind;

void check(int rc, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  throw Error(std::string("distributed: ") + what + " failed: " + std::string(text, static_cast<size_t>(len)));
}

MPI_Datatype type_of(DType t) {
  switch (t) {
    case DType::f32: return MPI_FLOAT;
    case DType::f64: return MPI_DOUBLE;
    case DType::i8: return MPI_INT8_T;
    case DType::i16: return MPI_INT16_T;
    case DType::i32: return MPI_INT32_T;
    case DType::i64: return MPI_INT64_T;
    case DType::u8: return MPI_UINT8_T;
    case DType::u16: return MPI_UINT16_T;
    case DType::u32: return MPI_UINT32_T;
    case DType::u64: return MPI_UINT64_T;
    case DType::c64: return MPI_C_FLOAT_COMPLEX;  // summed by MPI_SUM; pmax/pmin refuse complex
    case DType::c128: return MPI_C_DOUBLE_COMPLEX;
    default: return MPI_DATATYPE_NULL;
  }
}
// pmax/pmin of floats propagate NaN, as reduce_max and the vmap rule do (MPI_MAX leaves NaN
// to the implementation's comparisons).
template <class T, bool kMax>
void nan_extremum(void* in, void* inout, int* len, MPI_Datatype*) {
  const T* a = static_cast<const T*>(in);
  T* b = static_cast<T*>(inout);
  for (int i = 0; i < *len; ++i) {
    if (a[i] != a[i] || b[i] != b[i]) b[i] = a[i] != a[i] ? a[i] : b[i];
    else if (kMax ? a[i] > b[i] : a[i] < b[i]) b[i] = a[i];
  }
}
struct FloatOps {
  MPI_Op max32, min32, max64, min64;
  FloatOps() {
    MPI_Op_create(&nan_extremum<float, true>, 1, &max32);
    MPI_Op_create(&nan_extremum<float, false>, 1, &min32);
    MPI_Op_create(&nan_extremum<double, true>, 1, &max64);
    MPI_Op_create(&nan_extremum<double, false>, 1, &min64);
  }
};
MPI_Op op_of(Kind k, DType t) {
  if (k == Kind::kPsum) return MPI_SUM;
  if (t == DType::f32 || t == DType::f64) {
    static const FloatOps ops;  // made after MPI_Init, on the first float pmax/pmin
    if (t == DType::f32) return k == Kind::kPmax ? ops.max32 : ops.min32;
    return k == Kind::kPmax ? ops.max64 : ops.min64;
  }
  return k == Kind::kPmax ? MPI_MAX : MPI_MIN;
}

int count_of(int64_t n, const char* what) {
  if (n > INT_MAX) throw ValueError(std::string("distributed: ") + what + " of " + std::to_string(n) +
                                    " elements is more than one MPI call moves (2^31 - 1)");
  return static_cast<int>(n);
}

class MpiTransport final : public collectives::Transport {
 public:
  explicit MpiTransport(const Options& o) : timeout_(o.timeout_seconds) {
    check(MPI_Comm_dup(MPI_COMM_WORLD, &world_), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(world_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(world_, &rank_);
    MPI_Comm_size(world_, &size_);
  }
  std::string_view name() const override { return "mpi"; }
  int64_t world_size() const override { return size_; }
  int64_t world_rank() const override { return rank_; }
  bool native(DType t) const override { return type_of(t) != MPI_DATATYPE_NULL; }

  void all_reduce(const Group& g, const void* in, void* out, int64_t count, DType t, Kind reduce) override {
    std::lock_guard<std::mutex> lock(mu_);
    MPI_Request r;
    check(MPI_Iallreduce(in == out ? MPI_IN_PLACE : in, out, count_of(count, "an all-reduce"), type_of(t),
                         op_of(reduce, t), comm(g), &r),
          "MPI_Iallreduce");
    wait(r, cr::kind_name(reduce), g);
  }
  void reduce_scatter(const Group& g, const void* in, void* out, int64_t count, DType t, Kind reduce) override {
    std::lock_guard<std::mutex> lock(mu_);
    MPI_Request r;
    check(MPI_Ireduce_scatter_block(in, out, count_of(count, "a reduce-scatter"), type_of(t), op_of(reduce, t), comm(g), &r),
          "MPI_Ireduce_scatter_block");
    wait(r, "psum_scatter", g);
  }
  void all_gather(const Group& g, const void* in, void* out, int64_t bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    MPI_Request r;
    int n = count_of(bytes, "an all-gather");
    check(MPI_Iallgather(in, n, MPI_BYTE, out, n, MPI_BYTE, comm(g), &r), "MPI_Iallgather");
    wait(r, "all_gather", g);
  }
  void all_to_all(const Group& g, const void* in, void* out, int64_t bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    MPI_Request r;
    int n = count_of(bytes, "an all-to-all");
    check(MPI_Ialltoall(in, n, MPI_BYTE, out, n, MPI_BYTE, comm(g), &r), "MPI_Ialltoall");
    wait(r, "all_to_all", g);
  }
  void send_recv(const Group& g, const void* in, int64_t to, void* out, int64_t from, int64_t bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    int n = count_of(bytes, "a ppermute");
    MPI_Comm c = comm(g);
    MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    constexpr int kTag = 18;
    if (from >= 0) check(MPI_Irecv(out, n, MPI_BYTE, static_cast<int>(from), kTag, c, &r[0]), "MPI_Irecv");
    if (to >= 0) check(MPI_Isend(in, n, MPI_BYTE, static_cast<int>(to), kTag, c, &r[1]), "MPI_Isend");
    wait(r[0], "ppermute", g);
    wait(r[1], "ppermute", g);
  }

 private:
  // The communicator of the calling rank's group (members ordered by their index in it).
  MPI_Comm comm(const Group& g) {
    auto key = std::make_pair(g.mesh, g.dims);
    auto it = comms_.find(key);
    if (it != comms_.end()) return it->second;
    // MPI_Comm_split blocks until every rank calls it: a barrier we can time out on first, so a
    // rank that never arrives is an error here too.
    MPI_Request r;
    check(MPI_Ibarrier(world_, &r), "MPI_Ibarrier");
    wait(r, "a new process group's set-up", Group{{size_}, {0}});
    MPI_Comm c;
    check(MPI_Comm_split(world_, static_cast<int>(cr::color_of(g, rank_)), static_cast<int>(cr::index_of(g, rank_)), &c),
          "MPI_Comm_split");
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    return comms_[key] = c;
  }

  void wait(MPI_Request& r, std::string_view op, const Group& g) {
    if (r == MPI_REQUEST_NULL) return;
    using clock = std::chrono::steady_clock;
    const auto start = clock::now();
    for (int spins = 0;; ++spins) {
      int done = 0;
      check(MPI_Test(&r, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (done) return;
      if (spins < 4096) continue;  // short collectives: poll
      std::this_thread::sleep_for(std::chrono::microseconds(spins < 65536 ? 0 : 200));
      if ((spins & 255) == 0 && std::chrono::duration<double>(clock::now() - start).count() > timeout_) {
        std::string ranks;
        for (int64_t k = 0; k < cr::size(g); ++k) ranks += (k ? ", " : "") + std::to_string(cr::member(g, rank_, k));
        throw Error("distributed: " + std::string(op) + " on rank " + std::to_string(rank_) + " (group of ranks " +
                    ranks + ") did not complete in " + std::to_string(static_cast<int>(timeout_)) +
                    " s: a rank of the group failed or stopped, or the ranks issue collectives in different "
                    "orders (STRATA_COLLECTIVE_TIMEOUT sets the limit)");
      }
    }
  }

  double timeout_;
  MPI_Comm world_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
  std::mutex mu_;
  std::map<std::pair<std::vector<int64_t>, std::vector<int64_t>>, MPI_Comm> comms_;
};

void finalize_at_exit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

}  // namespace

std::shared_ptr<collectives::Transport> start(const Options& options) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
    std::atexit(finalize_at_exit);
  }
  return std::make_shared<MpiTransport>(options);
}

std::string processor_name() {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  return std::string(name, static_cast<size_t>(len));
}

}  // namespace strata::distributed::mpi
