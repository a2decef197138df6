// Policy tables (docs/FORMAT.md): every seat's win probability at every
// turn-start context of a game, loaded and checked (GameTable, with its
// records for inspection), and where the table for a game is found, named and
// made. The queries that play from a table are martiandice/win_query.h's.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/rules.h"

namespace martiandice {

// The policy table format version (docs/FORMAT.md) this library reads and writes.
inline constexpr int kTableFormatVersion = 3;

namespace internal {
struct TableData;
struct TableAccess;
}  // namespace internal

// A loaded policy table for one rule set and player count (docs/FORMAT.md):
// every seat's win probability at every turn-start context. Win queries solve
// the mover's turn from the next contexts' values on first use of a context
// and keep the solved turns in a cache shared by the table's copies, bounded
// at 32 MiB with its bookkeeping (every context of an official 2-player table
// fits). Any number of threads may query one table at once.
// Cheap to copy (shared data).
class GameTable {
 public:
  // Opens and verifies a table file: its header first (magic, version, rules
  // hash, sizes against the file's length, header checksum), then the
  // checksum of its block checksums, then the blocks (each block's checksum,
  // every stored probability). A file of at most kEagerTableBytes is read
  // into memory and every block verified now (so is any file in the
  // WebAssembly build, which maps none). A larger one is mapped: only
  // the pages a query touches are read, and each block is verified on first
  // use, so a query that needs a corrupt block fails with DataLoss (and
  // Verify() checks them all). A mapped file must not be modified while open
  // (martiandice writes tables to a temporary and renames it, which leaves an
  // open file as it was). Errors, each naming the path: NotFound /
  // PermissionDenied for an unreadable path, InvalidArgument for a directory
  // or other non-regular file, DataLoss for a corrupt or truncated file,
  // FailedPrecondition for a table of another format version (the message
  // names the command that regenerates it) or of another rules string (rules
  // hash), ResourceExhausted for a file too large to map or to read here,
  // Unavailable for any other failure to read it. A file refused by its
  // header costs 128 bytes of memory, whatever its size.
  static absl::StatusOr<GameTable> Open(const std::string& path);
  // The same from bytes already in memory (copied; every block verified now).
  static absl::StatusOr<GameTable> FromBytes(std::string_view bytes);

  // Verifies every block not verified yet (nothing to do for a table read
  // into memory). Error: DataLoss naming the first corrupt block.
  absl::Status Verify() const;

  const Rules& rules() const;
  int players() const;
  // Bound on the error of every stored value, as the solver that wrote the
  // table states it (`martiandice certify` derives one of its own).
  double error_bound() const;
  // Every seat's probability of winning at a context under optimal play.
  // Errors: InvalidArgument for an invalid context (see ValidateContext);
  // DataLoss when its block is corrupt (a mapped table).
  absl::StatusOr<std::vector<double>> WinProbabilities(const GameContext& context) const;

  // Inspection of the stored records in file order, for exports and tools;
  // queries need none of it.
  struct ContextRecord {
    GameContext context;
    std::vector<double> win_probabilities;  // every seat's, seat 0 first
  };
  int format_version() const;
  // Values within 10^-tie_tolerance_exponent() of each other are tied.
  int tie_tolerance_exponent() const;
  std::int64_t context_count() const;
  // The record at `index`. Errors: OutOfRange unless 0 <= index <
  // context_count(); DataLoss when its block is corrupt (a mapped table).
  absl::StatusOr<ContextRecord> Context(std::int64_t index) const;

 private:
  friend struct internal::TableAccess;
  explicit GameTable(std::shared_ptr<const internal::TableData> data) : data_(std::move(data)) {}
  std::shared_ptr<const internal::TableData> data_;
};

// Checks that `table` answers queries for `rules` and `players`: a clear
// FailedPrecondition otherwise (e.g. "the table is for 3 players").
absl::Status CheckTableMatches(const GameTable& table, const Rules& rules, int players);

// Where to find the table for `rules` and `players`: `explicit_path` if given
// (a file, or a directory holding the table; nothing else is searched then),
// else $MARTIANDICE_DATA if set (likewise), else the data directory of the
// installed tree this library belongs to, found from the location of
// libmartiandice.so (or of the executable holding a static build):
// <prefix>/share/martiandice, wherever the prefix is, else the source tree's
// data/, else the installed data directory the build was configured with. A
// file is returned as is (Open and CheckTableMatches check it); a directory
// must hold TableFileName(). Errors: InvalidArgument for rules out of range
// (ValidateRules) or players (ValidatePlayers), before any search; NotFound
// with a message saying where it looked and how to generate the table
// (`martiandice solve --players N --out FILE`, FILE in the place named if one
// was, so that the same call finds it); InvalidArgument for a path given (or
// the file in its directory) that is there but no file: a FIFO, a device, a
// symbolic link loop, each named; PermissionDenied where a folder on its path
// cannot be searched; Unavailable where the system cannot look at it (an I/O
// error).
absl::StatusOr<std::string> LocateTable(const Rules& rules, int players,
                                        const std::optional<std::string>& explicit_path);

// The places LocateTable searches when no path is given: $MARTIANDICE_DATA
// alone when set (a file or a directory), else the data directories of the
// default search, in order. Looks at nothing on disk.
std::vector<std::string> TableSearchPath();

// Tables up to this size solve in seconds on one machine (at most 41 s on 2
// cores: 3 players to target 43): LocateTable's message says "seconds", and
// the command line makes such a table when it misses one: 8 MiB.
inline constexpr std::uint64_t kQuickTableBytes = std::uint64_t{8} << 20;
// Table files larger than this are mapped by GameTable::Open rather than
// read into memory, and their blocks verified on first use: 256 MiB.
inline constexpr std::uint64_t kEagerTableBytes = std::uint64_t{256} << 20;
// The largest table `martiandice solve` makes on one machine, whose memory
// must hold every value while it solves: 64 GiB (5 players under the official
// rules: 6.2 GiB; 6 players: 315 GiB). A larger one is made by a solve over
// several processes (`mpirun`), each holding a share within this limit.
// Readers take tables of any size.
inline constexpr std::uint64_t kMaxTableBytes = std::uint64_t{64} << 30;
// The size in bytes of the table for `rules` and `players` (docs/FORMAT.md:
// its header, every seat's chance at every turn-start context and a checksum
// per block of 1,024 contexts), valid or not. Preconditions:
// ValidateRules(rules) is OK and players is in kMinPlayers..kMaxPlayers.
std::uint64_t TableBytes(const Rules& rules, int players);
// The fewest processes `martiandice solve` makes the table for `rules` and
// `players` with: 1 while TableBytes is at most kMaxTableBytes (6 players up
// to target 17), else ceil(TableBytes / kMaxTableBytes), each process's share
// within the limit (6 players under the official rules: 5). Their machines'
// memory may call for more (docs/SCALING.md, "On a cluster"). 1 for invalid
// rules or players, which other checks refuse.
int TableSolveProcesses(const Rules& rules, int players);

// File name of the table for `rules` and `players`: "martiandice-p2-d13-b3-t25.mdt".
std::string TableFileName(const Rules& rules, int players);

// The command that generates that table into `out` (default: TableFileName):
// "martiandice solve --players 2 --target 30 --out martiandice-p2-d13-b3-t30.mdt";
// over several processes where TableSolveProcesses is above 1:
// "mpirun -np 5 martiandice solve --players 6 --out martiandice-p6-d13-b3-t25.mdt".
std::string TableSolveCommand(const Rules& rules, int players, const std::string& out = "");

// `path` as one POSIX shell word, as TableSolveCommand writes its `out`: as is
// when it holds only letters, digits and "/._-+,:=@%", else in single quotes
// (a quote inside as '\''); "./" before a path of two or more characters that
// starts with '-', so that a command does not read it as an option.
std::string ShellWord(const std::string& path);

}  // namespace martiandice
