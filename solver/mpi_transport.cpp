// The MPI transport of a clustered solve, the plugin libmartiandice_mpi.so
// (mpi_cluster.h): non-blocking all-gathers, polled against a deadline, in
// rounds of at most 1 GiB a rank (MPI counts are ints).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "absl/strings/str_format.h"
#include "mpi_cluster.h"

namespace martiandice::solver {
namespace {

constexpr std::uint64_t kChunk = std::uint64_t{1} << 30;

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
  absl::StatusOr<std::vector<std::string>> AllGather(std::string mine) override;
  [[noreturn]] void Abort(int code) override {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::abort();  // MPI_Abort does not return; if it ever did
  }

 private:
  const int rank_, ranks_;
  const double wait_seconds_;
  double last_collective_;  // steady-clock seconds at the end of the last one
  bool broken_ = false;     // a collective failed: no more
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

absl::StatusOr<std::vector<std::string>> MpiTransport::AllGather(std::string mine) {
  if (broken_) return absl::AbortedError("an earlier exchange between the ranks failed");
  const double begin = Now();
  const double deadline = begin + wait_seconds_ + 2 * (begin - last_collective_);
  // Waits for `request` until the deadline.
  auto wait = [&](MPI_Request& request, const char* what) -> absl::Status {
    int done = 0;
    for (int spins = 0;; ++spins) {
      if (int rc = MPI_Test(&request, &done, MPI_STATUS_IGNORE); rc != MPI_SUCCESS) {
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
  std::vector<std::uint64_t> sizes(ranks_);
  const std::uint64_t my_size = mine.size();
  MPI_Request request;
  if (int rc = MPI_Iallgather(&my_size, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T,
                              MPI_COMM_WORLD, &request);
      rc != MPI_SUCCESS) {
    broken_ = true;
    return absl::AbortedError(
        absl::StrFormat("rank %d of %d: MPI_Iallgather: %s", rank_, ranks_, MpiError(rc)));
  }
  if (absl::Status s = wait(request, "the message sizes"); !s.ok()) return s;
  std::vector<std::string> all(ranks_);
  for (int r = 0; r < ranks_; ++r) all[r].reserve(sizes[r]);
  std::uint64_t most = *std::max_element(sizes.begin(), sizes.end());
  std::vector<int> counts(ranks_), displacements(ranks_);
  std::string buffer;
  for (std::uint64_t offset = 0; offset < most || offset == 0; offset += kChunk) {
    std::uint64_t total = 0;
    for (int r = 0; r < ranks_; ++r) {
      const std::uint64_t left = sizes[r] > offset ? sizes[r] - offset : 0;
      counts[r] = static_cast<int>(std::min(left, kChunk));
      displacements[r] = 0;
      total += static_cast<std::uint64_t>(counts[r]);
    }
    if (total == 0) break;
    // Displacements are ints too: beyond 2 GiB a round, every rank's part lands in its own string.
    std::uint64_t at = 0;
    bool fits = total <= static_cast<std::uint64_t>(INT32_MAX);
    for (int r = 0; r < ranks_ && fits; ++r) {
      displacements[r] = static_cast<int>(at);
      at += static_cast<std::uint64_t>(counts[r]);
    }
    if (!fits) {
      // Rare (a round over 2 GiB): one broadcast per rank.
      for (int r = 0; r < ranks_; ++r) {
        std::string part(static_cast<std::size_t>(counts[r]), '\0');
        if (r == rank_) part.assign(mine, offset, static_cast<std::size_t>(counts[r]));
        if (int rc = MPI_Ibcast(part.data(), counts[r], MPI_BYTE, r, MPI_COMM_WORLD, &request);
            rc != MPI_SUCCESS) {
          broken_ = true;
          return absl::AbortedError(
              absl::StrFormat("rank %d of %d: MPI_Ibcast: %s", rank_, ranks_, MpiError(rc)));
        }
        if (absl::Status s = wait(request, "a level's values"); !s.ok()) return s;
        all[r] += part;
      }
      continue;
    }
    buffer.resize(total);
    const char* send = mine.data() + std::min<std::uint64_t>(offset, mine.size());
    if (int rc = MPI_Iallgatherv(send, counts[rank_], MPI_BYTE, buffer.data(), counts.data(),
                                 displacements.data(), MPI_BYTE, MPI_COMM_WORLD, &request);
        rc != MPI_SUCCESS) {
      broken_ = true;
      return absl::AbortedError(
          absl::StrFormat("rank %d of %d: MPI_Iallgatherv: %s", rank_, ranks_, MpiError(rc)));
    }
    if (absl::Status s = wait(request, "a level's values"); !s.ok()) return s;
    for (int r = 0; r < ranks_; ++r) {
      all[r].append(buffer, static_cast<std::size_t>(displacements[r]),
                    static_cast<std::size_t>(counts[r]));
    }
  }
  last_collective_ = Now();
  return all;
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
