// The command line's tables made on demand (tools/table_cache.h): a small
// game no table covers is solved once into the cache folder, whose file is
// byte for byte `martiandice solve`'s and answers as that file given with
// --tables does; the next run reads it; a damaged one is solved again; a
// large game, or a cache that cannot be written, leaves the fallback with the
// reason; the folder follows the environment; the real executable does it.
#include "table_cache.h"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "cli_test_util.h"
#include "test_util.h"

namespace {

using cli_test::CliRun;
using cli_test::Json;
using cli_test::ParseJsonOrFail;
using cli_test::Run;
using test_util::ReadFile;
using test_util::ScopedEnv;
using test_util::TempDir;

namespace fs = std::filesystem;

constexpr char kTable15[] = "martiandice-p2-d13-b3-t15.mdt";

martiandice::CliEnvironment Cached(const std::string& folder) {
  martiandice::CliEnvironment environment;
  environment.table_cache = folder;
  return environment;
}

const std::vector<std::string> kEval15 = {"eval",     "--scores", "10,12",   "--seat",   "1",
                                          "--target", "15",       "--aside", "1T 1R 3H", "--json"};

}  // namespace

TEST_CASE("table cache: a small game is solved once, as `solve` makes it, then read") {
  TempDir cache;
  const CliRun made = Run(kEval15, Cached(cache.str()));
  INFO("stderr: " << made.err);
  REQUIRE(made.code == 0);
  const std::string file = cache.File(kTable15);
  CHECK(made.err.rfind("martiandice: no table for 2 players (13 dice, bonus 3, target 15) yet: "
                       "solving it\nmartiandice: solved in ",
                       0) == 0);
  CHECK(absl::EndsWith(made.err, ", kept for the next run: " + file + "\n"));
  const Json json = ParseJsonOrFail(made.out);
  CHECK(json["table"].text == file);
  CHECK_FALSE(json["fallback"].boolean);
  CHECK(json["values"].text == "win");
  // The same bytes as the solve command's, and the same answer from them.
  TempDir solved;
  const std::string out = solved.File("t15.mdt");
  REQUIRE(Run({"solve", "--target", "15", "--no-certify", "--quiet", "--out", out}).code == 0);
  CHECK(ReadFile(file) == ReadFile(out));
  std::vector<std::string> given = kEval15;
  given.insert(given.end(), {"--tables", out});
  CHECK(Run(given).out == made.out.substr(0, made.out.find(file)) + out +
                              made.out.substr(made.out.find(file) + file.size()));
  // The next run finds the file: nothing solved, nothing said, the same answer.
  const fs::file_time_type written = fs::last_write_time(file);
  const CliRun again = Run(kEval15, Cached(cache.str()));
  CHECK(again.code == 0);
  CHECK(again.err.empty());
  CHECK(again.out == made.out);
  CHECK(fs::last_write_time(file) == written);
  // A run stopped before its rename left a temporary: the next solve removes
  // it once stale (10 minutes unwritten), and never another run's fresh one.
  const std::string stale = file + ".tmp.abc123", fresh = file + ".tmp.def456";
  std::ofstream(stale) << "partial";
  std::ofstream(fresh) << "partial";
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::minutes(11));
  // A damaged file is solved again, the same bytes back.
  std::string bytes = ReadFile(file);
  bytes[bytes.size() / 2] ^= 0x10;
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
  const CliRun repaired = Run(kEval15, Cached(cache.str()));
  CHECK(repaired.code == 0);
  CHECK(repaired.err.find("solving it") != std::string::npos);
  CHECK(repaired.out == made.out);
  CHECK(ReadFile(file) == ReadFile(out));
  CHECK_FALSE(fs::exists(stale));
  CHECK(fs::exists(fresh));
}

TEST_CASE("table cache: large games and unwritable caches play the fallback, saying why") {
  TempDir cache;
  // 4 players at the official rules: a 116 MiB table, over kMaxMadeTableBytes.
  const CliRun large = Run({"eval", "--scores", "0,0,0,0", "--json"}, Cached(cache.str()));
  REQUIRE(large.code == 0);
  CHECK(large.err.empty());
  CHECK(ParseJsonOrFail(large.out)["fallback"].boolean);
  CHECK(cache.Files().empty());
  // A file where the cache folder would be.
  const std::string blocked = cache.File("not-a-folder");
  std::ofstream(blocked) << "x";
  const CliRun refused = Run(kEval15, Cached(blocked + "/tables"));
  REQUIRE(refused.code == 0);
  const Json json = ParseJsonOrFail(refused.out);
  CHECK(json["fallback"].boolean);
  CHECK(json["fallback_reason"].text.find("no policy table " + std::string(kTable15)) == 0);
  CHECK(json["fallback_reason"].text.find("; solving it into " + blocked + "/tables failed: ") !=
        std::string::npos);
  // A table named with --tables is never made.
  std::vector<std::string> named = kEval15;
  named.insert(named.end(), {"--tables", cache.str()});
  const CliRun missing = Run(named, Cached(cache.str()));
  CHECK(missing.code == 2);
  CHECK_FALSE(fs::exists(cache.File(kTable15)));
}

TEST_CASE("table cache: the folder follows MARTIANDICE_CACHE, XDG_CACHE_HOME, HOME") {
  using martiandice::cli::TableCacheFolder;
  const ScopedEnv home("HOME", "/home/player");
  const ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
  {
    const ScopedEnv cache("MARTIANDICE_CACHE", std::nullopt);
    CHECK(TableCacheFolder() == "/home/player/.cache/martiandice/tables");
    const ScopedEnv set_xdg("XDG_CACHE_HOME", "/var/cache/player");
    CHECK(TableCacheFolder() == "/var/cache/player/martiandice/tables");
  }
  {
    const ScopedEnv cache("MARTIANDICE_CACHE", "/srv/tables");
    CHECK(TableCacheFolder() == "/srv/tables");
  }
  {
    const ScopedEnv cache("MARTIANDICE_CACHE", "off");
    CHECK(TableCacheFolder() == std::nullopt);
  }
  const ScopedEnv cache("MARTIANDICE_CACHE", "");
  const ScopedEnv no_home("HOME", std::nullopt);
  CHECK(TableCacheFolder() == std::nullopt);
}

#ifdef MARTIANDICE_CLI_PATH
#include "process_util.h"

TEST_CASE("table cache: the executable keeps its tables where MARTIANDICE_CACHE says") {
  TempDir cache;
  const ScopedEnv env("MARTIANDICE_CACHE", cache.str());
  const process_util::ProcessRun run = process_util::RunProcess(
      MARTIANDICE_CLI_PATH,
      {"best", "--scores", "3,9", "--target", "15", "--roll", "2T 3R 4H 3C 1K", "--json"});
  INFO("stderr: " << run.err);
  CHECK(run.Exited(0));
  CHECK(ParseJsonOrFail(run.out)["table"].text == cache.File(kTable15));
  CHECK(cache.Files() == std::vector<std::string>{kTable15});
}
#endif
