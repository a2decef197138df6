// The N-player solve's checkpoint file (docs/PLAYERS.md, "Checkpoints"):
// what an interrupted solve has finished, serialised with cereal's portable
// binary archive (little-endian) inside a magic and a CRC-32, and parsed back
// with every count checked against the bytes left.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/rules.h"

namespace martiandice::solver {

// Bumped whenever the N-player solve may compute a different bit of any
// value or counter (another level order, cycle iteration, rounding) or
// what a rank's checkpoint holds (the vectors a cluster deals it): a
// checkpoint of another solver version is refused, never mixed in.
inline constexpr std::uint32_t kSolverVersion = 8;

// The solve a checkpoint belongs to.
struct CheckpointIdentity {
  Rules rules;
  int players = 0;
  bool extended = false;  // the turn solves' arithmetic: x87 extended, else double
  std::uint32_t solver_version = kSolverVersion;
  std::uint32_t levels = 0;  // score-vector levels of the solve (sums of totals)
  // The cluster rank whose vectors it holds, of how many (0 of 1 alone): a
  // file swapped between ranks is another solve's.
  std::uint32_t rank = 0, ranks = 1;
};

// The report counters accumulated over the finished work.
struct CheckpointCounters {
  std::uint64_t turn_solves = 0, cycles = 0, rounds = 0;
  std::uint64_t tied = 0, kingmaking = 0, kingmaking_contexts = 0;
  std::uint32_t max_rounds = 0;
  double max_residual = 0, error_bound = 0;
  std::uint64_t mixed_cycles = 0;
  double mixing_error = 0;
};

// Everything a checkpoint holds.
struct Checkpoint {
  CheckpointIdentity identity;
  // Levels finished, from the largest sum down, and the score vectors
  // finished (a prefix, in the solver's order) of the next level.
  std::uint32_t levels_done = 0;
  std::uint64_t vectors_done = 0;
  CheckpointCounters counters;
  double seconds = 0;  // wall time spent by the runs so far
  // Per finished context, in the solver's order, CheckpointRecordWidth
  // values: every seat's chance (players values), the context's error bound,
  // and with 2 players the mover's zero-score chance under its solved policy
  // (the pair kernel's first guesses for the next cycles: restored, so that a
  // resumed 2-player solve is bit for bit the uninterrupted one).
  std::vector<double> records;
};

// Values per context in Checkpoint::records: players + 1, players + 2 with 2.
inline int CheckpointRecordWidth(int players) { return players + 1 + (players == 2 ? 1 : 0); }

// "dice=13 bonus=3 target=25 players=3 arithmetic=extended solver=v5
// levels=121", then " rank=R/N" in a cluster of N > 1 ranks.
std::string CheckpointIdentityString(const CheckpointIdentity& identity);

// The file's bytes. `checkpoint.records.size()` must be a multiple of
// CheckpointRecordWidth. Errors: Internal if it is not or the writing fails.
absl::StatusOr<std::string> SerializeCheckpoint(const Checkpoint& checkpoint);

// Where a CheckpointWriter's bytes go, a chunk at a time (e.g. a file's
// AtomicFileWriter::Append); an error stops the writing.
using CheckpointSink = std::function<absl::Status(std::string_view)>;

// The file in pieces, for large solves, never whole in memory: the header of
// `checkpoint` (its records ignored) announcing `contexts` contexts, then
// their records appended (CheckpointRecordWidth values each, in order), then
// the checksum, handed to `sink` in chunks of about 1 MiB.
class CheckpointWriter {
 public:
  CheckpointWriter(const Checkpoint& checkpoint, std::uint64_t contexts, CheckpointSink sink);
  ~CheckpointWriter();
  CheckpointWriter(const CheckpointWriter&) = delete;
  CheckpointWriter& operator=(const CheckpointWriter&) = delete;

  void Append(const double* values, size_t count);
  // Ends the file: its last bytes to the sink. Errors: Internal if the
  // values appended are not the announced contexts' or serialising failed;
  // the sink's first error.
  absl::Status Finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Size of a checkpoint holding `contexts` finished contexts of `players` seats.
std::uint64_t CheckpointSize(std::uint64_t contexts, int players);

// The file read a context at a time, for large solves, never whole in memory
// (CheckpointWriter's counterpart): Open reads and checks the header, Next
// each announced context's record in order, Finish the checksum. A file that
// fails a later check may already have given records: whoever placed them
// discards them. Not thread-safe.
class CheckpointReader {
 public:
  // Opens `path` for the solve `expected` and reads its header. Errors:
  // NotFound if it does not exist; FailedPrecondition if it is not a regular
  // file, or another solve's (other rules, players, arithmetic, solver or
  // format version), naming both; PermissionDenied if it cannot be read;
  // DataLoss for a corrupt header (bad magic, counts against the file's
  // size, progress, counters no solve writes such as a negative or NaN bound)
  // and for a file of this solve larger than `max_size` bytes.
  static absl::StatusOr<std::unique_ptr<CheckpointReader>> Open(const std::string& path,
                                                                const CheckpointIdentity& expected,
                                                                std::uint64_t max_size);
  // The same over `bytes` (named `path` in errors), read in place: they must
  // outlive the reader.
  static absl::StatusOr<std::unique_ptr<CheckpointReader>> OpenBytes(
      std::string_view bytes, const std::string& path, const CheckpointIdentity& expected);
  ~CheckpointReader();
  CheckpointReader(const CheckpointReader&) = delete;
  CheckpointReader& operator=(const CheckpointReader&) = delete;

  // Identity, progress, counters and time (its records empty).
  const Checkpoint& header() const;
  const std::string& path() const;
  // The contexts the file holds (its header's count, checked against its size).
  std::uint64_t contexts() const;
  // The next context's CheckpointRecordWidth values into `record`. Errors:
  // DataLoss when unreadable or a value is out of range (NaN, a chance
  // outside [0, 1], a negative error bound); Internal past the last context.
  // After an error, every call returns it.
  absl::Status Next(double* record);
  // After every context: DataLoss on a checksum mismatch; Internal if a
  // context was left unread.
  absl::Status Finish();

 private:
  struct State;
  explicit CheckpointReader(std::unique_ptr<State> state);
  static absl::StatusOr<std::unique_ptr<CheckpointReader>> Start(
      std::unique_ptr<std::streambuf> source, std::uint64_t size, const std::string& path,
      const CheckpointIdentity& expected, std::uint64_t max_size);
  std::unique_ptr<State> state_;
};

// Parses `bytes` (read from `path`, named in errors) for the solve `expected`.
// Errors: DataLoss for a truncated or corrupt file (bad magic, size,
// checksum, counts); FailedPrecondition for a checkpoint of another solve
// (other rules, players, arithmetic, solver version or format version),
// naming both; DataLoss for counters no solve writes (a negative or NaN
// bound or time); ResourceExhausted if memory runs out. Never allocates more
// than the bytes given; throws nothing.
absl::StatusOr<Checkpoint> ParseCheckpoint(std::string_view bytes, const std::string& path,
                                           const CheckpointIdentity& expected);

// Reads `path` whole (CheckpointReader's errors), the records read from the
// file into the checkpoint (no other copy).
absl::StatusOr<Checkpoint> ReadCheckpoint(const std::string& path,
                                          const CheckpointIdentity& expected,
                                          std::uint64_t max_size);

// What the file at `path` holds, from its first 8 bytes: a table (a table's
// magic), a checkpoint (a checkpoint's), else kNone (another file, nothing
// there, or unreadable). For writers that must not replace such a file.
enum class SolveFile { kNone, kTable, kCheckpoint };
SolveFile SolveFileAt(const std::string& path);

}  // namespace martiandice::solver
