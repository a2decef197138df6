// Writing a file so that it is never seen half written: the table writer's,
// the checkpoints' and the tools' output files.
#pragma once

#include <string>

#include "absl/status/status.h"

namespace martiandice::solver {

// Writes `bytes` to `path` atomically: a temporary file in the same
// directory, flushed and synced, then renamed over `path`. On error the old
// file (if any) is intact and the temporary is removed. Errors:
// PermissionDenied when the temporary cannot be created or renamed,
// DataLoss when writing or syncing it fails.
absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace martiandice::solver
