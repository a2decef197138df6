// Writing a file so that it is never seen half written: the table writer's,
// the checkpoints' and the tools' output files.
#pragma once

#include <string>

#include "absl/status/status.h"

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

// Writes `bytes` to `path` atomically: a temporary file in the same
// directory, flushed and synced, then renamed over `path`, which must be
// absent or a regular file (CheckReplaceable, before and just before the
// rename): a device, FIFO or symbolic link is never replaced. On error the
// old file (if any) is intact and the temporary is removed. Errors:
// CheckReplaceable's; PermissionDenied when the temporary cannot be created
// or renamed, DataLoss when writing or syncing it fails (e.g. a full disk).
absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace martiandice::solver
