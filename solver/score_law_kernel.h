// The settling pass's law of the turn score (internal::PolicyScoreLaw) as a
// GPU block computes it, one source for the device and the host. The CPU's
// pass pushes each position's chance down the turn, adding into the
// positions, outcome laws and scores it reaches; here each of those numbers
// is one work unit that gathers its terms itself, in the CPU's order of
// additions, so that no two threads add into one number and the sums round
// as the CPU's do. Per level of the turn (dice left, from the start's down)
// two phases, a barrier after each: (A) each score's stops and each outcome
// law's roll terms; (B) each position's and each score's share of the
// level's outcome laws, class runs summed as the CPU sums them. The numbers
// are SoftX87 (src/wide.h): x87's rounding in integer arithmetic, so the
// laws equal the x86 CPU's long double ones bit for bit. Internal to the
// solver.
#pragma once

#include <cstdint>

#include "turn_kernel.h"
#include "wide.h"

namespace martiandice::solver::kernel {

// One number a phase computes (`target`: a score, an outcome law's index or a
// position) and its sources, [begin, end) of its kind's source array.
struct LawUnit {
  std::int32_t target = 0;
  std::int32_t begin = 0;
  std::int32_t end = 0;
};

// A roll term that adds to an outcome law: position `id`'s term `term`
// (numbered as ModelView::terms; its weight ModelView::term_wide).
struct TermSource {
  std::int32_t id = 0;
  std::int32_t term = 0;
};

// The units' kinds, per level: phase A's, then phase B's.
enum LawUnitKind { kStops = 0, kRolls = 1, kReach = 2, kEnds = 3, kLawUnitKinds = 4 };

// The pass's plan over the flattened model (host or device pointers alike).
struct LawPlanView {
  int dice = 0, positions = 0, laws = 0, scores = 0, start = 0;
  // Level L's units of kind k: units[unit_begin[L * 4 + k], unit_begin[L * 4 + k + 1]).
  const std::int32_t* unit_begin;
  const LawUnit* units;
  const std::int32_t* stop_src;  // kStops: the level's positions of the unit's score
  const TermSource* term_src;    // kRolls: the terms adding to the law, in the CPU's order
  const std::int32_t* run_src;   // kReach, kEnds: outcome laws (ModelView::law_items)
};

// One block's numbers: the chance of reaching each position, of each outcome
// law, and the law of the score (the result).
struct LawState {
  Soft* reach;      // [positions]
  Soft* law_reach;  // [laws]
  Soft* law;        // [scores]
};

// Before the first level: every chance 0 but the start's, 1.
MD_HD inline void LawClear(const LawPlanView& p, int i, const LawState& s) {
  if (i < p.positions) s.reach[i] = Soft(i == p.start ? 1 : 0);
  if (i < p.laws) s.law_reach[i] = Soft();
  if (i < p.scores) s.law[i] = Soft();
}

// A unit of phase A or B: its sum, in the CPU's order of additions.
MD_HD inline void LawUnitRun(const ModelView& m, const LawPlanView& p, int kind, const LawUnit& u,
                             const std::uint8_t* rolls, const std::uint8_t* picks,
                             const LawState& s) {
  if (kind == kStops) {  // the positions of the level that stop, with this score
    Soft sum = s.law[u.target];
    for (int i = u.begin; i < u.end; ++i) {
      const int id = p.stop_src[i];
      if (s.reach[id].significand() != 0 && rolls[id] == 0) sum += s.reach[id];
    }
    s.law[u.target] = sum;
    return;
  }
  if (kind == kRolls) {  // the roll terms of the level's positions that roll
    Soft sum = s.law_reach[u.target];
    for (int i = u.begin; i < u.end; ++i) {
      const TermSource src = p.term_src[i];
      if (s.reach[src.id].significand() == 0 || rolls[src.id] == 0) continue;
      sum += s.reach[src.id] * m.term_wide[src.term];
    }
    s.law_reach[u.target] = sum;
    return;
  }
  // kReach (a position) or kEnds (a score: where the turn ends): each source
  // law's runs of classes with one action, as the CPU sums them, those that
  // lead here.
  const bool ends = kind == kEnds;
  Soft sum = ends ? s.law[u.target] : s.reach[u.target];
  for (int i = u.begin; i < u.end; ++i) {
    const Law& law = m.law_items[p.run_src[i]];
    const Soft chance = s.law_reach[law.index];
    if (chance.significand() == 0) continue;
    const std::int32_t* const take_id = m.earth_child + law.group * (m.dice + 1);
    const std::uint8_t* take = picks + law.pick_begin;
    int c = law.class_begin;
    while (c != law.class_end) {
      const std::uint8_t x = *take;
      const std::int32_t to = x == 0 ? law.ray_child : take_id[x];  // -1: the turn ends
      std::int64_t weight = 0;
      do {
        weight += static_cast<std::int64_t>(m.classes[c].weight);
        ++c;
        ++take;
      } while (c != law.class_end && *take == x);
      if (ends ? to < 0 : to == u.target) sum += chance * Soft(static_cast<long long>(weight));
    }
  }
  (ends ? s.law[u.target] : s.reach[u.target]) = sum;
}

}  // namespace martiandice::solver::kernel
