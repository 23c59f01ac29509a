/* The speed probe, copied from the team's shared bench folder (bench/greedy_limit.c,
   2026-11-26) so that experiments/benchmark.py can build it in any clone. */
/* Lower-bound probe: the placement search a greedy solo bot cannot avoid.
   KSB-4156 grid, 12 tile shapes, 20 rounds, 2 candidate tiles per round,
   every orientation x anchor tested with row bitmasks, the legal ones scored
   by a cheap heuristic (adjacent filled cells + completed rows/cols).
   Prints greedy games per second on one core. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *GRID[12] = {
  ".....LL.....", "...ILLLLL...", "..LIIILPIL..", ".LLLLILLIIL.",
  ".PLLLILLLLP.", "IILLLILLLLLL", "IILLLILLLLLL", ".LPLIILLLLL.",
  ".LLIILLLPLL.", "..LILPLLLL..", "...ILLLLL...", ".....LL....."};
/* shapes as (x,y) cell lists */
static const int SH[12][5][2] = {
 {{2,1},{0,1},{1,1},{2,0},{3,0}}, {{1,1},{0,1},{2,1},{2,0},{1,2}}, {{0,1},{0,0},{0,2}},
 {{1,0},{0,0},{1,1}}, {{1,0},{0,0},{1,1},{2,0}}, {{1,0},{0,1},{1,1},{2,0}},
 {{1,1},{0,2},{1,0},{1,2}}, {{1,1},{0,0},{0,1},{2,0},{2,1}}, {{0,0},{0,1}},
 {{1,0},{0,0},{2,0},{3,0}}, {{0,0},{0,1},{1,0},{1,1}}, {{1,1},{0,0},{0,1},{2,1},{2,2}}};
static const int SN[12] = {5,5,3,3,4,4,4,5,2,4,4,5};
typedef struct { int h, w; uint16_t row[5]; } Orient;
static Orient OR[12][8]; static int NOR[12];
static uint16_t VALID[12];

static void build(void) {
  for (int y = 0; y < 12; y++) { VALID[y] = 0; for (int x = 0; x < 12; x++) if (GRID[y][x] != '.') VALID[y] |= 1u << x; }
  for (int s = 0; s < 12; s++) {
    NOR[s] = 0;
    for (int t = 0; t < 8; t++) {
      int c[5][2];
      for (int i = 0; i < SN[s]; i++) {
        int x = SH[s][i][0], y = SH[s][i][1];
        for (int r = 0; r < (t & 3); r++) { int nx = -y, ny = x; x = nx; y = ny; }
        if (t & 4) x = -x;
        c[i][0] = x; c[i][1] = y;
      }
      int mx = 99, my = 99, Mx = -99, My = -99;
      for (int i = 0; i < SN[s]; i++) { if (c[i][0] < mx) mx = c[i][0]; if (c[i][1] < my) my = c[i][1];
        if (c[i][0] > Mx) Mx = c[i][0]; if (c[i][1] > My) My = c[i][1]; }
      Orient o; memset(&o, 0, sizeof o); o.h = My - my + 1; o.w = Mx - mx + 1;
      for (int i = 0; i < SN[s]; i++) o.row[c[i][1] - my] |= 1u << (c[i][0] - mx);
      int dup = 0;
      for (int k = 0; k < NOR[s]; k++) if (!memcmp(&OR[s][k], &o, sizeof o)) dup = 1;
      if (!dup) OR[s][NOR[s]++] = o;
    }
  }
}

static uint64_t rng = 88172645463325252ull;
static inline uint64_t xr(void) { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }

static int play(void) {
  uint16_t filled[12] = {0};
  int placed = 0, score = 0;
  for (int round = 0; round < 20; round++) {
    uint16_t near[12];
    for (int y = 0; y < 12; y++) {
      uint16_t n = (uint16_t)(filled[y] << 1 | filled[y] >> 1);
      if (y) n |= filled[y - 1];
      if (y < 11) n |= filled[y + 1];
      near[y] = n & VALID[y] & ~filled[y];
    }
    int best = -1, bs = 0, bo = 0, bx = 0, by = 0;
    for (int k = 0; k < 2; k++) {
      int s = (int)(xr() % 12);
      for (int o = 0; o < NOR[s]; o++) {
        const Orient *O = &OR[s][o];
        for (int y = 0; y + O->h <= 12; y++)
          for (int x = 0; x + O->w <= 12; x++) {
            int ok = 1, touch = 0, val = 0;
            for (int r = 0; r < O->h; r++) {
              uint16_t m = (uint16_t)(O->row[r] << x);
              if ((m & VALID[y + r]) != m || (m & filled[y + r])) { ok = 0; break; }
              touch |= (m & near[y + r]) != 0;
              val += __builtin_popcount(m & near[y + r]);
              if (((filled[y + r] | m) & VALID[y + r]) == VALID[y + r]) val += 8;
            }
            if (!ok) continue;
            if (placed && !touch) continue;
            if (!placed) { /* perimeter: some cell with an invalid/edge neighbour */
              int per = 0;
              for (int r = 0; r < O->h && !per; r++) {
                uint16_t m = (uint16_t)(O->row[r] << x), v = VALID[y + r];
                uint16_t out = (uint16_t)(~v | ~(uint16_t)(v << 1) | ~(uint16_t)(v >> 1)) & 0x0FFF;
                if (m & 0x801) per = 1;
                if (m & out) per = 1;
                if (y + r == 0 || (m & ~VALID[y + r - 1])) per = 1;
                if (y + r == 11 || (m & ~VALID[y + r + 1])) per = 1;
              }
              if (!per) continue;
            }
            if (val > best) { best = val; bs = s; bo = o; bx = x; by = y; }
          }
      }
    }
    if (best < 0) break;
    const Orient *O = &OR[bs][bo];
    for (int r = 0; r < O->h; r++) filled[by + r] |= (uint16_t)(O->row[r] << bx);
    placed++; score += best;
  }
  return score + placed;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000;
  build();
  struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
  long tot = 0;
  for (int i = 0; i < n; i++) tot += play();
  clock_gettime(CLOCK_MONOTONIC, &b);
  double s = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
  printf("games=%d seconds=%.3f games_per_s_per_core=%.0f checksum=%ld\n", n, s, n / s, tot);
  return 0;
}
