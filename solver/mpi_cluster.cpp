// MpiCluster::Join: the MPI transport plugin found and loaded (mpi_cluster.h).
#include "mpi_cluster.h"

#include <dlfcn.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

#ifndef MARTIANDICE_MPI_PLUGIN_DIR
#define MARTIANDICE_MPI_PLUGIN_DIR "../lib/martiandice"  // the installed one, from BINDIR
#endif

namespace martiandice::solver {
namespace {

constexpr const char* kPlugin = "libmartiandice_mpi.so";

// Where the plugin may be: next to this executable (the build tree), then
// the installed prefix's.
std::vector<std::filesystem::path> PluginPaths() {
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return {};
  const std::filesystem::path dir = exe.parent_path();
  return {dir / kPlugin, dir / MARTIANDICE_MPI_PLUGIN_DIR / kPlugin};
}

}  // namespace

absl::StatusOr<std::unique_ptr<MpiCluster>> MpiCluster::Join(double wait_seconds) {
  std::string tried;
  for (const std::filesystem::path& path : PluginPaths()) {
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
      absl::StrAppend(&tried, tried.empty() ? "" : ", ", path.string());
      continue;
    }
    // Kept loaded for the process's life: the cluster's code lives there.
    void* plugin = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (plugin == nullptr) {
      return absl::UnimplementedError(
          absl::StrFormat("cannot load the MPI transport %s: %s", path.string(), dlerror()));
    }
    auto* join = reinterpret_cast<decltype(&martiandice_mpi_join_v1)>(
        dlsym(plugin, "martiandice_mpi_join_v1"));
    if (join == nullptr) {
      return absl::UnimplementedError(
          absl::StrFormat("%s is not this build's MPI transport (no entry point)", path.string()));
    }
    int code = 0;
    char message[512] = "";
    MpiCluster* cluster = join(wait_seconds, &code, message, sizeof message);
    if (cluster == nullptr) return absl::Status(static_cast<absl::StatusCode>(code), message);
    return std::unique_ptr<MpiCluster>(cluster);
  }
  return absl::UnimplementedError(absl::StrCat(
      "this build of martiandice has no MPI transport (", kPlugin, " is not at ", tried,
      "): build it where CMake finds MPI (Debian's libopenmpi-dev), or solve without mpirun"));
}

}  // namespace martiandice::solver
