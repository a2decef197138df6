// The game solve's ranks over MPI (docs/SCALING.md, "On a cluster"): one
// process per rank, started by `mpirun` (Debian's Open MPI), the ranks'
// collective an exchange (MPI's all-to-all of the sizes, then point to point)
// that gives up after a wait limit. The
// transport is a plugin, libmartiandice_mpi.so (mpi_transport.cpp), built
// when CMake finds MPI and loaded only by a process that joins a job: the
// CLI itself does not load Open MPI's libraries.
#pragma once

#include <cstdlib>
#include <memory>

#include "absl/status/statusor.h"
#include "solve_cluster.h"

namespace martiandice::solver {

// Shortest wait for the other ranks at a collective, in seconds; each wait
// may also last twice this rank's own work since its last collective (a
// level's work takes longer on a slower rank).
inline constexpr double kRankWaitSeconds = 300;

class MpiCluster : public SolveCluster {
 public:
  // Whether this process was started by an MPI launcher: Open MPI's or
  // PMIx's (any number of processes), or MPICH's with more than one.
  static bool Launched() {
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK"}) {
      if (std::getenv(name) != nullptr) return true;
    }
    const char* size = std::getenv("PMI_SIZE");
    return size != nullptr && std::atoi(size) > 1;
  }

  // Joins the job this process was launched in: loads the plugin (next to
  // the executable, or in LIBDIR/martiandice/ of its installed prefix) and
  // starts MPI (MPI_Init_thread, MPI_THREAD_FUNNELED: MPI is called from the
  // joining thread only). At most once a process. `wait_seconds` (> 0): the
  // shortest wait at a collective. Errors: Unimplemented when there is no
  // plugin (a build without MPI) or it cannot be loaded (the message says
  // why); Internal when MPI fails to start; FailedPrecondition for a second
  // join; InvalidArgument for the wait.
  static absl::StatusOr<std::unique_ptr<MpiCluster>> Join(double wait_seconds = kRankWaitSeconds);

  // Leaves the job (MPI_Finalize: waits for the other ranks to leave too).
  ~MpiCluster() override = default;

  // For a front end after an error no collective can follow (a rank gone,
  // IsTransportError in level_share.h): ends every rank of the job with exit
  // status `code` (MPI_Abort). Does not return.
  [[noreturn]] virtual void Abort(int code) = 0;
};

}  // namespace martiandice::solver

// The plugin's entry point (mpi_transport.cpp): joins the job, or returns
// null with the error's code and message in *code and message[0..size).
extern "C" martiandice::solver::MpiCluster* martiandice_mpi_join_v1(double wait_seconds, int* code,
                                                                    char* message,
                                                                    unsigned long size);
