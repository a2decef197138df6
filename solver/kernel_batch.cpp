// The GPU backend's host side: the flattened model, the packed jobs and the
// emulation of the kernel's schedule (kernel_batch.h).
#include "kernel_batch.h"

#include <algorithm>
#include <map>
#include <type_traits>
#include <utility>

#include "absl/strings/str_format.h"
#include "convention_turn.h"

namespace martiandice::solver {

static_assert(kernel::kTie == internal::kConventionTie);
static_assert(kernel::kMaxWidth == 1 + internal::kMaxCarried);
static_assert(kernel::kRangeCap == internal::kRangeCap);
static_assert(kernel::kRangeSlack == internal::kRangeSlack);
static_assert(kernel::kRoundingSlope == internal::kRoundingSlope);

bool KernelTakes(const TurnRequest& request) {
  if (request.kind != TurnRequest::Kind::kConvention || request.lanes < 1 ||
      request.lanes + 1 > kernel::kMaxWidth) {
    return false;
  }
  if (request.arithmetic == internal::Arithmetic::kExtended) return !request.record_policy;
  return request.arithmetic == internal::Arithmetic::kDouble &&
         (!request.record_policy || request.policy_zero_lane < request.lanes);
}

KernelModel::KernelModel(const internal::TurnModel& model)
    : source_(&model),
      dice_(model.rules().dice),
      bonus_(model.rules().bonus),
      scores_(model.MaxScore() + 1),
      law_classes_(model.LawClassCount()) {
  const int dice = model.rules().dice;
  const int size = model.size();
  level_begin_.push_back(0);
  law_begin_.push_back(0);
  choice_begin_.push_back(0);
  for (int level = 0; level <= dice; ++level) {
    for (int group : model.Level(level)) {
      level_ids_.push_back(group);
      const internal::CanonState& g = model.state(group);
      const int untaken = std::min<int>(g.untaken, 3);
      const std::int32_t* row = model.ClassRow(untaken);
      for (int q = 0; q <= g.left; ++q) {
        kernel::Law law;
        law.index = model.LawIndex(group, q);
        law.group = group;
        law.ray_child = model.RayChild(group, q);
        law.class_begin = row[q];
        law.class_end = row[q + 1];
        law.pick_begin = model.LawClassBegin(law.index);
        law.q = static_cast<std::uint8_t>(q);
        law.untaken = static_cast<std::uint8_t>(untaken);
        law.score = g.score;
        // The classes where the mover chooses (GroupLaws: not the first,
        // without an untaken type shown, where J < 3 or q == 0).
        for (int c = law.class_begin + (untaken < 3 || q == 0 ? 1 : 0);
             untaken > 0 && c < law.class_end; ++c) {
          choices_.push_back({static_cast<std::int32_t>(law_items_.size()), c});
        }
        law_items_.push_back(law);
      }
    }
    level_begin_.push_back(static_cast<std::int32_t>(level_ids_.size()));
    law_begin_.push_back(static_cast<std::int32_t>(law_items_.size()));
    choice_begin_.push_back(static_cast<std::int32_t>(choices_.size()));
  }
  term_begin_.push_back(0);
  for (int id = 0; id < size; ++id) {
    score_.push_back(model.state(id).score);
    for (const internal::RollTerm& term : model.Terms(id))
      terms_.push_back({term.weight_d, term.law});
    for (const internal::Wide& w : model.WideWeights(id)) {
      term_wide_.push_back(internal::ToSoftX87(w));
    }
    term_begin_.push_back(static_cast<std::int32_t>(terms_.size()));
    const std::int32_t* child = model.EarthChildren(id);
    earth_child_.insert(earth_child_.end(), child, child + dice + 1);
  }
  int classes = 0;
  for (int untaken = 0; untaken <= 3; ++untaken) {
    classes = std::max(classes, model.ClassRow(untaken)[dice + 1]);
  }
  for (int c = 0; c < classes; ++c) {
    const internal::EarthClass& from = model.ClassData()[c];
    kernel::Class to;
    to.weight = from.weight_d;
    to.takes = from.takes;
    std::copy(from.take, from.take + 3, to.take);
    classes_.push_back(to);
  }
  view_.positions = size;
  view_.laws = model.LawCount();
  view_.dice = dice;
  view_.start = model.Id(0, 0, 0, 0, 0);
  view_.level_begin = level_begin_.data();
  view_.level_ids = level_ids_.data();
  view_.law_begin = law_begin_.data();
  view_.law_items = law_items_.data();
  view_.score = score_.data();
  view_.term_begin = term_begin_.data();
  view_.terms = terms_.data();
  view_.term_wide = term_wide_.data();
  view_.classes = classes_.data();
  view_.earth_child = earth_child_.data();
  view_.choice_begin = choice_begin_.data();
  view_.choices = choices_.data();
}

bool KernelModel::Of(const internal::TurnModel& model) const {
  return source_ == &model && dice_ == model.rules().dice && bonus_ == model.rules().bonus;
}

namespace {

// A vector's bytes, for a copy to a device.
template <class V>
KernelModel::Array ArrayOf(const V& v) {
  return {v.data(), v.size() * sizeof(typename V::value_type)};
}

}  // namespace

std::vector<KernelModel::Array> KernelModel::Arrays() const {
  return {ArrayOf(level_begin_), ArrayOf(level_ids_),   ArrayOf(law_begin_),    ArrayOf(law_items_),
          ArrayOf(score_),       ArrayOf(term_begin_),  ArrayOf(terms_),        ArrayOf(term_wide_),
          ArrayOf(classes_),     ArrayOf(earth_child_), ArrayOf(choice_begin_), ArrayOf(choices_)};
}

KernelLawPlan::KernelLawPlan(const internal::TurnModel& model, const KernelModel& flat) {
  const kernel::ModelView& m = flat.view();
  const int dice = m.dice;
  // Each unit's sources, by level and kind, in the CPU pass's order.
  unit_begin_.push_back(0);
  for (int level = 0; level <= dice; ++level) {
    std::map<int, std::vector<std::int32_t>> stops, reach, ends;  // by target
    std::map<int, std::vector<kernel::TermSource>> rolls;
    for (int i = m.level_begin[level]; i < m.level_begin[level + 1]; ++i) {
      const int id = m.level_ids[i];
      stops[m.score[id]].push_back(id);
      for (int t = m.term_begin[id]; t < m.term_begin[id + 1]; ++t)
        rolls[m.terms[t].law].push_back({id, t});
    }
    for (int li = m.law_begin[level]; li < m.law_begin[level + 1]; ++li) {
      const kernel::Law& law = m.law_items[li];
      // Where the law's runs may lead: its rays' position (or the turn's
      // end), and every take some class allows.
      std::uint32_t present = 0;
      const internal::EarthClass* data = model.ClassData();
      for (int c = law.class_begin; c < law.class_end; ++c) present |= data[c].present;
      std::vector<int> to = {law.ray_child};
      for (int x = 1; x <= dice; ++x) {
        if ((present >> x & 1u) != 0) to.push_back(m.earth_child[law.group * (dice + 1) + x]);
      }
      std::sort(to.begin(), to.end());
      to.erase(std::unique(to.begin(), to.end()), to.end());
      for (int t : to) (t < 0 ? ends[law.score] : reach[t]).push_back(li);
    }
    auto add = [&](auto& by_target, auto& sources) {
      for (auto& [target, list] : by_target) {
        units_.push_back({target, static_cast<std::int32_t>(sources.size()),
                          static_cast<std::int32_t>(sources.size() + list.size())});
        sources.insert(sources.end(), list.begin(), list.end());
      }
      unit_begin_.push_back(static_cast<std::int32_t>(units_.size()));
    };
    add(stops, stop_src_);
    add(rolls, term_src_);
    add(reach, run_src_);
    add(ends, run_src_);
  }
  view_.dice = dice;
  view_.positions = m.positions;
  view_.laws = m.laws;
  view_.scores = flat.scores();
  view_.start = m.start;
  view_.unit_begin = unit_begin_.data();
  view_.units = units_.data();
  view_.stop_src = stop_src_.data();
  view_.term_src = term_src_.data();
  view_.run_src = run_src_.data();
}

std::vector<KernelModel::Array> KernelLawPlan::Arrays() const {
  return {ArrayOf(unit_begin_), ArrayOf(units_), ArrayOf(stop_src_), ArrayOf(term_src_),
          ArrayOf(run_src_)};
}

void EmulateScoreLaw(const KernelModel& flat, const KernelLawPlan& plan,
                     const internal::ConventionPolicy& policy, int threads, LawScratch& scratch,
                     std::vector<internal::Wide>* law) {
  const kernel::ModelView& m = flat.view();
  const kernel::LawPlanView& p = plan.view();
  scratch.reach.resize(static_cast<std::size_t>(p.positions));
  scratch.law_reach.resize(static_cast<std::size_t>(p.laws));
  scratch.law.resize(static_cast<std::size_t>(p.scores));
  const kernel::LawState state{scratch.reach.data(), scratch.law_reach.data(), scratch.law.data()};
  const int most = std::max({p.positions, p.laws, p.scores});
  for (int t = 0; t < threads; ++t) {
    for (int i = t; i < most; i += threads) kernel::LawClear(p, i, state);
  }
  for (int level = p.dice; level >= 0; --level) {
    // Phase A (kStops, kRolls), then phase B (kReach, kEnds): each thread
    // its units, every `threads`-th; a barrier between.
    for (int phase = 0; phase < 2; ++phase) {
      const std::int32_t* b = &p.unit_begin[level * kernel::kLawUnitKinds + 2 * phase];
      for (int t = 0; t < threads; ++t) {
        for (int u = b[0] + t; u < b[2]; u += threads) {
          kernel::LawUnitRun(m, p, u < b[1] ? 2 * phase : 2 * phase + 1, p.units[u],
                             policy.rolls.data(), policy.take.data(), state);
        }
      }
    }
  }
  law->resize(static_cast<std::size_t>(p.scores));
  for (int x = 0; x < p.scores; ++x) (*law)[x] = internal::WideFromSoftX87(scratch.law[x]);
}

void KernelJobs::Pack(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                      std::span<const std::size_t> indices, int w, bool extended) {
  const int scores = model.MaxScore() + 1;
  width = w;
  wide = extended;
  request.assign(indices.begin(), indices.end());
  stop.resize(wide ? 0 : indices.size() * scores * w);
  wide_stop.resize(wide ? indices.size() * scores * w : 0);
  watched.resize(indices.size());
  policy.resize(indices.size());
  range_lane.resize(indices.size());
  policy_bytes = 0;
  for (std::size_t j = 0; j < indices.size(); ++j) {
    const TurnRequest& r = requests[indices[j]];
    auto fill = [&](auto* out) {
      for (int s = 0; s < scores; ++s) {
        out[s * w] = r.utility[s];
        for (int k = 1; k < w; ++k) out[s * w + k] = r.carried[k - 1][s];
      }
    };
    if (wide) {
      fill(&wide_stop[j * scores * w]);
    } else {
      fill(&stop[j * scores * w]);
    }
    watched[j] = r.watched;
    policy[j] = -1;
    range_lane[j] = r.record_policy && r.policy_zero_lane >= 0 ? 1 + r.policy_zero_lane : 0;
    if (r.record_policy) {
      policy[j] = static_cast<std::int64_t>(policy_bytes);
      policy_bytes += static_cast<std::size_t>(model.size() + model.LawClassCount());
    }
  }
  start.resize(wide ? 0 : indices.size() * w);
  wide_start.resize(wide ? indices.size() * w : 0);
  tied.resize(indices.size());
  kingmaking.resize(indices.size());
  below.resize(indices.size());
  above.resize(indices.size());
  policies.resize(external_policies ? 0 : policy_bytes);
}

void KernelJobs::Unpack(const internal::TurnModel& model, std::span<const TurnRequest> requests,
                        std::span<TurnResult> results, std::size_t begin, std::size_t end) const {
  const std::uint8_t* const source = policy_source != nullptr ? policy_source : policies.data();
  for (std::size_t j = begin; j < end; ++j) {
    TurnResult& out = results[request[j]];
    out.carried.resize(width - 1);
    out.wide_carried.resize(width - 1);
    if (wide) {  // x87's numbers: the double rounded from them, as the CPU's
      const kernel::Soft* record = &wide_start[j * width];
      out.value = static_cast<double>(record[0]);
      out.wide_value = internal::WideFromSoftX87(record[0]);
      for (int k = 1; k < width; ++k) {
        out.carried[k - 1] = static_cast<double>(record[k]);
        out.wide_carried[k - 1] = internal::WideFromSoftX87(record[k]);
      }
    } else {
      const double* record = &start[j * width];
      out.value = record[0];
      out.wide_value = record[0];
      std::copy(record + 1, record + width, out.carried.begin());
      std::copy(record + 1, record + width, out.wide_carried.begin());
    }
    out.tied_decisions = tied[j];
    out.kingmaking = kingmaking[j];
    if (policy[j] >= 0) {
      const std::uint8_t* bytes = source + policy[j];
      out.policy.zero_lane = requests[request[j]].policy_zero_lane;
      out.policy.rolls.assign(bytes, bytes + model.size());
      out.policy.take.assign(bytes + model.size(), bytes + model.size() + model.LawClassCount());
      out.policy.below = below[j];
      out.policy.above = above[j];
    }
  }
}

KernelSplit SplitRequests(std::span<const TurnRequest> requests) {
  KernelSplit split;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const TurnRequest& r = requests[i];
    if (r.kind == TurnRequest::Kind::kScoreLaw) {
      split.laws.push_back(i);
    } else if (KernelTakes(r)) {
      split.jobs[r.arithmetic == internal::Arithmetic::kExtended][r.lanes + 1].push_back(i);
    } else {
      split.cpu.push_back(i);
    }
  }
  return split;
}

namespace {

template <class Real, int W>
void EmulateWidth(const KernelModel& flat, KernelJobs& jobs, std::size_t j, int threads,
                  EmulationScratch& scratch, kernel::ReplayCount* count) {
  constexpr bool kWide = std::is_same_v<Real, kernel::Soft>;
  std::vector<Real>* node_p;
  std::vector<Real>* laws_p;
  if constexpr (kWide) {
    node_p = &scratch.wide_node, laws_p = &scratch.wide_laws;
  } else {
    node_p = &scratch.node, laws_p = &scratch.laws;
  }
  std::vector<Real>& node = *node_p;
  std::vector<Real>& laws = *laws_p;
  const kernel::ModelView& m = flat.view();
  const int scores = flat.scores();
  node.resize(static_cast<std::size_t>(m.positions) * W);
  laws.resize(static_cast<std::size_t>(m.laws) * W);
  kernel::JobViewOf<Real> job;
  if constexpr (kWide) {
    job.stop = &jobs.wide_stop[j * scores * W];
  } else {
    job.stop = &jobs.stop[j * scores * W];
  }
  job.watched = jobs.watched[j];
  if (jobs.policy[j] >= 0) {
    job.rolls = &jobs.policies[jobs.policy[j]];
    job.picks = job.rolls + m.positions;
  }
  job.range_lane = jobs.range_lane[j];
  if (job.range_lane > 0) {
    scratch.rolls.resize(static_cast<std::size_t>(m.positions) * W);
    job.roll_records = scratch.rolls.data();
  }
  std::vector<kernel::Tally> tally(threads);
  for (int level = 0; level <= m.dice; ++level) {
    // The barrier between phases: every thread's units done before the next.
    const int law0 = m.law_begin[level], law_units = (m.law_begin[level + 1] - law0) * W;
    for (int t = 0; t < threads; ++t) {
      for (int u = t; u < law_units; u += threads) {
        kernel::LawLane<Real, W>(m, job, m.law_items[law0 + u / W], u % W, node.data(), laws.data(),
                                 &tally[t]);
      }
    }
    const int id0 = m.level_begin[level], id_units = (m.level_begin[level + 1] - id0) * W;
    for (int t = 0; t < threads; ++t) {
      for (int u = t; u < id_units; u += threads) {
        kernel::PositionLane<Real, W>(m, job, m.level_ids[id0 + u / W], u % W, level, node.data(),
                                      laws.data(), &tally[t]);
      }
    }
  }
  jobs.tied[j] = jobs.kingmaking[j] = 0;
  for (const kernel::Tally& t : tally) {
    jobs.tied[j] += t.tied;
    jobs.kingmaking[j] += t.kingmaking;
  }
  jobs.below[j] = jobs.above[j] = 0;
  if constexpr (kWide) {
    std::copy_n(&node[static_cast<std::size_t>(m.start) * W], W, &jobs.wide_start[j * W]);
  } else {
    std::copy_n(&node[static_cast<std::size_t>(m.start) * W], W, &jobs.start[j * W]);
    if (job.range_lane > 0) {
      // Every thread marks its items; then the first warp (its lanes one
      // after another, on the block's first thread) replays.
      scratch.marks.resize(static_cast<std::size_t>(kernel::RangeReplay<W>::Items(m)));
      const kernel::RangeReplay<W> marker(m, job, node.data(), scratch.marks.data());
      for (int t = 0; t < threads; ++t) {
        for (int i = t; i < kernel::RangeReplay<W>::Items(m); i += threads) marker.Mark(i);
      }
      kernel::RangeReplay<W>(m, job, node.data(), scratch.marks.data())
          .Run(0, &jobs.below[j], &jobs.above[j], count);
    }
  }
}

}  // namespace

void EmulateJob(const KernelModel& flat, KernelJobs& jobs, std::size_t j, int threads,
                EmulationScratch& scratch, kernel::ReplayCount* count) {
  ForWidth(jobs.width, [&](auto w) {
    if (jobs.wide) {
      EmulateWidth<kernel::Soft, decltype(w)::value>(flat, jobs, j, threads, scratch, count);
    } else {
      EmulateWidth<double, decltype(w)::value>(flat, jobs, j, threads, scratch, count);
    }
  });
}

absl::Status EmulatedTurnBatch::Solve(const internal::TurnModel& model,
                                      std::span<const TurnRequest> requests,
                                      std::span<TurnResult> results) {
  if (requests.size() != results.size()) {
    return absl::InvalidArgumentError(absl::StrFormat("a turn batch of %d requests got %d results",
                                                      requests.size(), results.size()));
  }
  if (flat_ == nullptr || !flat_->Of(model)) {
    flat_ = std::make_unique<KernelModel>(model);
    plan_ = std::make_unique<KernelLawPlan>(model, *flat_);
  }
  const KernelSplit split = SplitRequests(requests);
  for (std::size_t i : split.cpu) SolveTurn(model, requests[i], plain_, &results[i]);
  for (std::size_t i : split.laws) {
    EmulateScoreLaw(*flat_, *plan_, *requests[i].policy, threads_, law_scratch_,
                    &results[i].score_law);
  }
  kernel_laws_ += static_cast<long long>(split.laws.size());
  for (int wide = 0; wide < 2; ++wide) {
    for (int width = 2; width <= kernel::kMaxWidth; ++width) {
      if (split.jobs[wide][width].empty()) continue;
      jobs_.Pack(model, requests, split.jobs[wide][width], width, wide != 0);
      for (std::size_t j = 0; j < jobs_.size(); ++j)
        EmulateJob(*flat_, jobs_, j, threads_, scratch_, &replay_);
      jobs_.Unpack(model, requests, results, 0, jobs_.size());
      kernel_turns_ += static_cast<long long>(jobs_.size());
    }
  }
  return absl::OkStatus();
}

}  // namespace martiandice::solver
