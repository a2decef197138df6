// What is at a path, for the messages of the code that opens files given by
// users (tables, review input): a missing file is said to be missing, and a
// FIFO, a device, a symbolic link loop or a folder that cannot be searched
// are each named as what they are; and a file's identity under any spelling.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>

namespace martiandice::internal {

struct FileKind {
  enum class Type {
    kRegular,    // a regular file (symbolic links followed)
    kDirectory,  // a directory
    kMissing,    // nothing there (or a symbolic link to nothing)
    kOther,      // something that cannot be read as a file, or cannot be reached
  };
  Type type = Type::kMissing;
  // For kMissing and kOther, what it is, to follow "X is" / "X: ": "missing",
  // "a symbolic link to a missing file", "a FIFO (named pipe)", "a character
  // device", "a block device", "a socket", "a symbolic link loop", "unreachable:
  // a folder on its path cannot be searched (Permission denied)", "unreachable:
  // a part of its path is not a folder".
  std::string what;
  int error = 0;  // the errno of stat, if it failed
};

// Looks at `path` with stat (and lstat, to tell a dangling link), reading nothing.
FileKind InspectPath(const std::string& path);

// A regular file as stat sees it through any spelling of its path (symbolic
// links followed, "./" and "dir/../"): the same file has the same identity,
// and one rewritten in place (another size or modification time) another.
struct FileIdentity {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  std::int64_t size = 0;
  std::int64_t modified_ns = 0;
  auto operator<=>(const FileIdentity&) const = default;
};

// The identity of the regular file at `path`, or nullopt when there is none
// (missing, unreachable, a directory or other kind).
std::optional<FileIdentity> IdentifyFile(const std::string& path);

}  // namespace martiandice::internal
