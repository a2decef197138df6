// Atomic file writes (atomic_file.h): temporary, write, fsync, rename.
#include "atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "absl/strings/str_format.h"

namespace martiandice::solver {

absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes) {
  std::string temp = path + ".tmp.XXXXXX";
  int fd = mkstemp(temp.data());
  if (fd < 0) {
    return absl::PermissionDeniedError(absl::StrFormat(
        "cannot create a temporary file next to %s: %s", path, std::strerror(errno)));
  }
  auto fail = [&](const char* what) {
    int err = errno;
    close(fd);
    std::remove(temp.c_str());
    return absl::DataLossError(absl::StrFormat("%s %s failed: %s (%s left unchanged)", what, temp,
                                               std::strerror(err), path));
  };
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("writing");
    }
    done += static_cast<size_t>(n);
  }
  if (fchmod(fd, 0644) != 0) return fail("setting permissions of");
  if (fsync(fd) != 0) return fail("syncing");
  if (close(fd) != 0) {
    std::remove(temp.c_str());
    return absl::DataLossError(
        absl::StrFormat("closing %s failed: %s", temp, std::strerror(errno)));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(temp.c_str());
    return absl::PermissionDeniedError(
        absl::StrFormat("renaming %s to %s failed: %s", temp, path, std::strerror(err)));
  }
  return absl::OkStatus();
}

}  // namespace martiandice::solver
