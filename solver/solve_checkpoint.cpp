// The game solve's checkpoints: the finished contexts in the solve's order,
// loaded, written and deleted at the solve's points.
#include "solve_checkpoint.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "atomic_file.h"
#include "table_format.h"

namespace martiandice::solver {

std::string RankCheckpointPath(const std::string& path, int rank, int ranks) {
  return ranks > 1 ? absl::StrFormat("%s.rank-%d-of-%d", path, rank, ranks) : path;
}

std::optional<OtherLayout> OtherLayoutCheckpoint(const std::string& path, int ranks) {
  std::error_code error;
  if (std::filesystem::exists(RankCheckpointPath(path, 0, ranks), error)) return std::nullopt;
  if (ranks > 1 && std::filesystem::exists(path, error)) return OtherLayout{path, 1};
  const std::filesystem::path file(path);
  const std::string prefix = RankCheckpointPath(file.filename().string(), 0, 2);
  const std::string first = prefix.substr(0, prefix.size() - 1);  // "NAME.rank-0-of-"
  for (auto it = std::filesystem::directory_iterator(
           file.has_parent_path() ? file.parent_path() : ".", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    int n = 0;
    if (name.rfind(first, 0) == 0 && absl::SimpleAtoi(name.substr(first.size()), &n) && n > 1 &&
        n != ranks) {
      return OtherLayout{it->path().string(), n};
    }
  }
  return std::nullopt;
}

SolveCheckpoint::SolveCheckpoint(const GameSolveOptions& options, SolveState& state,
                                 const LevelSchedule& schedule, LevelShare& share,
                                 GameSolveReport* report)
    : state_(state),
      schedule_(schedule),
      share_(share),
      report_(report),
      path_(options.checkpoint.empty()
                ? std::string()
                : RankCheckpointPath(options.checkpoint, schedule.rank(), schedule.ranks())),
      resume_hint_(options.resume_hint),
      interval_(options.checkpoint_interval),
      keep_(options.keep_checkpoint) {}

CheckpointIdentity SolveCheckpoint::Identity() const {
  CheckpointIdentity id;
  id.rules = state_.rules;
  id.players = state_.n;
  id.extended = state_.arithmetic == internal::Arithmetic::kExtended;
  id.solver_version = kSolverVersion;
  id.levels = static_cast<std::uint32_t>(schedule_.levels());
  id.rank = static_cast<std::uint32_t>(schedule_.rank());
  id.ranks = static_cast<std::uint32_t>(schedule_.ranks());
  return id;
}

// Calls fn(context) for every context finished before `at`, in the
// checkpoint's order.
template <typename Fn>
void SolveCheckpoint::ForEachFinished(SolvePoint at, Fn fn) const {
  int s[kMaxPlayers];
  auto visit = [&](std::uint64_t code) {
    schedule_.Unpack(code, s);
    for (int seat = state_.FirstMover(s); seat < state_.n; ++seat) fn(state_.index.Index(seat, s));
  };
  for (int k = 0; k < at.level; ++k) {
    for (std::uint64_t code : schedule_.Level(k)) visit(code);
  }
  for (size_t v = 0; v < at.vectors; ++v) visit(schedule_.Level(at.level)[v]);
}

absl::StatusOr<SolvePoint> SolveCheckpoint::Open() {
  if (!enabled()) return SolvePoint();
  if (shared()) return OpenShared();
  // What a write would refuse (a symbolic link, a folder) is refused before it is read.
  if (absl::Status s = CheckReplaceable(path_); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<CheckpointReader>> reader =
      CheckpointReader::Open(path_, Identity(), CheckpointSize(state_.index.size(), state_.n));
  if (reader.ok()) {
    if (absl::Status s = Load(**reader); !s.ok()) return s;
    const Checkpoint& loaded = (*reader)->header();
    return SolvePoint{static_cast<int>(loaded.levels_done),
                      static_cast<size_t>(loaded.vectors_done)};
  }
  if (!absl::IsNotFound(reader.status())) return reader.status();
  // Written now, so a path that cannot be written fails before the work.
  if (absl::Status s = Write(SolvePoint(), CheckpointCounters()); !s.ok()) return s;
  return SolvePoint();
}

absl::StatusOr<SolvePoint> SolveCheckpoint::OpenShared() {
  // This rank's files, by the level they hold (each at a level's start), their
  // headers read: only the one loaded is read further.
  std::vector<std::pair<std::uint32_t, std::unique_ptr<CheckpointReader>>> held;
  absl::Status read = CheckReplaceable(path_);  // as Open's, agreed by every rank
  for (const std::string& path : {path_, previous()}) {
    if (!read.ok()) break;
    absl::StatusOr<std::unique_ptr<CheckpointReader>> c =
        CheckpointReader::Open(path, Identity(), CheckpointSize(state_.index.size(), state_.n));
    if (absl::IsNotFound(c.status())) continue;
    if (!c.ok()) {
      read = c.status();
    } else if ((*c)->header().vectors_done != 0) {
      read = absl::DataLossError(absl::StrFormat(
          "checkpoint %s is unusable: it stops within a level, which a rank's never does; delete "
          "it to start the solve over",
          path));
    } else {
      held.emplace_back((*c)->header().levels_done, *std::move(c));
    }
  }
  if (absl::Status s = share_.Agree(read); !s.ok()) return s;
  std::string levels;
  for (const auto& [level, c] : held) levels.append(reinterpret_cast<const char*>(&level), 4);
  absl::StatusOr<std::vector<std::string>> all = share_.Gather(levels);
  if (!all.ok()) return all.status();
  // Whether a rank's message lists `level`.
  auto lists = [](const std::string& message, std::uint32_t level) {
    for (std::size_t at = 0; at + 4 <= message.size(); at += 4) {
      std::uint32_t l;
      std::memcpy(&l, message.data() + at, 4);
      if (l == level) return true;
    }
    return false;
  };
  // The latest level every rank holds (the start: none needed).
  std::uint32_t common = 0;
  for (const auto& entry : held) {
    const std::uint32_t level = entry.first;  // a plain name: clang 14 captures no bindings
    if (std::all_of(all->begin(), all->end(),
                    [&](const std::string& m) { return lists(m, level); })) {
      common = std::max(common, level);
    }
  }
  absl::Status loaded = absl::OkStatus();
  for (const auto& [level, c] : held) {
    if (common > 0 && level == common) {
      loaded = Load(*c);
      break;
    }
  }
  if (absl::Status s = share_.Agree(loaded); !s.ok()) return s;
  if (common > 0) return SolvePoint{static_cast<int>(common), 0};
  if (absl::Status s = Write(SolvePoint(), CheckpointCounters()); !s.ok()) return s;
  return SolvePoint();
}

absl::Status SolveCheckpoint::Write(SolvePoint at, const CheckpointCounters& counters) {
  const int n = state_.n;
  const double began = schedule_.Seconds();
  Checkpoint c;
  c.identity = Identity();
  c.levels_done = static_cast<std::uint32_t>(at.level);
  c.vectors_done = at.vectors;
  c.counters = counters;
  c.seconds = report_->earlier_seconds + began;
  std::uint64_t contexts = 0;
  ForEachFinished(at, [&](long long) { ++contexts; });
  // Streamed to the temporary: the values are never copied whole.
  absl::StatusOr<std::unique_ptr<AtomicFileWriter>> file = AtomicFileWriter::Create(path_);
  absl::Status written = file.status();
  if (written.ok()) {
    CheckpointWriter writer(c, contexts,
                            [&file](std::string_view bytes) { return (*file)->Append(bytes); });
    ForEachFinished(at, [&](long long context) {
      writer.Append(&state_.win[context * n], n);
      writer.Append(&state_.error_of[context], 1);
      if (n == 2) writer.Append(&state_.pair_slope[context], 1);
    });
    written = writer.Finish();
  }
  if (written.ok() && shared()) {
    // The last one kept until every rank has written this one.
    std::error_code error;
    if (std::filesystem::exists(path_, error)) std::filesystem::rename(path_, previous(), error);
    if (error)
      written = absl::InternalError(absl::StrCat("renaming ", path_, ": ", error.message()));
  }
  if (written.ok()) written = (*file)->Commit();
  if (!written.ok()) {
    written =
        absl::Status(written.code(), absl::StrCat("writing the checkpoint: ", written.message()));
  }
  // This rank's own write (not the wait for the others) paces the next.
  const double wrote = schedule_.Seconds() - began;
  if (shared()) {
    written = share_.Agree(written);
    if (written.ok()) {
      std::error_code ignored;  // a leftover only costs disk space: a later level wins
      std::filesystem::remove(previous(), ignored);
    }
  }
  if (!written.ok()) return written;
  last_write_end_ = schedule_.Seconds();
  last_write_seconds_ = wrote;
  ++report_->checkpoints_written;
  report_->checkpoint_bytes = static_cast<long long>(CheckpointSize(contexts, n));
  report_->checkpoint_seconds += last_write_seconds_;
  return absl::OkStatus();
}

bool SolveCheckpoint::Due() const {
  const double since = schedule_.Seconds() - last_write_end_;
  return enabled() && since >= std::max(interval_, 20 * last_write_seconds_);
}

// Reads the finished work `reader`'s checkpoint holds into the state, each
// record checked before it is placed, the checksum last (on an error the
// state's values are partly overwritten: the solve ends with the error).
absl::Status SolveCheckpoint::Load(CheckpointReader& reader) {
  const Checkpoint& c = reader.header();
  const int n = state_.n;
  const int level = static_cast<int>(c.levels_done);
  const int levels = schedule_.levels();
  if (level < levels && c.vectors_done > 0 && c.vectors_done >= schedule_.Level(level).size()) {
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: %u score vectors done of a level of %u; delete it to start "
        "the solve over",
        path_, c.vectors_done, schedule_.Level(level).size()));
  }
  const SolvePoint at{level, level < levels ? static_cast<size_t>(c.vectors_done) : 0};
  std::uint64_t contexts = 0;
  ForEachFinished(at, [&](long long) { ++contexts; });
  if (contexts != reader.contexts()) {
    return absl::DataLossError(absl::StrFormat(
        "checkpoint %s is unusable: %u contexts stored where its progress has %u; delete it to "
        "start the solve over",
        path_, reader.contexts(), contexts));
  }
  // Every record as a table may hold it: a checksum recomputed over altered
  // values must not make a table of them.
  double r[kMaxPlayers + 2];
  double largest_bound = 0;
  std::uint64_t k = 0;
  absl::Status status;
  ForEachFinished(at, [&](long long context) {
    if (!status.ok()) return;
    status = reader.Next(r);
    if (!status.ok()) return;
    std::string problem = internal::WinVectorProblem(r, n, r[n]);
    // As a table's header bound (false for NaN), or an unconverged cycle's
    // infinity: the resumed solve then ends as the first did, with no table.
    if (!(r[n] >= 0 && (r[n] < 1 || r[n] == HUGE_VAL))) {
      problem = absl::StrFormat("error bound %g is not a bound in [0, 1)", r[n]);
    }
    if (!problem.empty()) {
      status = absl::DataLossError(absl::StrFormat(
          "checkpoint %s is unusable: finished context %d: %s; delete it to start the solve over",
          path_, k, problem));
      return;
    }
    largest_bound = std::max(largest_bound, r[n]);
    std::copy(r, r + n, &state_.win[context * n]);
    state_.error_of[context] = r[n];
    if (n == 2) state_.pair_slope[context] = r[n + 1];
    ++k;
  });
  if (status.ok()) status = reader.Finish();
  if (!status.ok()) return status;
  loaded_ = c.counters;
  // The table's bound covers every record loaded, whatever the header says.
  loaded_.error_bound = std::max(loaded_.error_bound, largest_bound);
  report_->earlier_seconds = c.seconds;
  return absl::OkStatus();
}

absl::Status SolveCheckpoint::Interrupt(SolvePoint at, const CheckpointCounters& counters) {
  const long long done = schedule_.CostBefore(at.level, at.vectors);
  const std::string where =
      absl::StrFormat("%.1f%% done (level %d of %d)", 100 * schedule_.Fraction(done), at.level + 1,
                      schedule_.levels());
  if (!enabled()) {
    return absl::CancelledError(
        absl::StrCat("solve interrupted at ", where, "; no checkpoint file: the work is lost"));
  }
  if (absl::Status s = Write(at, counters); !s.ok()) return s;
  return absl::CancelledError(absl::StrCat("solve interrupted at ", where,
                                           "; the finished work is saved in ", path_, ": ",
                                           resume_hint_));
}

absl::Status SolveCheckpoint::SaveAfter(const absl::Status& status, SolvePoint at,
                                        const CheckpointCounters& counters) {
  if (!enabled()) return status;
  if (absl::Status s = Write(at, counters); !s.ok()) return status;
  return absl::Status(
      status.code(), absl::StrCat(status.message(), "; the finished work is saved in ", path_, ": ",
                                  resume_hint_));
}

absl::Status SolveCheckpoint::Finish(bool solved, const CheckpointCounters& counters) {
  if (!enabled()) return absl::OkStatus();
  if (keep_) {
    // Kept: then it holds the whole solve, and solving again only loads it.
    return solved ? Write(SolvePoint{schedule_.levels(), 0}, counters) : absl::OkStatus();
  }
  std::error_code ignored;  // one left behind is harmless: the same solve would load it
  std::filesystem::remove(path_, ignored);
  if (shared()) std::filesystem::remove(previous(), ignored);
  return absl::OkStatus();
}

}  // namespace martiandice::solver
