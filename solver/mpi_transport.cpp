// The MPI transport of a clustered solve, the plugin libmartiandice_mpi.so
// (mpi_cluster.h): non-blocking exchanges (the sizes all to all, then each
// pair's bytes point to point, in parts of at most 1 GiB: MPI counts are
// ints), polled against a deadline.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>

#include "absl/strings/str_format.h"
#include "mpi_cluster.h"

namespace martiandice::solver {
namespace {

constexpr std::uint64_t kChunk = std::uint64_t{1} << 30;
constexpr int kTag = 27;  // the exchanges' point-to-point messages

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string MpiError(int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) return absl::StrFormat("code %d", code);
  return std::string(text, static_cast<std::size_t>(length));
}

bool joined = false;  // MPI can be initialised once a process

class MpiTransport final : public MpiCluster {
 public:
  MpiTransport(int rank, int ranks, double wait_seconds)
      : rank_(rank), ranks_(ranks), wait_seconds_(wait_seconds), last_collective_(Now()) {}
  ~MpiTransport() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }
  [[noreturn]] void Abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();  // MPI_Abort does not return; if it ever did
  }

 private:
  absl::StatusOr<std::vector<std::string>> Swap(std::vector<std::string> to_each) override;

  const int rank_, ranks_;
  const double wait_seconds_;
  double last_collective_;  // steady-clock seconds at the end of the last one
  bool broken_ = false;     // a collective failed: no more
  // The buffers of a failed exchange, kept: its requests may still be in
  // flight (MPI may yet write into them) until the job is aborted.
  struct Buffers {
    std::vector<std::uint64_t> out_sizes, in_sizes;
    std::vector<std::string> to_each, from;
  };
  std::vector<std::unique_ptr<Buffers>> abandoned_;
};

absl::StatusOr<std::unique_ptr<MpiCluster>> Join(double wait_seconds) {
  if (joined) return absl::FailedPreconditionError("this process has joined its MPI job already");
  if (!(wait_seconds > 0)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the wait limit must be positive, got %g", wait_seconds));
  }
  joined = true;
  int provided = 0;
  if (int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
      rc != MPI_SUCCESS) {
    return absl::InternalError(absl::StrFormat("MPI did not start: %s", MpiError(rc)));
  }
  // Errors come back as codes, not an abort, so that they can be explained.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return std::unique_ptr<MpiCluster>(new MpiTransport(rank, ranks, wait_seconds));
}

absl::StatusOr<std::vector<std::string>> MpiTransport::Swap(std::vector<std::string> to_each) {
  if (broken_) return absl::AbortedError("an earlier exchange between the ranks failed");
  const double begin = Now();
  const double deadline = begin + wait_seconds_ + 2 * (begin - last_collective_);
  // Waits for `requests` until the deadline.
  auto wait = [&](std::vector<MPI_Request>& requests, const char* what) -> absl::Status {
    int done = 0;
    for (int spins = 0;; ++spins) {
      if (int rc = MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done,
                               MPI_STATUSES_IGNORE);
          rc != MPI_SUCCESS) {
        broken_ = true;
        return absl::AbortedError(absl::StrFormat("rank %d of %d: exchanging %s failed: %s", rank_,
                                                  ranks_, what, MpiError(rc)));
      }
      if (done) return absl::OkStatus();
      if (Now() > deadline) {
        broken_ = true;
        return absl::DeadlineExceededError(absl::StrFormat(
            "rank %d of %d: the other ranks did not join the exchange of %s within %.0f s (a "
            "rank died, hangs or failed alone); the job stops, the last checkpoints keep the "
            "finished levels",
            rank_, ranks_, what, deadline - begin));
      }
      // Spin briefly (a level's end is often near), then let the core go.
      if (spins > 1000) std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  };
  auto failed = [&](const char* call, int rc) {
    broken_ = true;
    return absl::AbortedError(
        absl::StrFormat("rank %d of %d: %s: %s", rank_, ranks_, call, MpiError(rc)));
  };
  // The sizes first: each rank then receives straight into its strings.
  auto b = std::make_unique<Buffers>();
  b->out_sizes.resize(ranks_);
  b->in_sizes.resize(ranks_);
  for (int r = 0; r < ranks_; ++r) b->out_sizes[r] = to_each[r].size();
  b->to_each = std::move(to_each);
  // On an error the buffers stay with the transport (MPI may still use them).
  auto abandon = [&](absl::Status status) {
    abandoned_.push_back(std::move(b));
    return status;
  };
  std::vector<MPI_Request> requests(1);
  if (int rc = MPI_Ialltoall(b->out_sizes.data(), 1, MPI_UINT64_T, b->in_sizes.data(), 1,
                             MPI_UINT64_T, MPI_COMM_WORLD, &requests[0]);
      rc != MPI_SUCCESS) {
    return abandon(failed("MPI_Ialltoall", rc));
  }
  if (absl::Status s = wait(requests, "the message sizes"); !s.ok()) return abandon(s);
  b->from.resize(ranks_);
  b->from[rank_] = std::move(b->to_each[rank_]);
  requests.clear();
  // Posts one pair's bytes, received into or sent from `data`, point to
  // point in parts of at most 1 GiB (MPI counts are ints); the parts arrive
  // in order (MPI does not overtake on one tag).
  auto post = [&](bool receive, int r, char* data, std::uint64_t size) -> absl::Status {
    for (std::uint64_t at = 0; at < size; at += kChunk) {
      const int count = static_cast<int>(std::min(kChunk, size - at));
      requests.emplace_back();
      const int rc =
          receive
              ? MPI_Irecv(data + at, count, MPI_BYTE, r, kTag, MPI_COMM_WORLD, &requests.back())
              : MPI_Isend(data + at, count, MPI_BYTE, r, kTag, MPI_COMM_WORLD, &requests.back());
      if (rc != MPI_SUCCESS) return failed(receive ? "MPI_Irecv" : "MPI_Isend", rc);
    }
    return absl::OkStatus();
  };
  for (int r = 0; r < ranks_; ++r) {
    if (r == rank_) continue;
    b->from[r].resize(b->in_sizes[r]);
    if (absl::Status s = post(true, r, b->from[r].data(), b->in_sizes[r]); !s.ok()) {
      return abandon(s);
    }
  }
  for (int r = 0; r < ranks_; ++r) {
    if (r == rank_) continue;
    if (absl::Status s = post(false, r, b->to_each[r].data(), b->out_sizes[r]); !s.ok()) {
      return abandon(s);
    }
  }
  if (absl::Status s = wait(requests, "a level's values"); !s.ok()) return abandon(s);
  last_collective_ = Now();
  return std::move(b->from);
}

}  // namespace
}  // namespace martiandice::solver

extern "C" martiandice::solver::MpiCluster* martiandice_mpi_join_v1(double wait_seconds, int* code,
                                                                    char* message,
                                                                    unsigned long size) {
  absl::StatusOr<std::unique_ptr<martiandice::solver::MpiCluster>> joined =
      martiandice::solver::Join(wait_seconds);
  if (joined.ok()) return joined->release();
  *code = static_cast<int>(joined.status().code());
  if (size > 0) {
    const std::string text(joined.status().message());
    const std::size_t n = std::min<std::size_t>(text.size(), size - 1);
    std::memcpy(message, text.data(), n);
    message[n] = '\0';
  }
  return nullptr;
}
