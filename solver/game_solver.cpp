// The N-player game-level solve, put together: backward over the sum of the
// totals (level_schedule.h), a level's score vectors with a seat at the
// target first, in final-round waves from the last seat back (final_round.h),
// then those below the target, zero-score cycles (cycle_rounds.h:
// cycle_solve.h, or pair_kernel.h for 2 players; in streams on the worker
// threads, in lockstep rounds for a caller's turn batch solver), every turn
// through a turn batch solver (turn_batch.h); checkpoints
// (solve_checkpoint.h) and the report (solve_report.h). Also the options'
// checks and the table written from the solved values.
#include "game_solver.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <new>
#include <span>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "atomic_file.h"
#include "checksum.h"
#include "cycle_rounds.h"
#include "final_round.h"
#include "level_schedule.h"
#include "level_share.h"
#include "score_law_cache.h"
#include "solve_checkpoint.h"
#include "solve_cluster.h"
#include "solve_report.h"
#include "solve_state.h"
#include "table_format.h"
#include "turn_batch.h"

namespace martiandice::solver {
namespace {

// Most turn-score laws the settling passes keep (336 bytes each with 13
// dice): one for every fourth pass (a pass per mover of each of the
// target^P cycles), 2^17 to 2^22 (44 MB to 1.4 GB), held as they come. The
// official 4-player solve's 1,562,496 passes play 236,399 policies: 390,625
// laws hold them all (85% of the passes reused; a store of 2^17 reuses 37%
// and takes 18% more time: docs/SCALING.md, "The law store").
std::size_t ScoreLawEntries(const GameSolveOptions& options) {
  const double passes = options.players * std::pow(options.rules.target, options.players);
  return static_cast<std::size_t>(std::clamp(passes / 4, 0x1p17, 0x1p22));
}

class GameSolver {
 public:
  GameSolver(const GameSolveOptions& options, GameSolveReport* report)
      : floor_(options.floor),
        report_(report),
        state_(options),
        schedule_(options, state_),
        share_(state_, schedule_, options.cluster),
        checkpoint_(options, state_, schedule_, share_, report),
        score_laws_(*state_.model, ScoreLawEntries(options)),
        pool_(options.threads),
        threaded_(pool_),
        batch_(options.turn_batch ? *options.turn_batch : threaded_),
        final_(state_, schedule_, batch_),
        cycles_(options, state_, schedule_, score_laws_, options.turn_batch, pool_) {}

  // Solves every level not loaded from the checkpoint. Cancelled when stopped.
  absl::StatusOr<GameValues> Run() {
    absl::StatusOr<SolvePoint> resume = checkpoint_.Open();
    if (!resume.ok()) return resume.status();
    const long long resumed = schedule_.CostBefore(resume->level, resume->vectors);
    schedule_.SetResumed(resumed);
    report_->resumed_fraction = schedule_.Fraction(resumed);
    if (share_.enabled()) {
      // Every rank loaded its own vectors of the finished levels: now the others'.
      for (int k = 0; k < resume->level; ++k) {
        if (absl::StatusOr<LevelShare::Agreed> shared =
                share_.AfterLevel(k, absl::OkStatus(), false, false);
            !shared.ok()) {
          return shared.status();
        }
      }
    }
    if (absl::Status s = share_.enabled() ? SolveLevelsShared(*resume) : SolveLevels(*resume);
        !s.ok()) {
      return s;
    }
    report_->contexts = state_.index.size();
    if (share_.enabled()) {  // every rank's counters
      absl::StatusOr<std::vector<SolveStats>> ranks = share_.GatherStats(Counters(), Stats());
      if (!ranks.ok()) return ranks.status();
      std::vector<const SolveStats*> each;
      for (const SolveStats& r : *ranks) each.push_back(&r);
      ReportCounters(MergeCounters(CheckpointCounters(), each), each, report_);
    } else {
      ReportCounters(Counters(), Stats(), report_);
    }
    std::vector<int> from(state_.n, 0);  // the start, or the floor's first context
    if (!floor_.empty()) from = floor_;
    if (absl::Status s = Start(from.data()); !s.ok()) return s;
    GameValues out;
    out.rules = state_.rules;
    out.players = state_.n;
    out.win = std::move(state_.win);
    out.error_bound = report_->error_bound;
    return out;
  }

 private:
  // The levels from `resume` on, with progress and checkpoints. A level's
  // final-round contexts (FinalRound) go first, its cycles after: where
  // those stop, at a prefix of the level's vectors, the counters of the
  // final-round contexts past it are dropped (they are solved again).
  absl::Status SolveLevels(SolvePoint resume) {
    const int levels = schedule_.levels();
    for (int k = resume.level; k < levels; ++k) {
      const SolvePoint from{k, k == resume.level ? resume.vectors : 0};
      if (schedule_.Stopped()) return checkpoint_.Interrupt(from, Counters());
      if (absl::Status s = final_.SolveLevel(k, from.vectors); !s.ok()) {
        final_.Commit(from.vectors);
        return checkpoint_.SaveAfter(s, from, Counters());
      }
      const CycleRounds::Done finished = cycles_.SolveLevel(k, from.vectors);
      final_.Commit(finished.vectors);
      if (!finished.status.ok()) {
        return checkpoint_.SaveAfter(finished.status, SolvePoint{k, finished.vectors}, Counters());
      }
      if (finished.vectors < schedule_.Level(k).size()) {
        return checkpoint_.Interrupt(SolvePoint{k, finished.vectors}, Counters());
      }
      schedule_.Progress(schedule_.CostBefore(k + 1, 0));
      if (k + 1 < levels && checkpoint_.Due()) {
        if (absl::Status s = checkpoint_.Write(SolvePoint{k + 1, 0}, Counters()); !s.ok()) {
          return s;
        }
      }
    }
    if (resume.level == levels) {  // the checkpoint held everything
      schedule_.Progress(schedule_.CostBefore(levels, 0));
    }
    return checkpoint_.Finish(/*solved=*/resume.level < levels, Counters());
  }

  // The levels from `resume` on in a cluster: each level's share of this
  // rank, then the level's values shared (level_share.h); the ranks stop,
  // fail and write checkpoints together, between levels. A failure (any
  // rank's) or a transport error (a rank gone) ends the solve at once: the
  // last checkpoints written hold the work.
  absl::Status SolveLevelsShared(SolvePoint resume) {
    const int levels = schedule_.levels();
    for (int k = resume.level; k < levels; ++k) {
      // Within a level only with one rank, from a checkpoint of a solve alone.
      const std::size_t from = k == resume.level ? resume.vectors : 0;
      absl::Status solved = final_.SolveLevel(k, from);
      std::size_t done = from;  // the level's prefix finished
      if (solved.ok()) {
        const CycleRounds::Done finished = cycles_.SolveLevel(k, from);
        solved = finished.status;
        done = finished.vectors;
      }
      final_.Commit(solved.ok() ? schedule_.Level(k).size() : done);
      absl::StatusOr<LevelShare::Agreed> agreed =
          share_.AfterLevel(k, solved, schedule_.StopAsked(), checkpoint_.Due());
      if (!agreed.ok()) {
        // A failed level is saved by a lone rank only (as alone); with more,
        // the last checkpoints, all at a level's start, keep the work.
        if (IsTransportError(agreed.status()) || schedule_.ranks() > 1) return agreed.status();
        return checkpoint_.SaveAfter(agreed.status(), SolvePoint{k, done}, Counters());
      }
      schedule_.Progress(schedule_.CostBefore(k + 1, 0));
      if (k + 1 == levels) break;
      if (agreed->stop) return checkpoint_.Interrupt(SolvePoint{k + 1, 0}, Counters());
      if (agreed->checkpoint) {
        if (absl::Status s = checkpoint_.Write(SolvePoint{k + 1, 0}, Counters()); !s.ok()) {
          return s;
        }
      }
    }
    if (resume.level == levels) schedule_.Progress(schedule_.CostBefore(levels, 0));
    return checkpoint_.Finish(/*solved=*/resume.level < levels, Counters());
  }

  // Every seat's chance at the context of totals `from` into the report
  // (in a cluster, its owner's told to every rank).
  absl::Status Start(const int* from) {
    const int n = state_.n;
    const double* start = &state_.win[state_.index.Index(state_.FirstMover(from), from) * n];
    if (!share_.enabled()) {
      report_->start.assign(start, start + n);
      return absl::OkStatus();
    }
    std::string mine;
    if (state_.Own(from)) mine.assign(reinterpret_cast<const char*>(start), sizeof(double) * n);
    absl::StatusOr<std::vector<std::string>> all = share_.Gather(std::move(mine));
    if (!all.ok()) return all.status();
    const std::string& told = (*all)[schedule_.Owner(state_.Pack(from))];
    if (told.size() != sizeof(double) * n) {
      return absl::DataLossError("the start's owner sent no chances for it");
    }
    report_->start.resize(n);
    std::memcpy(report_->start.data(), told.data(), told.size());
    return absl::OkStatus();
  }

  // The stats of the work so far: the final round's and the cycle slots'.
  std::vector<const SolveStats*> Stats() const {
    std::vector<const SolveStats*> all{&final_.stats()};
    all.insert(all.end(), cycles_.stats().begin(), cycles_.stats().end());
    return all;
  }
  // The counters of the work so far: the solve's and the checkpoint's.
  CheckpointCounters Counters() const { return MergeCounters(checkpoint_.loaded(), Stats()); }

  const std::vector<int> floor_;
  GameSolveReport* const report_;
  SolveState state_;
  LevelSchedule schedule_;
  LevelShare share_;  // with a cluster: the levels' values, statuses, counters
  SolveCheckpoint checkpoint_;
  ScoreLawCache score_laws_;    // of the settling passes, by policy
  WorkerPool pool_;             // the solve's threads: its steps and its threaded batches
  ThreadedTurnBatch threaded_;  // the turn batches' solver unless options.turn_batch
  TurnBatchSolver& batch_;
  FinalRound final_;
  CycleRounds cycles_;
};

}  // namespace

namespace {

absl::Status OutOfMemory() {
  return absl::ResourceExhaustedError(
      "out of memory while solving: the system refused an allocation; free memory or use fewer "
      "threads (--threads)");
}

}  // namespace

absl::StatusOr<GameValues> SolveGameValues(const GameSolveOptions& options,
                                           GameSolveReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  if (options.players < kMinPlayers || options.players > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrFormat("players must be %d..%d, got %d", kMinPlayers,
                                                      kMaxPlayers, options.players));
  }
  if (options.threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("threads must be at least 1, got %d", options.threads));
  }
  if (!(options.progress_interval >= 0) || !(options.checkpoint_interval >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("progress and checkpoint intervals must be >= 0 seconds, got %g and %g",
                        options.progress_interval, options.checkpoint_interval));
  }
  if (options.guess_order < 1 || options.guess_order > kMaxGuessOrder ||
      (options.guess_order != 1 && !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the guess order must be 1 to %d (and 1 with a checkpoint), got %d",
                        kMaxGuessOrder, options.guess_order));
  }
  if (options.probe_guess_order < 0 || options.probe_guess_order > kMaxGuessOrder ||
      (options.probe_guess_order != 0 && !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("the probe guess order must be 0 to %d (and 0 with a checkpoint), got %d",
                        kMaxGuessOrder, options.probe_guess_order));
  }
  if (const std::size_t cycles = CyclesInFlight(options);
      cycles < 1 || cycles > kMaxCyclesInFlight) {
    return absl::InvalidArgumentError(
        absl::StrFormat("cycles in flight must be 1 to %d, got %d%s", kMaxCyclesInFlight, cycles,
                        options.cycles_in_flight == 0 ? " from the turn batch solver" : ""));
  }
  if (options.players == 2 && options.arithmetic == SolveArithmetic::kAuto &&
      (options.guess_order != 1 || options.probe_guess_order != 0)) {
    return absl::InvalidArgumentError(
        "the 2-player solve takes no guess order or probe (its cycles are solved by the pair "
        "kernel; those are for 3 or more players)");
  }
  if (!options.floor.empty() &&
      (static_cast<int>(options.floor.size()) != options.players || !options.checkpoint.empty())) {
    return absl::InvalidArgumentError(
        absl::StrFormat("a floor needs one total per seat (%d, got %d) and no checkpoint",
                        options.players, static_cast<int>(options.floor.size())));
  }
  GameSolveReport local;
  if (report == nullptr) report = &local;
  *report = GameSolveReport();
  auto begin = std::chrono::steady_clock::now();
  try {  // a worker's failed allocation is rethrown on this thread (workers.h)
    absl::StatusOr<GameValues> values = GameSolver(options, report).Run();
    report->cycles_in_flight = options.turn_batch != nullptr ? CyclesInFlight(options) : 0;
    report->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return values;
  } catch (const std::bad_alloc&) {
    return OutOfMemory();
  }
}

namespace {

// The machine's memory in bytes; 0 when unknown.
double PhysicalMemory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0;
}

// A table too large to make here (fewer ranks than TableSolveProcesses, or
// values beyond memory), alone or by each rank of a cluster for its share.
absl::Status CheckTableSize(const GameSolveOptions& options) {
  if (options.players < kMinPlayers || options.players > kMaxPlayers) return absl::OkStatus();
  const long long contexts = internal::ContextNumbering(options.rules, options.players).size();
  const int ranks = options.cluster != nullptr ? options.cluster->ranks() : 1;
  const double values = 8.0 * options.players * static_cast<double>(contexts) / ranks;
  const double bytes = static_cast<double>(TableBytes(options.rules, options.players)) / ranks;
  const std::string share = ranks > 1 ? absl::StrFormat(" (a rank's share of %d)", ranks) : "";
  if (const int processes = TableSolveProcesses(options.rules, options.players);
      ranks < processes) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d players with these rules have %d turn-start contexts: the table would take %.3g "
        "bytes%s, more than the %d GiB one machine solves (its memory holds its values); lower "
        "the target or the number of players, or solve on %d ranks at least (mpirun -np %d)",
        options.players, contexts, bytes, share, kMaxTableBytes >> 30, processes, processes));
  }
  if (const double memory = PhysicalMemory(); memory > 0 && values > memory) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "%d players with these rules have %d turn-start contexts: their values take %.3g "
        "bytes%s, more than this machine's memory (%.3g bytes); lower the target or the number "
        "of players, or solve on more ranks (mpirun)",
        options.players, contexts, values, share, memory));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<GameValues> SolveTableValues(const GameSolveOptions& options,
                                            GameSolveReport* report) {
  if (absl::Status s = ValidateRules(options.rules); !s.ok()) return s;
  // A table that cannot be made is not worth the solve (nor its memory).
  if (absl::Status s = CheckTableSize(options); !s.ok()) return s;
  GameSolveReport local;
  GameSolveReport* r = report ? report : &local;
  absl::StatusOr<GameValues> values = SolveGameValues(options, r);
  if (!values.ok()) return values.status();
  // A zero-score cycle that did not converge leaves values without a bound
  // (docs/PLAYERS.md, "Zero-score cycles" and "Mixed cycles"): no table a
  // reader would refuse, or worse trust, is written.
  if (!(values->error_bound < 1e-9)) {
    const std::vector<std::vector<int>>& cycles = r->unconverged_examples;
    const std::string which = cycles.empty() ? "a zero-score cycle"
                                             : absl::StrCat("the zero-score cycle at totals (",
                                                            absl::StrJoin(cycles[0], ", "), ")",
                                                            cycles.size() > 1 ? " and others" : "");
    return absl::FailedPreconditionError(absl::StrFormat(
        "the %d-player solve could not bound its values (error bound %g): %s did not converge "
        "within %d rounds of policy iteration (its best replies alternate; see "
        "docs/PLAYERS.md); no table written",
        values->players, values->error_bound, which, kMaxCycleRounds));
  }
  return values;
}

absl::StatusOr<std::string> SolveGameTable(const GameSolveOptions& options,
                                           GameSolveReport* report) {
  absl::StatusOr<GameValues> values = SolveTableValues(options, report);
  if (!values.ok()) return values.status();
  try {  // the table's bytes: as many again as the values
    return internal::SerializeTable(values->rules, values->players, values->error_bound,
                                    values->win);
  } catch (const std::bad_alloc&) {
    return OutOfMemory();
  }
}

namespace {

// Frees a table's values once written (Now) or on any return: the
// read-back that follows never holds the table twice.
class ReleaseWin {
 public:
  explicit ReleaseWin(GameValues& values) : values_(values) {}
  ReleaseWin(const ReleaseWin&) = delete;
  ReleaseWin& operator=(const ReleaseWin&) = delete;
  ~ReleaseWin() { Now(); }
  void Now() { ValueVector().swap(values_.win); }

 private:
  GameValues& values_;
};

}  // namespace

absl::Status WriteGameTable(GameValues&& values, const std::string& path,
                            absl::FunctionRef<absl::Status(const std::string& temporary)> check) {
  ReleaseWin release(values);
  absl::StatusOr<std::unique_ptr<AtomicFileWriter>> writer = AtomicFileWriter::Create(path);
  if (!writer.ok()) return writer.status();
  internal::TableEncoder encoder(values.rules, values.players, values.error_bound);
  const std::span<const double> win(values.win);
  // The header's room first: it is complete once every block's checksum is known.
  if (absl::Status s = (*writer)->Append(std::string(internal::kTableHeaderSize, '\0')); !s.ok()) {
    return s;
  }
  for (std::int64_t b = 0; b < encoder.block_count(); ++b) {
    const std::int64_t first = encoder.BlockBegin(b) * values.players;
    const std::int64_t end = encoder.BlockEnd(b) * values.players;
    if (absl::Status s = (*writer)->Append(encoder.Block(b, win.subspan(first, end - first)));
        !s.ok()) {
      return s;
    }
  }
  release.Now();
  if (absl::Status s = (*writer)->Append(encoder.Checksums()); !s.ok()) return s;
  if (absl::Status s = (*writer)->WriteAt(0, encoder.Header()); !s.ok()) return s;
  if (absl::Status s = check((*writer)->temporary()); !s.ok()) return s;
  return (*writer)->Commit();
}

namespace {

// Reads exactly `size` bytes at `offset` of `fd` into *out.
bool ReadAll(int fd, std::uint64_t offset, std::size_t size, std::string* out) {
  out->resize(size);
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = pread(fd, out->data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Opens the table's temporary `temporary` for this rank.
absl::StatusOr<int> OpenTemporary(const std::string& temporary) {
  const int fd = open(temporary.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return absl::DataLossError(absl::StrFormat("cannot open the table's temporary %s: %s",
                                               temporary, std::strerror(errno)));
  }
  return fd;
}

// `what` on the table's temporary `temporary` failed (errno), `fd` closed.
absl::Status TemporaryError(int fd, const char* what, const std::string& temporary) {
  const int err = errno;
  close(fd);
  return absl::DataLossError(absl::StrFormat("%s the table's temporary %s failed: %s", what,
                                             temporary,
                                             err != 0 ? std::strerror(err) : "too short"));
}

// This rank's records written into the temporary and synced: its contexts
// (SolveState::Own: seat 0's total the rank modulo the ranks), each run a
// piece at a time.
absl::Status WriteRecords(const GameValues& values, const std::string& temporary, int rank,
                          int ranks) {
  absl::StatusOr<int> fd = OpenTemporary(temporary);
  if (!fd.ok()) return fd.status();
  const int n = values.players;
  const internal::ContextNumbering numbering(values.rules, n);
  constexpr std::int64_t kPiece = std::int64_t{1} << 16;  // contexts a write
  const std::span<const double> win(values.win);
  for (int seat = 0; seat < n; ++seat) {
    for (int total = 0; total < numbering.SeatZeroTotals(seat); ++total) {
      if (RankOfTotal(total, ranks) != rank) continue;
      std::int64_t end = 0;
      for (std::int64_t c = numbering.SeatZeroRun(seat, total, &end); c < end; c += kPiece) {
        const std::int64_t count = std::min(kPiece, end - c);
        errno = 0;
        if (!WriteAllAt(*fd, internal::EncodeRecords(win.subspan(c * n, count * n)),
                        internal::kTableHeaderSize + static_cast<std::uint64_t>(c) * 8 * n)) {
          return TemporaryError(*fd, "writing", temporary);
        }
      }
    }
  }
  if (fsync(*fd) != 0) return TemporaryError(*fd, "syncing", temporary);
  if (close(*fd) != 0) return absl::DataLossError(absl::StrCat("closing ", temporary, " failed"));
  return absl::OkStatus();
}

// The checksums of blocks rank, rank + ranks, ... of the temporary, every
// rank's records written, into *crcs (4 bytes each, little-endian).
absl::Status ChecksumBlocks(const std::string& temporary, int players, int rank, int ranks,
                            const internal::TableEncoder& encoder, std::string* crcs) {
  absl::StatusOr<int> fd = OpenTemporary(temporary);
  if (!fd.ok()) return fd.status();
  crcs->clear();
  std::string block;
  for (std::int64_t b = rank; b < encoder.block_count(); b += ranks) {
    const std::int64_t first = encoder.BlockBegin(b);
    errno = 0;
    if (!ReadAll(*fd, internal::kTableHeaderSize + static_cast<std::uint64_t>(first) * 8 * players,
                 static_cast<std::size_t>(encoder.BlockEnd(b) - first) * 8 * players, &block)) {
      return TemporaryError(*fd, "reading back", temporary);
    }
    const std::uint32_t crc = internal::Crc32(block);
    for (int i = 0; i < 4; ++i) crcs->push_back(static_cast<char>(crc >> (8 * i) & 0xff));
  }
  close(*fd);
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteGameTableShared(
    GameValues&& values, const std::string& path, SolveCluster& cluster,
    absl::FunctionRef<absl::Status(const std::string& temporary)> check) {
  ReleaseWin release(values);
  const int rank = cluster.rank(), ranks = cluster.ranks();
  internal::TableEncoder encoder(values.rules, values.players, values.error_bound);
  // Rank 0 makes the temporary (its header's room) and tells its path.
  std::unique_ptr<AtomicFileWriter> writer;
  absl::Status made = absl::OkStatus();
  if (rank == 0) {
    absl::StatusOr<std::unique_ptr<AtomicFileWriter>> created = AtomicFileWriter::Create(path);
    made = created.status();
    if (made.ok()) {
      writer = *std::move(created);
      made = writer->Append(std::string(internal::kTableHeaderSize, '\0'));
    }
  }
  if (absl::Status s = AgreeStatus(cluster, made); !s.ok()) return s;
  absl::StatusOr<std::vector<std::string>> told =
      GatherAll(cluster, rank == 0 ? writer->temporary() : std::string());
  if (!told.ok()) return told.status();
  // Every rank its records; once all are written, its blocks' checksums;
  // rank 0 the rest.
  const std::string& temporary = (*told)[0];
  if (absl::Status s = AgreeStatus(cluster, WriteRecords(values, temporary, rank, ranks));
      !s.ok()) {
    return s;
  }
  release.Now();
  std::string crcs;
  if (absl::Status s = AgreeStatus(
          cluster, ChecksumBlocks(temporary, values.players, rank, ranks, encoder, &crcs));
      !s.ok()) {
    return s;
  }
  absl::StatusOr<std::vector<std::string>> all = GatherAll(cluster, std::move(crcs));
  if (!all.ok()) return all.status();
  absl::Status finished = absl::OkStatus();
  if (rank == 0) {
    for (std::int64_t b = 0; b < encoder.block_count() && finished.ok(); ++b) {
      const std::string& from = (*all)[b % ranks];
      const std::size_t at = 4 * static_cast<std::size_t>(b / ranks);
      if (at + 4 > from.size()) {
        finished = absl::DataLossError(
            absl::StrFormat("rank %d of %d sent too few block checksums", b % ranks, ranks));
        break;
      }
      std::uint32_t crc = 0;
      for (int i = 3; i >= 0; --i) crc = crc << 8 | static_cast<std::uint8_t>(from[at + i]);
      encoder.SetChecksum(b, crc);
    }
    const std::uint64_t records =
        static_cast<std::uint64_t>(encoder.context_count()) * 8 * values.players;
    if (finished.ok()) {
      finished = writer->WriteAt(internal::kTableHeaderSize + records, encoder.Checksums());
    }
    if (finished.ok()) finished = writer->WriteAt(0, encoder.Header());
    if (finished.ok()) finished = check(writer->temporary());
    if (finished.ok()) finished = writer->Commit();
  }
  const absl::Status agreed = AgreeStatus(cluster, finished);
  return finished.ok() ? agreed : finished;  // rank 0's own error unprefixed
}

}  // namespace martiandice::solver
