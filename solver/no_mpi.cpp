// MpiCluster::Join where there is no loading a plugin (WebAssembly).
#include "mpi_cluster.h"

namespace martiandice::solver {

absl::StatusOr<std::unique_ptr<MpiCluster>> MpiCluster::Join(double) {
  return absl::UnimplementedError("this build of martiandice has no MPI transport");
}

}  // namespace martiandice::solver
