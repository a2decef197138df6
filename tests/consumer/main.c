/* The C consumer of tools/check-package.sh: the same answers as main.cpp
 * through the C API (libmartiandice_c), with the table the library finds by
 * itself. Usage: martiandice_consumer_c [TABLE_DIR]: with TABLE_DIR, the table
 * must be found there. Exit 0 if every answer is right. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "martiandice/martiandice_c.h"

static int Fail(const char* what) {
  fprintf(stderr, "martiandice_consumer_c: FAILED: %s: %s\n", what, md_last_error());
  return 1;
}

int main(int argc, char** argv) {
  md_handle* md = NULL;
  if (md_open(NULL, &md) != MD_OK) return Fail("md_open");
  md_query query;
  md_query_init(&query);
  md_eval_result eval;
  if (md_eval(md, &query, "3T 3R 4H 1K", &eval) != MD_OK) return Fail("md_eval ev");
  if (fabs(eval.roll - 281.0 / 54.0) > 1e-12 || eval.action != MD_ROLL) {
    return Fail("ev: expected roll 281/54");
  }
  const double ev_roll = eval.roll;
  const int scores[2] = {25, 21};
  query.objective = "win";
  query.scores = scores;
  query.players = 2;
  query.seat = 1;
  if (md_eval(md, &query, "3T 3R 4H 1K", &eval) != MD_OK) return Fail("md_eval win");
  if (fabs(eval.stop - 1.0) > 1e-12 || fabs(eval.roll - 29.0 / 36.0) > 1e-12 ||
      eval.action != MD_STOP) {
    return Fail("win: expected stop 1, roll 29/36, action stop");
  }
  char path[4096];
  if (md_table_path(md, &query, path, sizeof path) != MD_OK) return Fail("md_table_path");
  if (argc > 1) {
    char expected[4096];
    snprintf(expected, sizeof expected, "%s/martiandice-p2-d13-b3-t25.mdt", argv[1]);
    if (strcmp(path, expected) != 0) {
      fprintf(stderr, "martiandice_consumer_c: FAILED: table found at %s, expected %s\n", path,
              expected);
      return 1;
    }
  }
  char fallback[16]; /* what 4 players play by: 4 points from the target */
  const int four[4] = {21, 20, 3, 0};
  query.scores = four;
  query.players = 4;
  query.seat = 0;
  if (md_fallback_objective(&query, fallback, sizeof fallback) != MD_OK ||
      strcmp(fallback, "capped:4") != 0) {
    return Fail("md_fallback_objective: expected capped:4");
  }
  printf(
      "martiandice_consumer_c: %s: ev roll %.6f, win stop %.6f roll %.6f; table %s; "
      "4 players: %s: ok\n",
      md_version(), ev_roll, eval.stop, eval.roll, path, fallback);
  md_close(md);
  return 0;
}
