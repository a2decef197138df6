// The game solve's GPU backend, as its users (the CLI, the benchmark) see
// it: a turn batch solver (turn_batch.h) on a CUDA device, made when the
// build has one (CMake found a CUDA compiler) and a device is there.
#pragma once

#include <memory>
#include <string>

#include "absl/status/statusor.h"

namespace martiandice::solver {

class TurnBatchSolver;  // turn_batch.h

// What the backend did, summed over its batches.
struct DeviceBatchStats {
  long long device_turns = 0;  // turns the GPU solved
  long long device_laws = 0;   // settling passes' score laws it computed
  long long host_turns = 0;    // turns the CPU's workers solved beside it
  long long batches = 0;       // batches solved (Solve calls)
  long long launches = 0;      // kernel launches
  double device_seconds = 0;   // wall time of the batches that used the GPU
  double kernel_seconds = 0;   // the GPU's time in them: copies in, kernels, copies out
};

// A GPU and the CPU workers beside it, solving the game solve's turns.
// Not thread-safe: one game solve at a time.
class GpuBackend {
 public:
  virtual ~GpuBackend() = default;
  // For GameSolveOptions::turn_batch. Its Solve meets turn_batch.h's
  // contract, bit for bit: the kernel does the CPU's arithmetic in the CPU's
  // order (turn_kernel.h). Requests the kernel does not take (kernel_batch.h:
  // KernelTakes) go to the CPU workers, solved while the GPU runs. Errors of
  // the device come back from Solve as statuses (ResourceExhausted: its
  // memory; Internal: any other).
  virtual TurnBatchSolver& batch() = 0;
  // Whether the settling passes' score laws go to the GPU (true, the
  // default) or stay on the game solve's threads (each settling round then
  // needs no batch of its own).
  virtual void SetScoreLaws(bool on_gpu) = 0;
  virtual DeviceBatchStats stats() const = 0;
  // The device's name and memory, e.g. "NVIDIA H100 80GB HBM3, 79.2 GiB".
  virtual std::string device() const = 0;
};

// Whether this build has the CUDA backend.
bool GpuBackendBuilt();

// Threads per block of the kernel (one block a turn) unless told otherwise.
inline constexpr int kDefaultBlockThreads = 256;

// The backend on the first CUDA device, with `threads` (>= 1) CPU workers
// and `block_threads` threads to a turn's block (0: kDefaultBlockThreads;
// else a multiple of 32 up to 512, else InvalidArgument). Unavailable: a
// build without CUDA, or no usable device (the CUDA runtime's reason: no
// driver, no device, a driver too old).
absl::StatusOr<std::unique_ptr<GpuBackend>> MakeGpuBackend(int threads, int block_threads = 0);

}  // namespace martiandice::solver
