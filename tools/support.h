// What several subcommands share besides app/front_end.h: the checks of
// options only the command line has (--players of a table, --threads),
// output files (the --out path, its folders, atomic writes) and entry lines.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "front_end.h"
#include "martiandice/advisor.h"
#include "martiandice/rules.h"

namespace martiandice::cli {

// The rules and --players (default 2) of a subcommand that makes or reads a
// policy table (solve, certify, export), checked: the number of players.
absl::StatusOr<int> ReadTablePlayers(const QueryInput& input);
// The most worker threads a subcommand starts (--threads).
inline constexpr int kMaxThreads = 256;
// --threads: 0 for every core (at most kMaxThreads), else the number given;
// negative or over kMaxThreads: an error.
absl::StatusOr<int> ReadThreads(int threads);
// Why an empty --out is refused: it names no file (stdout is --out left out).
inline constexpr std::string_view kEmptyOut = "give the file to write";
// "--out: give the file to write" when `out` is empty, else OK.
absl::Status RequireOut(const std::string& out);
// Whether an output's missing folders are created (solve, plot) or refused.
enum class Folders { kMustExist, kCreate };
// What a subcommand writes: a table (solve), which may replace a table but
// not a checkpoint, or anything else (a log, an export, a picture), which
// replaces neither: hours of solving are never lost to a mistyped path.
enum class Writes { kTable, kOther };
// Where a subcommand writes: `out` (--out), or `default_name` inside it when
// it is a directory or ends with a separator. Checked before the work: an
// empty --out, "-" (which would be a file of that name, not standard
// output), a directory where the file would go, anything there but a
// regular file (a device, a FIFO, a symbolic link: never replaced), a table
// or checkpoint that `writes` may not replace, a folder where no file can be
// created (a read-only file system), or a file where a folder of the path
// would go are refused; so are missing folders unless created (kCreate:
// CreateOutputFolders creates them).
absl::StatusOr<std::string> OutputPath(const std::string& out, const std::string& default_name,
                                       Folders folders, Writes writes);
// Whether paths `a` and `b` name one file, by identity, not text: when both
// exist, the same device and inode (a hard link too); else the same path once
// absolute, with "." and ".." and the symbolic links of its existing folders
// resolved ("./t.mdt", "/abs/t.mdt", "link/t.mdt").
bool SameFile(const std::string& a, const std::string& b);
// Creates the missing folders of `path`'s directory (an error names --out).
// Returns the outermost folder it created (as the path spells it), "" if none
// was missing: the command says what it created.
absl::StatusOr<std::string> CreateOutputFolders(const std::string& path);
// "Created the folder F.\n" for a folder CreateOutputFolders created, else "".
std::string CreatedLine(const std::string& folder);
// Writes `bytes` to `path` (OutputPath's) atomically (a temporary renamed
// into place). Errors name --out; a missing directory, a permission refused
// or anything but a regular file at `path` are InvalidArgument; a failed
// write (e.g. a full disk) is DataLoss.
absl::Status WriteOutput(const std::string& path, const std::string& bytes);
// A failed write of `path` (solver/atomic_file.h's errors) as WriteOutput
// reports it: naming --out, the user's errors InvalidArgument. OK stays OK.
absl::Status OutputError(const std::string& path, const absl::Status& status);

// The command that reviews a game log written by `play` or `coach` as they
// advised it: `martiandice review --objective win` (by the table, or where
// none covers the game by the same fallback), the rules' options that differ
// from the defaults, `tables` (--tables) when the game had its table
// (`coverage`; review's fallback needs none named), and `log` (each shell
// word quoted where it needs it; "" for none).
std::string ReviewCommand(const Rules& rules, const TableCoverage& coverage,
                          const std::optional<std::string>& tables, const std::string& log);

// One entry line of `play` or `coach`, without its "\n" or "\r\n". A longer
// line than kMaxEntryBytes keeps its first kMaxEntryBytes and is too_long:
// the caller refuses it (kEntryTooLong), never reads it cut.
inline constexpr std::size_t kMaxEntryBytes = 1024;
inline constexpr char kEntryTooLong[] = "the line is longer than 1024 bytes";
static_assert(kMaxEntryBytes == 1024, "kEntryTooLong names kMaxEntryBytes");
struct EntryLine {
  std::string text;
  bool too_long = false;
};
// Waits until standard input has bytes (or its end) for `in`'s next read, or
// `stop` is set: false then. The C++ library retries a read that a signal
// interrupts, so a blocked read would not see the flag; poll does. True at
// once for another stream than std::cin, or no `stop`.
bool WaitForInput(std::istream* in, const std::atomic<bool>* stop);

// The next entry line of `in` (null reads as empty); nullopt at the end of
// the input, and once `stop` (if given) is set: before the read, or while it
// waited (InterruptFlag::Blocked::kInterrupt), a part line then dropped.
std::optional<EntryLine> ReadEntryLine(std::istream* in, const std::atomic<bool>* stop = nullptr);

}  // namespace martiandice::cli
