// distributed/MpiTransport.h — the collectives' transport over MPI (Open MPI from Debian), for
// st::distributed::initialize. Plain C++: no MPI type in this header.
#pragma once

#include <memory>
#include <string>

#include "collectives.h"

namespace strata::distributed::mpi {

struct Options {
  // A collective that has not completed after this many seconds throws, naming its group
  // (a rank failed, or the ranks issue collectives in different orders); never a hang.
  double timeout_seconds = 300;
};

// Initializes MPI (once; MPI_THREAD_SERIALIZED: calls are serialized by the transport) from the
// launcher's environment and returns the transport over MPI_COMM_WORLD. MPI is finalized at exit.
std::shared_ptr<collectives::Transport> start(const Options& options);
// The host this process runs on (MPI_Get_processor_name).
std::string processor_name();

}  // namespace strata::distributed::mpi
