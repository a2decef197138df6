// What is at a path, for the messages of the code that opens files given by
// users (tables, review input): a missing file is said to be missing, and a
// FIFO, a device, a symbolic link loop or a folder that cannot be searched
// are each named as what they are.
#pragma once

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

}  // namespace martiandice::internal
