// The CUDA backend of the turn batches (kernel_batch.h): one block of
// threads per turn solve, the solve's position records in shared memory, its
// outcome laws in a global scratch of the block's; the per-item logic is
// turn_kernel.h's. Built only when CMake finds a CUDA compiler, with
// --fmad=false so that every sum rounds as the CPU's (bit-identical tables).
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "kernel_batch.h"
#include "workers.h"

namespace martiandice::solver {
namespace {

constexpr int kMaxBlockThreads = 512;

// Zero-score cycles in flight per multiprocessor (TurnBatchSolver::
// CyclesInFlight): a lockstep round posts about P / 2 turns a cycle, so a
// batch gives each SM 4 P turns, several rounds of the blocks it runs at
// once, and fewer batches: the official 3-player solve's fall from 2,030 at
// 32 cycles to 657 from 512 on (martiandice_bench --batches 3), the floor its
// levels' slowest cycles set. The host holds about 47 KB a mover a cycle.
constexpr std::size_t kCyclesPerSm = 8;

// A CUDA error as a status: memory is ResourceExhausted.
absl::Status CudaStatus(cudaError_t error, const char* what) {
  if (error == cudaSuccess) return absl::OkStatus();
  const std::string message = absl::StrCat("GPU: ", what, ": ", cudaGetErrorString(error));
  if (error == cudaErrorMemoryAllocation) return absl::ResourceExhaustedError(message);
  return absl::InternalError(message);
}

#define MD_CUDA(call, what)                                              \
  do {                                                                   \
    if (absl::Status s_ = CudaStatus((call), what); !s_.ok()) return s_; \
  } while (0)

template <class Real, int W>
__global__ void __launch_bounds__(kMaxBlockThreads)
    SolveTurns(kernel::ModelView m, int jobs, int scores, const Real* stops,
               const unsigned* watched, const long long* policy, const int* range_lane,
               std::uint8_t* policies, Real* law_scratch, double* roll_scratch,
               std::uint8_t* mark_scratch, Real* start, long long* tied, long long* kingmaking,
               double* below, double* above) {
  extern __shared__ double node_shared[];  // m.positions * W Reals
  Real* const node = reinterpret_cast<Real*>(node_shared);
  __shared__ unsigned long long block_tied, block_kingmaking;
  Real* const laws = law_scratch + static_cast<long long>(blockIdx.x) * m.laws * W;
  double* const rolls = roll_scratch + static_cast<long long>(blockIdx.x) * m.positions * W;
  const int items = kernel::RangeReplay<W>::Items(m);
  std::uint8_t* const marks = mark_scratch + static_cast<long long>(blockIdx.x) * items;
  for (int j = blockIdx.x; j < jobs; j += gridDim.x) {
    kernel::JobViewOf<Real> job;
    job.stop = stops + static_cast<long long>(j) * scores * W;
    job.watched = watched[j];
    if (policy[j] >= 0) {
      job.rolls = policies + policy[j];
      job.picks = job.rolls + m.positions;
    }
    job.range_lane = range_lane[j];
    if (job.range_lane > 0) job.roll_records = rolls;
    if (threadIdx.x == 0) block_tied = block_kingmaking = 0;
    kernel::Tally tally;
    for (int level = 0; level <= m.dice; ++level) {
      const int law0 = m.law_begin[level], law_units = (m.law_begin[level + 1] - law0) * W;
      for (int u = threadIdx.x; u < law_units; u += blockDim.x) {
        kernel::LawLane<Real, W>(m, job, m.law_items[law0 + u / W], u % W, node, laws, &tally);
      }
      __syncthreads();
      const int id0 = m.level_begin[level], id_units = (m.level_begin[level + 1] - id0) * W;
      for (int u = threadIdx.x; u < id_units; u += blockDim.x) {
        kernel::PositionLane<Real, W>(m, job, m.level_ids[id0 + u / W], u % W, level, node, laws,
                                      &tally);
      }
      __syncthreads();
    }
    if (tally.tied != 0) atomicAdd(&block_tied, static_cast<unsigned long long>(tally.tied));
    if (tally.kingmaking != 0) {
      atomicAdd(&block_kingmaking, static_cast<unsigned long long>(tally.kingmaking));
    }
    __syncthreads();
    if (threadIdx.x < W)
      start[static_cast<long long>(j) * W + threadIdx.x] = node[m.start * W + threadIdx.x];
    if (threadIdx.x == 0) {
      tied[j] = static_cast<long long>(block_tied);
      kingmaking[j] = static_cast<long long>(block_kingmaking);
    }
    if constexpr (std::is_same_v<Real, double>) {  // a range: double solves only
      if (job.range_lane > 0) {  // the block marks the items that may narrow the range
        for (int i = threadIdx.x; i < items; i += blockDim.x) {
          kernel::RangeReplay<W>(m, job, node, marks).Mark(i);
        }
        __syncthreads();
      }
      if (threadIdx.x < 32) {  // the first warp replays the range's narrowing
        double b = 0, a = 0;
        if (job.range_lane > 0) {
          kernel::RangeReplay<W>(m, job, node, marks).Run(threadIdx.x, &b, &a);
        }
        if (threadIdx.x == 0) below[j] = b, above[j] = a;
      }
    } else if (threadIdx.x == 0) {
      below[j] = above[j] = 0;
    }
    __syncthreads();  // the records and counts read before the next job's
  }
}

// The settling passes' score laws (score_law_kernel.h): one block a law, the
// chances of the positions and the law in shared memory, the outcome laws'
// in a global scratch of the block's; `policies`: each job's rolls, then its
// picks, `policy_bytes` apart.
__global__ void __launch_bounds__(kMaxBlockThreads)
    ScoreLaws(kernel::ModelView m, kernel::LawPlanView p, int jobs, const std::uint8_t* policies,
              long long policy_bytes, kernel::Soft* law_reach_scratch, kernel::Soft* laws) {
  extern __shared__ double law_shared[];  // (positions + scores) SoftX87s
  kernel::Soft* const reach = reinterpret_cast<kernel::Soft*>(law_shared);
  const kernel::LawState state{
      reach, law_reach_scratch + static_cast<long long>(blockIdx.x) * p.laws, reach + p.positions};
  const int most = max(max(p.positions, p.laws), p.scores);
  for (int j = blockIdx.x; j < jobs; j += gridDim.x) {
    const std::uint8_t* const rolls = policies + j * policy_bytes;
    const std::uint8_t* const picks = rolls + p.positions;
    for (int i = threadIdx.x; i < most; i += blockDim.x) kernel::LawClear(p, i, state);
    __syncthreads();
    for (int level = p.dice; level >= 0; --level) {
      for (int phase = 0; phase < 2; ++phase) {
        const std::int32_t* b = &p.unit_begin[level * kernel::kLawUnitKinds + 2 * phase];
        for (int u = b[0] + threadIdx.x; u < b[2]; u += blockDim.x) {
          kernel::LawUnitRun(m, p, u < b[1] ? 2 * phase : 2 * phase + 1, p.units[u], rolls, picks,
                             state);
        }
        __syncthreads();
      }
    }
    for (int x = threadIdx.x; x < p.scores; x += blockDim.x) {
      laws[static_cast<long long>(j) * p.scores + x] = state.law[x];
    }
    __syncthreads();  // the law read before the next job's
  }
}

// A device array that only grows.
template <class T>
class DeviceArray {
 public:
  ~DeviceArray() { cudaFree(data_); }
  absl::Status Reserve(std::size_t n) {
    if (n <= size_) return absl::OkStatus();
    cudaFree(data_);
    data_ = nullptr;
    size_ = 0;
    MD_CUDA(cudaMalloc(&data_, std::max<std::size_t>(n, 1) * sizeof(T)), "allocating");
    size_ = n;
    return absl::OkStatus();
  }
  T* get() const { return data_; }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Pinned host memory that only grows (the policies copied back).
class PinnedArray {
 public:
  ~PinnedArray() { cudaFreeHost(data_); }
  absl::Status Reserve(std::size_t n) {
    if (n <= size_) return absl::OkStatus();
    cudaFreeHost(data_);
    data_ = nullptr;
    size_ = 0;
    MD_CUDA(cudaMallocHost(&data_, std::max<std::size_t>(n, 1)), "allocating pinned memory");
    size_ = n;
    return absl::OkStatus();
  }
  std::uint8_t* get() const { return static_cast<std::uint8_t*>(data_); }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

// One width's jobs in flight: host side packed, device side sized for them.
struct Flight {
  Flight() { jobs.external_policies = true; }
  KernelJobs jobs;
  PinnedArray host_policies;
  DeviceArray<double> stops, scratch, rolls, start, below, above;
  DeviceArray<unsigned> watched;
  DeviceArray<int> range_lane;
  DeviceArray<long long> policy, tied, kingmaking;
  DeviceArray<std::uint8_t> policies, marks;
};

// The score laws in flight: the policies packed (pinned), the laws back.
struct LawFlight {
  std::vector<std::size_t> request;  // the batch's index of each job
  PinnedArray host_policies;
  std::vector<kernel::Soft> host_laws;
  DeviceArray<std::uint8_t> policies;
  DeviceArray<kernel::Soft> law_reach, laws;
};

class CudaTurnBatch final : public TurnBatchSolver, public GpuBackend {
 public:
  CudaTurnBatch(int threads, int block_threads, cudaDeviceProp props)
      : pool_(threads), block_threads_(block_threads), props_(std::move(props)) {}
  ~CudaTurnBatch() override {
    for (void* array : model_arrays_) cudaFree(array);
    for (void* array : plan_arrays_) cudaFree(array);
    if (begin_ != nullptr) cudaEventDestroy(begin_);
    if (end_ != nullptr) cudaEventDestroy(end_);
    if (stream_ != nullptr) cudaStreamDestroy(stream_);
  }

  absl::Status Init() {
    MD_CUDA(cudaStreamCreate(&stream_), "creating a stream");
    MD_CUDA(cudaEventCreate(&begin_), "creating an event");
    return CudaStatus(cudaEventCreate(&end_), "creating an event");
  }

  absl::Status Solve(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                     std::span<TurnResult> results) override {
    if (requests.size() != results.size()) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "a turn batch of %d requests got %d results", requests.size(), results.size()));
    }
    if (requests.empty()) return absl::OkStatus();
    pending_.clear();  // a failed batch's leftovers
    if (absl::Status s = Upload(model); !s.ok()) return s;
    KernelSplit split = SplitRequests(requests);
    const auto begin = std::chrono::steady_clock::now();
    MD_CUDA(cudaEventRecord(begin_, stream_), "recording an event");
    for (int wide = 0; wide < 2; ++wide) {
      for (int width = 2; width <= kernel::kMaxWidth; ++width) {
        std::vector<std::size_t>& jobs = split.jobs[wide][width];
        if (jobs.empty()) continue;
        if (SharedBytes(wide, width) > props_.sharedMemPerBlockOptin) {  // too big: the CPU's
          split.cpu.insert(split.cpu.end(), jobs.begin(), jobs.end());
          jobs.clear();
          continue;
        }
        if (absl::Status s = Launch(model, requests, jobs, wide, width); !s.ok()) return s;
      }
    }
    if (!split.laws.empty()) {
      if (absl::Status s = LaunchLaws(requests, split.laws); !s.ok()) return s;
    }
    // The CPU's share while the GPU runs.
    const std::vector<std::size_t>& host = split.cpu;
    if (plain_.size() < static_cast<std::size_t>(pool_.threads())) plain_.resize(pool_.threads());
    absl::Status cpu = pool_.ForEach(host.size(), [&](int worker, std::size_t i) {
      SolveTurn(model, requests[host[i]], plain_[worker].data(), &results[host[i]]);
    });
    absl::Status gpu = Collect();
    if (!cpu.ok()) return cpu;
    if (!gpu.ok()) return gpu;
    if (absl::Status s = ReadBack(model, requests, results, split); !s.ok()) return s;
    ++stats_.batches;
    stats_.host_turns += static_cast<long long>(host.size());
    stats_.device_laws += static_cast<long long>(split.laws.size());
    stats_.device_turns +=
        static_cast<long long>(requests.size() - host.size() - split.laws.size());
    stats_.device_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return absl::OkStatus();
  }

  // The kernel and this backend's own CPU workers: never the game solve's.
  bool SolvesBesideSteps() const override { return true; }
  // The device computes the settling passes' laws too (score_law_kernel.h).
  bool SolvesScoreLaws() const override { return score_laws_; }
  // kCyclesPerSm cycles a multiprocessor (1,056 on an H100 SXM or H200).
  std::size_t CyclesInFlight(int) const override {
    return std::clamp<std::size_t>(
        kCyclesPerSm * static_cast<std::size_t>(std::max(props_.multiProcessorCount, 1)),
        kCyclesInFlight, kMaxCyclesInFlight);
  }
  void SetScoreLaws(bool on_gpu) override { score_laws_ = on_gpu; }
  TurnBatchSolver& batch() override { return *this; }
  DeviceBatchStats stats() const override { return stats_; }
  std::string device() const override {
    return absl::StrFormat("%s, %.1f GiB", props_.name,
                           static_cast<double>(props_.totalGlobalMem) / (1 << 30));
  }

 private:
  // The kernels' time, then the results unpacked on the CPU's workers, in
  // chunks of jobs.
  absl::Status ReadBack(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                        std::span<TurnResult> results, const KernelSplit& split) {
    if (!pending_.empty()) {
      float ms = 0;
      MD_CUDA(cudaEventElapsedTime(&ms, begin_, end_), "timing the kernels");
      stats_.kernel_seconds += ms / 1000.0;
    }
    pending_.clear();
    const LawFlight& l = laws_;
    const int scores = flat_->scores();
    absl::Status read = pool_.ForEach(split.laws.size(), [&](int, std::size_t j) {
      std::vector<internal::Wide>& law = results[l.request[j]].score_law;
      law.resize(static_cast<std::size_t>(scores));
      for (int x = 0; x < scores; ++x) {
        law[x] = internal::WideFromSoftX87(l.host_laws[j * scores + x]);
      }
    });
    if (!read.ok()) return read;
    for (int wide = 0; wide < 2; ++wide) {
      for (int width = 2; width <= kernel::kMaxWidth; ++width) {
        if (split.jobs[wide][width].empty()) continue;
        const KernelJobs& jobs = flights_[wide][width].jobs;
        constexpr std::size_t kChunk = 64;
        absl::Status unpacked =
            pool_.ForEach((jobs.size() + kChunk - 1) / kChunk, [&](int, std::size_t c) {
              jobs.Unpack(model, requests, results, c * kChunk,
                          std::min(jobs.size(), (c + 1) * kChunk));
            });
        if (!unpacked.ok()) return unpacked;
      }
    }
    return absl::OkStatus();
  }

  // A block's shared memory: the position records, in double or SoftX87.
  std::size_t SharedBytes(int wide, int width) const {
    return static_cast<std::size_t>(flat_->view().positions) * width *
           (wide ? sizeof(kernel::Soft) : sizeof(double));
  }

  // `arrays` copied to the device, into *on_device (whose earlier arrays are freed).
  static absl::Status CopyArrays(const std::vector<KernelModel::Array>& arrays,
                                 std::vector<void*>* on_device) {
    for (void* array : *on_device) cudaFree(array);
    on_device->clear();
    for (const KernelModel::Array& a : arrays) {
      void* device = nullptr;
      MD_CUDA(cudaMalloc(&device, std::max<std::size_t>(a.bytes, 1)), "allocating the model");
      on_device->push_back(device);
      MD_CUDA(cudaMemcpy(device, a.data, a.bytes, cudaMemcpyHostToDevice), "copying the model");
    }
    return absl::OkStatus();
  }

  // The model's arrays on the device, once per model.
  absl::Status Upload(const internal::TurnModel& model) {
    if (flat_ != nullptr && flat_->Of(model)) return absl::OkStatus();
    flat_ = std::make_unique<KernelModel>(model);
    if (absl::Status s = CopyArrays(flat_->Arrays(), &model_arrays_); !s.ok()) return s;
    device_view_ = flat_->view();
    void* const* d = model_arrays_.data();
    device_view_.level_begin = static_cast<const std::int32_t*>(d[0]);
    device_view_.level_ids = static_cast<const std::int32_t*>(d[1]);
    device_view_.law_begin = static_cast<const std::int32_t*>(d[2]);
    device_view_.law_items = static_cast<const kernel::Law*>(d[3]);
    device_view_.score = static_cast<const std::uint8_t*>(d[4]);
    device_view_.term_begin = static_cast<const std::int32_t*>(d[5]);
    device_view_.terms = static_cast<const kernel::Term*>(d[6]);
    device_view_.term_wide = static_cast<const kernel::Soft*>(d[7]);
    device_view_.classes = static_cast<const kernel::Class*>(d[8]);
    device_view_.earth_child = static_cast<const std::int32_t*>(d[9]);
    device_view_.choice_begin = static_cast<const std::int32_t*>(d[10]);
    device_view_.choices = static_cast<const kernel::ChoiceItem*>(d[11]);
    // The settling passes' plan likewise.
    plan_ = std::make_unique<KernelLawPlan>(model, *flat_);
    if (absl::Status s = CopyArrays(plan_->Arrays(), &plan_arrays_); !s.ok()) return s;
    device_plan_ = plan_->view();
    void* const* q = plan_arrays_.data();
    device_plan_.unit_begin = static_cast<const std::int32_t*>(q[0]);
    device_plan_.units = static_cast<const kernel::LawUnit*>(q[1]);
    device_plan_.stop_src = static_cast<const std::int32_t*>(q[2]);
    device_plan_.term_src = static_cast<const kernel::TermSource*>(q[3]);
    device_plan_.run_src = static_cast<const std::int32_t*>(q[4]);
    // The host copy's rows stay for the host-side reads (start, sizes) only.
    return absl::OkStatus();
  }

  // The kernel of width W on `f`'s jobs (its shared memory set by Occupancy).
  template <class Real, int W>
  absl::Status LaunchWidth(Flight& f, int blocks) {
    constexpr int kWide = std::is_same_v<Real, kernel::Soft>;
    SolveTurns<Real, W><<<blocks, block_threads_, SharedBytes(kWide, W), stream_>>>(
        device_view_, static_cast<int>(f.jobs.size()), flat_->scores(),
        reinterpret_cast<const Real*>(f.stops.get()), f.watched.get(), f.policy.get(),
        f.range_lane.get(), f.policies.get(), reinterpret_cast<Real*>(f.scratch.get()),
        f.rolls.get(), f.marks.get(), reinterpret_cast<Real*>(f.start.get()), f.tied.get(),
        f.kingmaking.get(), f.below.get(), f.above.get());
    return CudaStatus(cudaGetLastError(), "launching the turn solves");
  }

  // The kernel of width W allowed its shared memory, and how many of its
  // blocks an SM runs at once.
  template <class Real, int W>
  absl::Status Occupancy(int* per_sm) {
    constexpr int kWide = std::is_same_v<Real, kernel::Soft>;
    MD_CUDA(cudaFuncSetAttribute(SolveTurns<Real, W>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(SharedBytes(kWide, W))),
            "setting the shared memory");
    return CudaStatus(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                          per_sm, SolveTurns<Real, W>, block_threads_, SharedBytes(kWide, W)),
                      "sizing the grid");
  }

  // f(Real, W) for `f`'s arithmetic and width (kernel templates' arguments).
  template <class F>
  absl::Status ForJobs(int wide, int width, F&& f) {
    return ForWidth(width, [&](auto w) { return wide ? f(kernel::Soft(), w) : f(0.0, w); });
  }

  // Packs, copies in and starts one width's jobs (asynchronously).
  absl::Status Launch(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                      const std::vector<std::size_t>& indices, int wide, int width) {
    Flight& f = flights_[wide][width];
    f.jobs.Pack(model, requests, indices, width, wide != 0);
    const std::size_t n = f.jobs.size();
    // The records' size in doubles (the arrays' unit).
    const std::size_t per = wide ? sizeof(kernel::Soft) / sizeof(double) : 1;
    static_assert(sizeof(kernel::Soft) % sizeof(double) == 0);
    int per_sm = 0;
    if (absl::Status s = ForJobs(wide, width,
                                 [&](auto real, auto w) {
                                   return Occupancy<decltype(real), decltype(w)::value>(&per_sm);
                                 });
        !s.ok()) {
      return s;
    }
    const int blocks = static_cast<int>(std::min<std::size_t>(
        n, static_cast<std::size_t>(std::max(per_sm, 1)) * props_.multiProcessorCount));
    const std::size_t stop_count = wide ? f.jobs.wide_stop.size() : f.jobs.stop.size();
    if (absl::Status s = f.stops.Reserve(stop_count * per); !s.ok()) return s;
    if (absl::Status s =
            f.scratch.Reserve(static_cast<std::size_t>(blocks) * flat_->view().laws * width * per);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = f.rolls.Reserve(
            wide ? 1 : static_cast<std::size_t>(blocks) * flat_->view().positions * width);
        !s.ok()) {
      return s;
    }
    if (absl::Status s = f.marks.Reserve(wide ? 1
                                              : static_cast<std::size_t>(blocks) *
                                                    kernel::RangeReplay<2>::Items(flat_->view()));
        !s.ok()) {
      return s;
    }
    if (absl::Status s = f.start.Reserve(n * width * per); !s.ok()) return s;
    if (absl::Status s = f.below.Reserve(n); !s.ok()) return s;
    if (absl::Status s = f.above.Reserve(n); !s.ok()) return s;
    if (absl::Status s = f.range_lane.Reserve(n); !s.ok()) return s;
    if (absl::Status s = f.watched.Reserve(n); !s.ok()) return s;
    if (absl::Status s = f.policy.Reserve(n); !s.ok()) return s;
    if (absl::Status s = f.tied.Reserve(n); !s.ok()) return s;
    if (absl::Status s = f.kingmaking.Reserve(n); !s.ok()) return s;
    if (absl::Status s = f.policies.Reserve(f.jobs.policy_bytes); !s.ok()) return s;
    if (absl::Status s = f.host_policies.Reserve(f.jobs.policy_bytes); !s.ok()) return s;
    f.jobs.policy_source = f.host_policies.get();
    static_assert(sizeof(long long) == sizeof(std::int64_t));
    const void* stops = wide ? static_cast<const void*>(f.jobs.wide_stop.data())
                             : static_cast<const void*>(f.jobs.stop.data());
    MD_CUDA(cudaMemcpyAsync(f.stops.get(), stops, stop_count * per * sizeof(double),
                            cudaMemcpyHostToDevice, stream_),
            "copying the turns");
    MD_CUDA(cudaMemcpyAsync(f.watched.get(), f.jobs.watched.data(), n * sizeof(unsigned),
                            cudaMemcpyHostToDevice, stream_),
            "copying the turns");
    MD_CUDA(cudaMemcpyAsync(f.policy.get(), f.jobs.policy.data(), n * sizeof(long long),
                            cudaMemcpyHostToDevice, stream_),
            "copying the turns");
    MD_CUDA(cudaMemcpyAsync(f.range_lane.get(), f.jobs.range_lane.data(), n * sizeof(int),
                            cudaMemcpyHostToDevice, stream_),
            "copying the turns");
    if (absl::Status s = ForJobs(wide, width,
                                 [&](auto real, auto w) {
                                   return LaunchWidth<decltype(real), decltype(w)::value>(f,
                                                                                          blocks);
                                 });
        !s.ok()) {
      return s;
    }
    ++stats_.launches;
    pending_.push_back(wide * (kernel::kMaxWidth + 1) + width);
    return absl::OkStatus();
  }

  std::size_t LawSharedBytes() const {
    return static_cast<std::size_t>(flat_->view().positions + flat_->scores()) *
           sizeof(kernel::Soft);
  }

  // Packs, copies in and starts the score laws (asynchronously).
  absl::Status LaunchLaws(std::span<const TurnRequest> requests,
                          const std::vector<std::size_t>& indices) {
    LawFlight& l = laws_;
    const kernel::LawPlanView& p = plan_->view();
    const std::size_t n = indices.size();
    const std::size_t bytes = static_cast<std::size_t>(p.positions + flat_->law_classes());
    l.request = indices;
    if (absl::Status s = l.host_policies.Reserve(n * bytes); !s.ok()) return s;
    absl::Status packed = pool_.ForEach(n, [&](int, std::size_t j) {
      const internal::ConventionPolicy& policy = *requests[indices[j]].policy;
      std::uint8_t* to = l.host_policies.get() + j * bytes;
      std::copy(policy.rolls.begin(), policy.rolls.end(), to);
      std::copy(policy.take.begin(), policy.take.end(), to + p.positions);
    });
    if (!packed.ok()) return packed;
    MD_CUDA(cudaFuncSetAttribute(ScoreLaws, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(LawSharedBytes())),
            "setting the shared memory");
    int per_sm = 0;
    MD_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ScoreLaws, block_threads_,
                                                          LawSharedBytes()),
            "sizing the grid");
    const int blocks = static_cast<int>(std::min<std::size_t>(
        n, static_cast<std::size_t>(std::max(per_sm, 1)) * props_.multiProcessorCount));
    if (absl::Status s = l.policies.Reserve(n * bytes); !s.ok()) return s;
    if (absl::Status s = l.law_reach.Reserve(static_cast<std::size_t>(blocks) * p.laws); !s.ok()) {
      return s;
    }
    if (absl::Status s = l.laws.Reserve(n * p.scores); !s.ok()) return s;
    l.host_laws.resize(n * p.scores);
    MD_CUDA(cudaMemcpyAsync(l.policies.get(), l.host_policies.get(), n * bytes,
                            cudaMemcpyHostToDevice, stream_),
            "copying the policies");
    ScoreLaws<<<blocks, block_threads_, LawSharedBytes(), stream_>>>(
        device_view_, device_plan_, static_cast<int>(n), l.policies.get(),
        static_cast<long long>(bytes), l.law_reach.get(), l.laws.get());
    MD_CUDA(cudaGetLastError(), "launching the score laws");
    ++stats_.launches;
    pending_.push_back(kLawsPending);
    return absl::OkStatus();
  }

  // Waits for the launches and copies their results back.
  absl::Status Collect() {
    absl::Status status;
    for (int pending : pending_) {
      if (pending == kLawsPending) {
        if (status.ok()) {
          status.Update(CudaStatus(cudaMemcpyAsync(laws_.host_laws.data(), laws_.laws.get(),
                                                   laws_.host_laws.size() * sizeof(kernel::Soft),
                                                   cudaMemcpyDeviceToHost, stream_),
                                   "copying the laws"));
        }
        continue;
      }
      const int wide = pending / (kernel::kMaxWidth + 1), width = pending % (kernel::kMaxWidth + 1);
      Flight& f = flights_[wide][width];
      const std::size_t n = f.jobs.size();
      auto copy = [&](void* to, const void* from, std::size_t bytes) {
        if (status.ok() && bytes > 0) {
          status.Update(
              CudaStatus(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToHost, stream_),
                         "copying the results"));
        }
      };
      if (wide) {
        copy(f.jobs.wide_start.data(), f.start.get(), n * width * sizeof(kernel::Soft));
      } else {
        copy(f.jobs.start.data(), f.start.get(), n * width * sizeof(double));
      }
      copy(f.jobs.tied.data(), f.tied.get(), n * sizeof(long long));
      copy(f.jobs.kingmaking.data(), f.kingmaking.get(), n * sizeof(long long));
      copy(f.jobs.below.data(), f.below.get(), n * sizeof(double));
      copy(f.jobs.above.data(), f.above.get(), n * sizeof(double));
      copy(f.host_policies.get(), f.policies.get(), f.jobs.policy_bytes);
    }
    if (!pending_.empty() && status.ok()) {
      status.Update(CudaStatus(cudaEventRecord(end_, stream_), "recording an event"));
    }
    const absl::Status sync = CudaStatus(cudaStreamSynchronize(stream_), "solving the turns");
    return status.ok() ? sync : status;
  }

  WorkerPool pool_;
  const int block_threads_;
  bool score_laws_ = true;
  std::vector<std::array<internal::TurnValues, 2>> plain_;
  cudaDeviceProp props_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t begin_ = nullptr, end_ = nullptr;  // around a batch's copies and kernels
  std::unique_ptr<KernelModel> flat_;
  std::vector<void*> model_arrays_;
  kernel::ModelView device_view_;
  Flight flights_[2][kernel::kMaxWidth + 1];  // [extended][width]
  std::unique_ptr<KernelLawPlan> plan_;
  std::vector<void*> plan_arrays_;
  kernel::LawPlanView device_plan_;
  LawFlight laws_;
  // The launches to collect: wide * (kMaxWidth + 1) + width, or kLawsPending.
  static constexpr int kLawsPending = -1;
  std::vector<int> pending_;
  DeviceBatchStats stats_;
};

}  // namespace

bool GpuBackendBuilt() { return true; }

absl::StatusOr<std::unique_ptr<GpuBackend>> MakeGpuBackend(int threads, int block_threads) {
  if (block_threads == 0) block_threads = kDefaultBlockThreads;
  if (block_threads < 32 || block_threads > kMaxBlockThreads || block_threads % 32 != 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("GPU block threads must be a multiple of 32 from 32 to %d; got %d",
                        kMaxBlockThreads, block_threads));
  }
  int count = 0;
  if (cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess || count == 0) {
    (void)cudaGetLastError();  // clear it
    return absl::UnavailableError(
        absl::StrCat("no usable GPU: ", error != cudaSuccess ? cudaGetErrorString(error)
                                                             : "the CUDA runtime found no device"));
  }
  if (cudaError_t error = cudaSetDevice(0); error != cudaSuccess) {
    return absl::UnavailableError(absl::StrCat("no usable GPU: ", cudaGetErrorString(error)));
  }
  cudaDeviceProp props;
  if (cudaError_t error = cudaGetDeviceProperties(&props, 0); error != cudaSuccess) {
    return absl::UnavailableError(absl::StrCat("no usable GPU: ", cudaGetErrorString(error)));
  }
  auto batch = std::make_unique<CudaTurnBatch>(std::max(threads, 1), block_threads, props);
  if (absl::Status s = batch->Init(); !s.ok()) return s;
  return std::unique_ptr<GpuBackend>(std::move(batch));
}

}  // namespace martiandice::solver
