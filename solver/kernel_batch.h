// The turn batches of the GPU backend: which requests the kernels
// (turn_kernel.h, score_law_kernel.h) take, the turn model and the settling
// passes' plan flattened for them, a batch packed for them and its results
// read back, and the host emulation of the kernels' thread schedules. The CUDA backend
// (cuda_turn_batch.cu) and the emulation share all of it but the launch, so the CPU tests check
// what the GPU runs. Internal to the solver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "gpu_batch.h"
#include "score_law_kernel.h"
#include "turn_batch.h"
#include "turn_kernel.h"

namespace martiandice::solver {

// Whether the kernel solves `request` (else the CPU's workers do): the
// convention solve with 1..internal::kMaxCarried lanes, in double (its
// policy and the range of utility[0] recorded or not) or in extended
// precision (in SoftX87, which rounds as x87 does; no policy recorded).
bool KernelTakes(const TurnRequest& request);

// The turn model flattened (kernel::ModelView over vectors of its own).
class KernelModel {
 public:
  explicit KernelModel(const internal::TurnModel& model);
  const kernel::ModelView& view() const { return view_; }
  // Whether it is `model`'s (the same model, or one of the same dice and
  // bonus built anew at its address: the same numbers).
  bool Of(const internal::TurnModel& model) const;
  int scores() const { return scores_; }            // MaxScore() + 1
  int law_classes() const { return law_classes_; }  // LawClassCount()
  // Bytes of each array, for copying them to a device: the view's pointers
  // in the order of ModelView's fields.
  struct Array {
    const void* data;
    std::size_t bytes;
  };
  std::vector<Array> Arrays() const;

 private:
  const void* source_;
  int dice_, bonus_, scores_, law_classes_;
  std::vector<std::int32_t> level_begin_, level_ids_, law_begin_, term_begin_, earth_child_;
  std::vector<kernel::Law> law_items_;
  std::vector<std::uint8_t> score_;
  std::vector<kernel::Term> terms_;
  std::vector<kernel::Soft> term_wide_;
  std::vector<kernel::Class> classes_;
  std::vector<std::int32_t> choice_begin_;
  std::vector<kernel::ChoiceItem> choices_;
  kernel::ModelView view_;
};

// The settling pass's plan (score_law_kernel.h) over a flattened model: each
// level's units and their sources in the CPU pass's order.
class KernelLawPlan {
 public:
  KernelLawPlan(const internal::TurnModel& model, const KernelModel& flat);
  const kernel::LawPlanView& view() const { return view_; }
  // Bytes of each array, for copying them to a device: the view's pointers
  // in the order of LawPlanView's fields.
  std::vector<KernelModel::Array> Arrays() const;

 private:
  std::vector<std::int32_t> unit_begin_;
  std::vector<kernel::LawUnit> units_;
  std::vector<std::int32_t> stop_src_, run_src_;
  std::vector<kernel::TermSource> term_src_;
  kernel::LawPlanView view_;
};

// One emulated block's numbers for a law (kernel::LawState's).
struct LawScratch {
  std::vector<kernel::Soft> reach, law_reach, law;
};

// The law of the turn score under `policy` (a recorded one: every take one
// its class allows) as the kernel's block of `threads` computes it, into
// *law: internal::PolicyScoreLaw's, bit for bit.
void EmulateScoreLaw(const KernelModel& flat, const KernelLawPlan& plan,
                     const internal::ConventionPolicy& policy, int threads, LawScratch& scratch,
                     std::vector<internal::Wide>* law);

// A batch's kernel requests of one record width W and one arithmetic,
// packed: their stop records (stride (max score + 1) * W; `wide`: SoftX87s
// in wide_stop), watched lanes, and where each one's policy goes (offsets
// into one byte array, or -1).
struct KernelJobs {
  int width = 0;
  bool wide = false;                 // extended precision: the records are SoftX87s
  std::vector<std::size_t> request;  // the batch's index of each job
  std::vector<double> stop;
  std::vector<kernel::Soft> wide_stop;
  std::vector<unsigned> watched;
  std::vector<std::int64_t> policy;  // offset of its rolls, then its picks; -1: none
  std::vector<int> range_lane;       // kernel::JobView::range_lane
  std::size_t policy_bytes = 0;
  // Out: per job, the start position's record (W numbers; `wide`: in
  // wide_start) and its counts.
  std::vector<double> start;
  std::vector<kernel::Soft> wide_start;
  std::vector<long long> tied, kingmaking;
  std::vector<double> below, above;    // the ranges (0 without)
  std::vector<std::uint8_t> policies;  // policy_bytes (unless policy_source is set)
  // Where Unpack reads the policies: null, `policies` (sized by Pack); else
  // a buffer of the backend's (CUDA: pinned memory, which the device's
  // copies fill at full speed), set after Pack; then `policies` stays empty.
  const std::uint8_t* policy_source = nullptr;
  bool external_policies = false;

  // Packs requests[i] for the i in `indices` (all KernelTakes, of width W,
  // extended if `wide`).
  void Pack(const internal::TurnModel& model, std::span<const TurnRequest> requests,
            std::span<const std::size_t> indices, int width, bool wide);
  // Jobs [begin, end)'s results into results[request[j]] (the jobs'
  // outputs filled). Distinct ranges may be unpacked at once.
  void Unpack(const internal::TurnModel& model, std::span<const TurnRequest> requests,
              std::span<TurnResult> results, std::size_t begin, std::size_t end) const;
  std::size_t size() const { return request.size(); }
};

// f(std::integral_constant<int, W>{}) for W == width, which must be 2..
// kernel::kMaxWidth: the kernel's record width as a compile-time constant
// (its sums unroll), from the width of a batch's jobs.
template <int W = 2, class F>
decltype(auto) ForWidth(int width, F&& f) {
  if constexpr (W < kernel::kMaxWidth) {
    if (width != W) return ForWidth<W + 1>(width, std::forward<F>(f));
  }
  return f(std::integral_constant<int, W>{});
}

// The requests of a batch split by where they go: the kernel's by
// arithmetic (0: double, 1: extended) and width W (2..kernel::kMaxWidth),
// the score laws (the law kernel's, score_law_kernel.h), the CPU's.
struct KernelSplit {
  std::vector<std::size_t> jobs[2][kernel::kMaxWidth + 1];
  std::vector<std::size_t> laws, cpu;
};
KernelSplit SplitRequests(std::span<const TurnRequest> requests);

// One emulated block's memory: the position records, the outcome laws (in
// double or SoftX87), the roll records and the range replay's marks.
struct EmulationScratch {
  std::vector<double> node, laws, rolls;
  std::vector<kernel::Soft> wide_node, wide_laws;
  std::vector<std::uint8_t> marks;
};

// The host emulation of the kernel: each job solved by a block of `threads`
// virtual threads, phase by phase, each thread taking the items the kernel
// gives it (every `threads`-th from its index); requests the kernel does not
// take go to SolveTurn. Deterministic; Solve is not thread-safe.
class EmulatedTurnBatch final : public TurnBatchSolver {
 public:
  explicit EmulatedTurnBatch(int threads = 256) : threads_(threads) {}
  absl::Status Solve(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                     std::span<TurnResult> results) override;
  // The emulated kernel computes score laws: the solve posts its settling
  // passes' (turn_batch.h).
  bool SolvesScoreLaws() const override { return true; }
  long long kernel_turns() const { return kernel_turns_; }  // solved by the emulation so far
  long long kernel_laws() const { return kernel_laws_; }    // score laws likewise
  // The range replays' items so far: scanned, and visited (marked).
  const kernel::ReplayCount& replay_count() const { return replay_; }

 private:
  int threads_;
  long long kernel_turns_ = 0, kernel_laws_ = 0;
  kernel::ReplayCount replay_;
  std::unique_ptr<KernelModel> flat_;
  std::unique_ptr<KernelLawPlan> plan_;
  LawScratch law_scratch_;
  KernelJobs jobs_;
  EmulationScratch scratch_;
  internal::TurnValues plain_[2];
};

// Runs job `j` of `jobs` on `flat` as the kernel's block of `threads` does;
// with `count`, adds its range replay's items scanned and visited.
void EmulateJob(const KernelModel& flat, KernelJobs& jobs, std::size_t j, int threads,
                EmulationScratch& scratch, kernel::ReplayCount* count = nullptr);

}  // namespace martiandice::solver
