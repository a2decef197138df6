// The messages of a clustered solve's ranks: a level's values, statuses,
// counters.
#include "level_share.h"

#include <cstring>
// glibc's heap, trimmed after each level; not under a sanitizer, whose heap
// replaces it: glibc's is then never set up, and trimming it from two ranks
// on threads at once races in its first-use setup (a crash seen under ASan).
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer)
#define MARTIANDICE_TRIM_HEAP 1
#endif
#else
#define MARTIANDICE_TRIM_HEAP 1
#endif
#endif
#ifdef MARTIANDICE_TRIM_HEAP
#include <malloc.h>
#endif
#include <string_view>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace martiandice::solver {
namespace {

// Appends trivially copyable values to a message.
template <typename T>
void Put(std::string& out, const T* values, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(values), sizeof(T) * count);
}
template <typename T>
void Put(std::string& out, const T& value) {
  Put(out, &value, 1);
}

// Reads a message back; every read checked against the bytes left.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  bool Get(T* values, std::size_t count) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (count > (bytes_.size() - at_) / sizeof(T)) return false;
    std::memcpy(values, bytes_.data() + at_, sizeof(T) * count);
    at_ += sizeof(T) * count;
    return true;
  }
  template <typename T>
  bool Get(T* value) {
    return Get(value, 1);
  }
  std::string_view Rest() {
    std::string_view rest = bytes_.substr(at_);
    at_ = bytes_.size();
    return rest;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
};

// A status as a message: its code, then its text.
std::string EncodeStatus(const absl::Status& status) {
  std::string out;
  Put(out, static_cast<std::int32_t>(status.code()));
  out.append(status.message().data(), status.message().size());
  return out;
}

// The first failed status of `messages` (EncodeStatus's, each followed by
// `skip` bytes of other fields), named by its rank; ok if none.
template <typename Message>
absl::Status FirstFailure(const std::vector<Message>& messages, int ranks) {
  for (int r = 0; r < static_cast<int>(messages.size()); ++r) {
    Reader in(messages[r]);
    std::int32_t code = 0;
    if (!in.Get(&code)) {
      return absl::DataLossError(absl::StrFormat("rank %d of %d sent an empty status", r, ranks));
    }
    if (code != 0) {
      return absl::Status(static_cast<absl::StatusCode>(code),
                          absl::StrFormat("rank %d of %d: %s", r, ranks, in.Rest()));
    }
  }
  return absl::OkStatus();
}

// The records rank `reader` reads of another rank's vector `s`: movers
// *from.. (the count returned; 0: none). A turn of seat 0 leads to seat 1's
// context (first <= 1 there: seat 0 at the target makes seat 1 the first).
int ReadRecords(const SolveState& state, const int* s, int reader, int* from) {
  const int first = state.FirstMover(s);
  switch (state.Reads(s, reader)) {
    case SolveState::Read::kAll:
      *from = first;
      return state.n - first;
    case SolveState::Read::kNext:
      *from = 1;
      return first <= 1 ? 1 : 0;
    case SolveState::Read::kNone:
      break;
  }
  return 0;
}

}  // namespace

bool IsTransportError(const absl::Status& status) {
  return absl::IsDeadlineExceeded(status) || absl::IsAborted(status);
}

LevelShare::LevelShare(SolveState& state, const LevelSchedule& schedule, SolveCluster* cluster)
    : state_(state), schedule_(schedule), cluster_(cluster) {}

absl::StatusOr<std::vector<std::string>> ExchangeAll(SolveCluster& cluster,
                                                     std::vector<std::string> to_each) {
  absl::StatusOr<std::vector<std::string>> all = cluster.Exchange(std::move(to_each));
  if (all.ok() && static_cast<int>(all->size()) != cluster.ranks()) {
    return absl::DataLossError(absl::StrFormat("the cluster returned %d messages for %d ranks",
                                               all->size(), cluster.ranks()));
  }
  return all;
}

absl::StatusOr<std::vector<std::string>> GatherAll(SolveCluster& cluster, std::string mine) {
  return ExchangeAll(cluster, std::vector<std::string>(cluster.ranks(), mine));
}

absl::StatusOr<std::vector<std::string>> LevelShare::Gather(std::string mine) {
  return GatherAll(*cluster_, std::move(mine));
}

absl::Status LevelShare::Agree(const absl::Status& status) {
  return AgreeStatus(*cluster_, status);
}

absl::Status AgreeStatus(SolveCluster& cluster, const absl::Status& status) {
  absl::StatusOr<std::vector<std::string>> all = GatherAll(cluster, EncodeStatus(status));
  if (!all.ok()) return all.status();
  return FirstFailure(*all, cluster.ranks());
}

// A level's message to a rank: the flags (stop, due), then the status, then
// (when ok) the records that rank reads of this rank's vectors, in order:
// every mover's (SolveState::Read::kAll) or seat 1's (kNext).
absl::StatusOr<LevelShare::Agreed> LevelShare::AfterLevel(int level, const absl::Status& status,
                                                          bool stop, bool due) {
  const int n = state_.n;
  const bool slope = n == 2;  // the pair kernel's (kept as checkpoints keep it)
  const int width = state_.width;
  const int ranks = cluster_->ranks();
  const int rank = schedule_.rank();
  int s[kMaxPlayers];
  std::string head;
  Put(head, static_cast<std::uint8_t>(stop));
  Put(head, static_cast<std::uint8_t>(due));
  const absl::Status checked =
      status.ok() && state_.missed.load()
          ? absl::InternalError(absl::StrFormat(
                "level %d read a value of another rank's that this rank does not hold", level))
          : status;
  head += EncodeStatus(checked);
  std::vector<std::string> to_each(static_cast<std::size_t>(ranks), head);
  if (checked.ok()) {
    // Each message's size first (grown by doubling, one would hold up to twice its bytes).
    std::vector<std::size_t> records_to(static_cast<std::size_t>(ranks), 0);
    for (std::uint64_t code : schedule_.Level(level)) {
      schedule_.Unpack(code, s);
      int from = 0;
      for (int d = 0; d < ranks; ++d)
        records_to[d] += d == rank ? 0 : ReadRecords(state_, s, d, &from);
    }
    for (int d = 0; d < ranks; ++d)
      to_each[d].reserve(head.size() + records_to[d] * width * sizeof(double));
    for (std::uint64_t code : schedule_.Level(level)) {
      schedule_.Unpack(code, s);
      for (int d = 0; d < ranks; ++d) {
        int from = 0;
        const int count = d == rank ? 0 : ReadRecords(state_, s, d, &from);
        for (int seat = from; seat < from + count; ++seat) {
          const long long c = state_.index.Index(seat, s);
          Put(to_each[d], &state_.win[c * n], n);
          Put(to_each[d], state_.error_of[c]);
          if (slope) Put(to_each[d], state_.pair_slope[c]);
        }
      }
    }
  }
  absl::StatusOr<std::vector<std::string>> all = ExchangeAll(*cluster_, std::move(to_each));
  if (!all.ok()) return all.status();
  Agreed agreed;
  std::vector<std::string_view> bodies(ranks);  // views: a level's values are not copied
  for (int r = 0; r < ranks; ++r) {
    Reader in((*all)[r]);
    std::uint8_t flags[2];
    if (!in.Get(flags, 2)) {
      return absl::DataLossError(absl::StrFormat("rank %d of %d sent a short message", r, ranks));
    }
    agreed.stop |= flags[0] != 0;
    agreed.checkpoint |= flags[1] != 0;
    bodies[r] = in.Rest();
  }
  if (absl::Status failed = FirstFailure(bodies, ranks); !failed.ok()) return failed;
  // The others' records this rank reads (SolveState::Reads), each rank's
  // vectors in order (LevelSchedule::Owner).
  std::vector<Reader> in;
  in.reserve(ranks);
  for (int r = 0; r < ranks; ++r) {
    in.emplace_back(bodies[r]);
    std::int32_t code;
    in.back().Get(&code);  // ok: checked by FirstFailure
  }
  // Every rank's vectors of the level, made again for each pass (not listed).
  const int sum = schedule_.Sum(level);
  std::size_t kept = 0, kept_movers = 0;
  schedule_.ForEachOf(level, [&](std::uint64_t code) {
    if (schedule_.Owner(code) == rank) return;
    schedule_.Unpack(code, s);
    int from = 0;
    const int count = ReadRecords(state_, s, rank, &from);
    kept += count > 0;
    kept_movers += count;
  });
  state_.window.Reserve(sum, kept, kept_movers);
  std::vector<double> records(static_cast<std::size_t>(n) * width);
  int short_owner = -1;  // a rank that sent too few values, once seen
  schedule_.ForEachOf(level, [&](std::uint64_t code) {
    const int owner = schedule_.Owner(code);
    if (owner == rank || short_owner >= 0) return;
    schedule_.Unpack(code, s);
    int from = 0;
    const int count = ReadRecords(state_, s, rank, &from);
    if (count == 0) return;
    if (!in[owner].Get(records.data(), static_cast<std::size_t>(count) * width)) {
      short_owner = owner;
      return;
    }
    state_.window.Put(sum, code, from, records.data(), count);
  });
  if (short_owner >= 0) {
    return absl::DataLossError(absl::StrFormat("rank %d of %d sent too few values for level %d",
                                               short_owner, ranks, level));
  }
  // The levels no level below this one reads any more.
  state_.window.DropFrom(sum + state_.reach);
  for (int r = 0; r < ranks; ++r) {
    if (r != rank && !in[r].done()) {
      return absl::DataLossError(absl::StrFormat(
          "rank %d of %d sent more values than its vectors of level %d have", r, ranks, level));
    }
  }
#ifdef MARTIANDICE_TRIM_HEAP
  // The freed levels and messages back to the system, not kept in the heap
  // (glibc keeps freed blocks below its 32 MB mapping threshold).
  all->clear();
  bodies.clear();
  malloc_trim(0);
#endif
  return agreed;
}

absl::StatusOr<std::vector<SolveStats>> LevelShare::GatherStats(
    const CheckpointCounters& all, std::span<const SolveStats* const> threads) {
  // This run's figures over the threads, as the report sums them.
  GameSolveReport run;
  ReportCounters(all, threads, &run);
  const auto put_vectors = [](std::string& out, const std::vector<std::vector<int>>& vectors) {
    Put(out, static_cast<std::uint64_t>(vectors.size()));
    for (const std::vector<int>& v : vectors) {
      Put(out, static_cast<std::uint64_t>(v.size()));
      Put(out, v.data(), v.size());
    }
  };
  std::string mine;
  Put(mine, all);
  Put(mine, run.settle_passes);
  Put(mine, run.settle_reused);
  Put(mine, run.probe_apart);
  Put(mine, run.probe_largest);
  Put(mine, run.probe_unconverged);
  put_vectors(mine, run.probe_examples);
  put_vectors(mine, run.probe_unconverged_examples);
  put_vectors(mine, run.unconverged_examples);
  Put(mine, static_cast<std::uint64_t>(run.mixed.size()));
  for (const MixedCycleReport& m : run.mixed) {
    Put(mine, static_cast<std::uint64_t>(m.scores.size()));
    Put(mine, m.scores.data(), m.scores.size());
    Put(mine, m.weights.data(), m.scores.size());  // one weight per seat
    Put(mine, m.error);
  }
  absl::StatusOr<std::vector<std::string>> messages = Gather(std::move(mine));
  if (!messages.ok()) return messages.status();
  std::vector<SolveStats> out(messages->size());
  for (std::size_t r = 0; r < messages->size(); ++r) {
    Reader in((*messages)[r]);
    SolveStats& s = out[r];
    const auto get_count = [&](std::uint64_t* count) {
      // Each counted item takes at least 8 bytes: a count past the bytes left is damage.
      return in.Get(count) && *count <= (*messages)[r].size() / 8;
    };
    const auto get_vectors = [&](std::vector<std::vector<int>>* vectors) {
      std::uint64_t count = 0;
      if (!get_count(&count)) return false;
      vectors->resize(count);
      for (std::vector<int>& v : *vectors) {
        std::uint64_t size = 0;
        if (!in.Get(&size) || size > kMaxPlayers) return false;
        v.resize(size);
        if (!in.Get(v.data(), size)) return false;
      }
      return true;
    };
    bool ok = in.Get(&s.counters) && in.Get(&s.settle_passes) && in.Get(&s.settle_reused) &&
              in.Get(&s.probe_apart) && in.Get(&s.probe_largest) && in.Get(&s.probe_unconverged) &&
              get_vectors(&s.probe_examples) && get_vectors(&s.probe_unconverged_examples) &&
              get_vectors(&s.unconverged_examples);
    std::uint64_t mixed = 0;
    ok = ok && get_count(&mixed);
    if (ok) s.mixed.resize(mixed);
    for (std::size_t m = 0; ok && m < s.mixed.size(); ++m) {
      MixedCycleReport& report = s.mixed[m];
      std::uint64_t size = 0;
      ok = in.Get(&size) && size <= kMaxPlayers;
      if (!ok) break;
      report.scores.resize(size);
      report.weights.resize(size);
      ok = in.Get(report.scores.data(), size) && in.Get(report.weights.data(), size) &&
           in.Get(&report.error);
    }
    if (!ok || !in.done()) {
      return absl::DataLossError(
          absl::StrFormat("rank %d of %d sent damaged counters", r, messages->size()));
    }
  }
  return out;
}

}  // namespace martiandice::solver
