// Writing a file so that it is never seen half written: the table writer's,
// the checkpoints' and the tools' output files.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace martiandice::solver {

// Whether a file may be written at `path`: nothing is there, or a regular
// file (a symbolic link is not followed). Errors: FailedPrecondition naming
// what is there instead (a directory, a symbolic link, a FIFO, a character
// or block device, a socket); PermissionDenied or NotFound when it cannot be
// checked (an unsearchable or missing folder).
absl::Status CheckReplaceable(const std::string& path);

// Whether WriteFileAtomically could write `path` now: CheckReplaceable, and
// its temporary created (and removed) in the path's folder, which must
// exist. Errors: CheckReplaceable's; PermissionDenied when no file can be
// created there (a read-only file system, a folder without write access).
absl::Status CheckWritable(const std::string& path);

// Writes all of `bytes` at `offset` of the open file `fd` (retrying short
// writes and interruptions). False on an error, errno set.
bool WriteAllAt(int fd, std::string_view bytes, std::uint64_t offset);

// A file written in pieces, never seen half written: a temporary file in the
// folder of `path` (which must exist), appended to and patched, then flushed,
// synced and renamed over `path` by Commit, which must be absent or a regular
// file (CheckReplaceable, at Create and just before the rename). The file is
// made with mode 0644 less the user's umask ("PATH.tmp.XXXXXX" until renamed). Destroyed
// uncommitted, or after a failed call, the temporary is removed and `path`
// is left as it was. Errors: CheckReplaceable's; PermissionDenied when the
// temporary cannot be created or renamed, DataLoss when writing or syncing
// it fails (e.g. a full disk). Not thread-safe.
class AtomicFileWriter {
 public:
  static absl::StatusOr<std::unique_ptr<AtomicFileWriter>> Create(const std::string& path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // The temporary's path (e.g. to read it back before Commit).
  const std::string& temporary() const { return temp_; }
  // Writes `bytes` at the end, or at `offset` (over what is there).
  absl::Status Append(std::string_view bytes);
  absl::Status WriteAt(std::uint64_t offset, std::string_view bytes);
  // Publishes the file at `path`.
  absl::Status Commit();

 private:
  AtomicFileWriter(std::string path, std::string temp, int fd)
      : path_(std::move(path)), temp_(std::move(temp)), fd_(fd) {}
  absl::Status Fail(const char* what);

  std::string path_, temp_;
  int fd_ = -1;
  std::uint64_t end_ = 0;
};

// Writes `bytes` to `path` atomically (AtomicFileWriter in one piece): a temporary file in the same
// directory, flushed and synced, then renamed over `path`, which must be
// absent or a regular file (CheckReplaceable, before and just before the
// rename): a device, FIFO or symbolic link is never replaced. On error the
// old file (if any) is intact and the temporary is removed. Errors:
// CheckReplaceable's; PermissionDenied when the temporary cannot be created
// or renamed, DataLoss when writing or syncing it fails (e.g. a full disk).
absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace martiandice::solver
