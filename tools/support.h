// What several subcommands share: the checks of options they have in common
// (rules, players, worker threads, seeds), the policy table (the advisor's, with the
// command that generates a missing one), and output files (the --out path,
// its folders, atomic writes).
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/rules.h"

namespace martiandice::cli {

// "invalid rules: ..." unless the rules are in range.
absl::Status CheckRules(const Rules& rules);
// "OPTION: a game has 2 to 6 players, not N" unless 2 <= players <= 6.
absl::Status CheckPlayers(int players, std::string_view option);
// The rules and --players (default 2) of a subcommand that makes or reads a
// policy table (solve, certify, export), checked: the number of players.
absl::StatusOr<int> ReadTablePlayers(const QueryInput& input);
// The most worker threads a subcommand starts (--threads).
inline constexpr int kMaxThreads = 256;
// --threads: 0 for every core (at most kMaxThreads), else the number given;
// negative or over kMaxThreads: an error.
absl::StatusOr<int> ReadThreads(int threads);
// A seed (simulate's and play's --seed, the module's games): a decimal
// integer in 0..2^64-1; errors name `option`.
absl::StatusOr<std::uint64_t> ReadSeed(const std::string& text, const std::string& option);

// `status` (a table that cannot be found, read or used) as InvalidArgument,
// ending with the command that generates the table unless the message
// already gives one.
absl::Status TableError(const Rules& rules, int players, const absl::Status& status);
// The policy table for `rules` and `players` (Advisor::Table: from `tables`,
// else the search). Errors: TableError's.
absl::StatusOr<std::shared_ptr<const LoadedTable>> LoadTable(
    Advisor& advisor, const Rules& rules, int players, const std::optional<std::string>& tables);

// Whether an output's missing folders are created (solve, plot) or refused.
enum class Folders { kMustExist, kCreate };
// Where a subcommand writes: `out` (--out), or `default_name` inside it when
// it is a directory or ends with a separator. Checked before the work: an
// empty --out, a directory where the file would go, anything there but a
// regular file (a device, a FIFO, a symbolic link: never replaced), or a file
// where a folder of the path would go are refused; so are missing folders
// unless created (kCreate: CreateOutputFolders creates them).
absl::StatusOr<std::string> OutputPath(const std::string& out, const std::string& default_name,
                                       Folders folders);
// Creates the missing folders of `path`'s directory (an error names --out).
absl::Status CreateOutputFolders(const std::string& path);
// Writes `bytes` to `path` atomically (a temporary renamed into place),
// unless `path` is one of the files `inputs` the output was made from (the
// same file: device and inode). Errors name --out; a missing directory, a
// permission refused, an input or anything but a regular file at `path` are
// InvalidArgument; a failed write (e.g. a full disk) is DataLoss.
absl::Status WriteOutput(const std::string& path, const std::string& bytes,
                         const std::vector<std::string>& inputs = {});

// One entry line of `play` or `coach` from `in` (null reads as empty):
// without its "\n" or "\r\n", at most 1024 bytes kept (the rest of a longer
// line is dropped); nullopt at the end of the input.
std::optional<std::string> ReadEntryLine(std::istream* in);

}  // namespace martiandice::cli
