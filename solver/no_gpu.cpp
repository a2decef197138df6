// The GPU backend's factory in a build without CUDA (kernel_batch.h).
#include "gpu_batch.h"

namespace martiandice::solver {

bool GpuBackendBuilt() { return false; }

absl::StatusOr<std::unique_ptr<GpuBackend>> MakeGpuBackend(int /*threads*/, int /*block_threads*/) {
  return absl::UnavailableError(
      "this build has no GPU backend: build with a CUDA compiler (nvcc) on the path");
}

}  // namespace martiandice::solver
