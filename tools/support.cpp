// What several subcommands share (tools/support.h).
#include "support.h"

#include <poll.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <system_error>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "atomic_file.h"
#include "checkpoint.h"

namespace martiandice::cli {
namespace {

namespace fs = std::filesystem;

// The folder `path` goes in ("." for a bare name).
fs::path FolderOf(const fs::path& path) {
  return path.has_parent_path() ? path.parent_path() : fs::path(".");
}

}  // namespace

absl::StatusOr<int> ReadTablePlayers(const QueryInput& input) {
  if (absl::Status status = app::CheckRules(input.rules); !status.ok()) return status;
  const int players = input.players.value_or(2);
  if (absl::Status status = app::CheckPlayers(players, "players"); !status.ok()) return status;
  return players;
}

absl::StatusOr<int> ReadThreads(int threads) {
  if (threads < 0 || threads > kMaxThreads) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--threads must be 0 (all) or more, and at most ", kMaxThreads, "; got ", threads));
  }
  if (threads > 0) return threads;
  return std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, kMaxThreads);
}

absl::Status RequireOut(const std::string& out) {
  if (!out.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("--out: ", std::string(kEmptyOut)));
}

absl::StatusOr<std::string> OutputPath(const std::string& out, const std::string& default_name,
                                       Folders folders, Writes writes) {
  if (absl::Status status = RequireOut(out); !status.ok()) return status;
  if (out == "-") {
    return absl::InvalidArgumentError(
        "--out: '-' would be a file named '-', not standard output: give a file (./- for that "
        "one)");
  }
  std::error_code error;
  fs::path path(out);
  // An existing directory, or a path ending in a separator: the usual name inside.
  if (fs::is_directory(path, error) || !path.has_filename()) path /= default_name;
  if (fs::is_directory(path, error)) {
    return absl::InvalidArgumentError(absl::StrCat("--out: '", path.string(), "' is a directory"));
  }
  // The nearest folder of the path that exists must be a directory, and
  // unless missing ones are created, the path's own folder.
  for (fs::path folder = FolderOf(path);; folder = FolderOf(folder)) {
    if (fs::is_directory(folder, error)) break;
    if (fs::exists(folder, error)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--out: '", folder.string(), "' is not a directory"));
    }
    if (folders == Folders::kMustExist) {
      return absl::InvalidArgumentError(
          absl::StrCat("--out: directory '", folder.string(), "' does not exist"));
    }
    if (!folder.has_parent_path() || folder.parent_path() == folder) break;
  }
  // Where the folder exists, a file is made and removed in it: a folder that
  // cannot be written is refused now, not after the work.
  const bool folder_exists = fs::is_directory(FolderOf(path), error);
  if (absl::Status status = folder_exists ? solver::CheckWritable(path.string())
                                          : solver::CheckReplaceable(path.string());
      !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("--out: ", status.message()));
  }
  // Only a table replaces a table, and nothing replaces a checkpoint (Writes).
  const solver::SolveFile held = solver::SolveFileAt(path.string());
  if (held == solver::SolveFile::kCheckpoint ||
      (held == solver::SolveFile::kTable && writes == Writes::kOther)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--out: '", path.string(), "' is ",
        held == solver::SolveFile::kTable ? "a martiandice table" : "a solve's checkpoint",
        ", which this would replace; write elsewhere"));
  }
  return path.string();
}

bool SameFile(const std::string& a, const std::string& b) {
  std::error_code error;
  if (fs::exists(a, error) && fs::exists(b, error)) {
    const bool same = fs::equivalent(a, b, error);
    if (!error) return same;
  }
  std::error_code error_a, error_b;
  const fs::path full_a = fs::weakly_canonical(fs::absolute(a, error_a), error_a);
  const fs::path full_b = fs::weakly_canonical(fs::absolute(b, error_b), error_b);
  if (!error_a && !error_b) return full_a == full_b;
  // A folder that cannot be read: compare the paths as written, made absolute.
  return fs::absolute(a, error_a).lexically_normal() == fs::absolute(b, error_b).lexically_normal();
}

absl::StatusOr<std::string> CreateOutputFolders(const std::string& path) {
  const fs::path folder = FolderOf(fs::path(path));
  std::error_code error;
  if (fs::is_directory(folder, error)) return std::string();
  fs::path outermost = folder;  // the outermost missing one: what the user did not have
  while (outermost.has_parent_path() && outermost.parent_path() != outermost &&
         !fs::exists(outermost.parent_path(), error)) {
    outermost = outermost.parent_path();
  }
  fs::create_directories(folder, error);
  if (error) {
    return absl::InvalidArgumentError(absl::StrCat("--out: cannot create the directory '",
                                                   folder.string(), "': ", error.message()));
  }
  return outermost.string();
}

std::string CreatedLine(const std::string& folder) {
  return folder.empty() ? "" : absl::StrCat("Created the folder ", folder, ".\n");
}

absl::Status WriteOutput(const std::string& path, const std::string& bytes) {
  return OutputError(path, solver::WriteFileAtomically(path, bytes));
}

absl::Status OutputError(const std::string& path, const absl::Status& status) {
  if (status.ok()) return status;
  const bool user_error = status.code() == absl::StatusCode::kNotFound ||
                          status.code() == absl::StatusCode::kPermissionDenied ||
                          status.code() == absl::StatusCode::kFailedPrecondition;
  const std::string message = absl::StrCat("--out: cannot write ", path, ": ", status.message());
  return user_error ? absl::InvalidArgumentError(message) : absl::Status(status.code(), message);
}

bool WaitForInput(std::istream* in, const std::atomic<bool>* stop) {
  if (stop == nullptr || in != &std::cin) return true;
  while (in->rdbuf()->in_avail() == 0) {
    if (stop->load()) return false;
    pollfd fd{STDIN_FILENO, POLLIN, 0};
    if (poll(&fd, 1, 200) > 0) break;  // readable, hung up or closed: get() says which
  }
  return !stop->load();
}

std::string ReviewCommand(const Rules& rules, const TableCoverage& coverage,
                          const std::optional<std::string>& tables, const std::string& log) {
  const Rules defaults;
  std::string command = "martiandice review --objective win";
  if (rules.dice != defaults.dice) absl::StrAppend(&command, " --dice ", rules.dice);
  if (rules.bonus != defaults.bonus) absl::StrAppend(&command, " --bonus ", rules.bonus);
  if (rules.target != defaults.target) absl::StrAppend(&command, " --target ", rules.target);
  if (coverage.table && tables) absl::StrAppend(&command, " --tables ", ShellWord(*tables));
  if (!log.empty()) absl::StrAppend(&command, " ", ShellWord(log));
  return command;
}

std::optional<EntryLine> ReadEntryLine(std::istream* in, const std::atomic<bool>* stop) {
  auto stopped = [stop] { return stop != nullptr && stop->load(); };
  if (in == nullptr || stopped()) return std::nullopt;
  EntryLine line;
  std::size_t length = 0;  // bytes before the newline, "\r" included
  char c = 0;
  bool any = false;
  while (WaitForInput(in, stop) && in->get(c)) {
    any = true;
    if (c == '\n') break;
    if (++length <= kMaxEntryBytes + 1) line.text += c;  // one more: a "\r" that ends it
  }
  if (!any || stopped()) return std::nullopt;
  if (!line.text.empty() && line.text.back() == '\r' && length == line.text.size()) {
    line.text.pop_back();
    --length;
  }
  line.too_long = length > kMaxEntryBytes;
  if (line.too_long) line.text.resize(kMaxEntryBytes);
  return line;
}

}  // namespace martiandice::cli
