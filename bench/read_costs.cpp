// read_costs.cpp - reads by handle and the pos += vel walk, natively and
// inside wasm (built twice from this file: build/native-release/
// laige_read_costs and build/wasm/laige_read_costs.js, run under node).
// docs/benchmarks.md has the figures, with EnTT's in the same process
// (a comparison program built outside the repository).
//
// Rows (per entity, N = 10,000 Position + Velocity, f32, handles in
// creation order; `get` rows sum Position.x over every handle):
//   get_world         World::get<Position>(e) on a const World
//   get_reader        World::reader<Position>() once, then reader.get(e)
//   get_floor         the same sum read straight from an array by slot
//                     (no handle check: the floor of any read by handle)
//   each_world        World::each<Position, Velocity> pos += vel
//   each_query        the query object Query<Writes<Position>, Reads<Velocity>>
//   each_floor        the same update over two plain arrays
// Rounds alternate the rows (ROUNDS, default 15); reported: best and
// median round, and each ratio as the median of the per-round ratios.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench_components.h"
#include "laige/world.h"

namespace {

using bench::Position;
using bench::Velocity;
using laige::Entity;
using laige::World;
using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kEntities = 10000;

struct Row {
  std::string name;
  std::function<void()> run;
  std::vector<double> ns;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main() {
  const char* roundsEnv = std::getenv("ROUNDS");
  const int rounds = roundsEnv != nullptr ? std::atoi(roundsEnv) : 15;
  World::Options o;
  o.capacity = kEntities;
  o.churnPerFrameBudget = 0;
  World w = World::create(o).takeValue();
  (void)w.registerComponent<Position>();
  (void)w.registerComponent<Velocity>();
  std::vector<Entity> handles;
  std::vector<Position> rawPos;
  std::vector<Velocity> rawVel;
  for (std::uint32_t i = 0; i < kEntities; ++i) {
    const Entity e = w.create().value();
    (void)w.addComponent(e, Position{static_cast<float>(i), 0.0f});
    (void)w.addComponent(e, Velocity{0.25f, -0.5f});
    handles.push_back(e);
    rawPos.push_back(Position{static_cast<float>(i), 0.0f});
    rawVel.push_back(Velocity{0.25f, -0.5f});
  }
  const World& cw = w;
  auto query = w.query<laige::Writes<Position>, laige::Reads<Velocity>>();
  volatile float sink = 0;
  constexpr int kPasses = 20;

  std::vector<Row> rows;
  rows.push_back({"get_world", [&] {
                    float s = 0;
                    for (const Entity e : handles) s += cw.get<Position>(e)->x;
                    sink = sink + s;
                  }, {}});
  rows.push_back({"get_reader", [&] {
                    const auto pos = cw.reader<Position>();
                    float s = 0;
                    for (const Entity e : handles) s += pos.get(e)->x;
                    sink = sink + s;
                  }, {}});
  rows.push_back({"get_floor", [&] {
                    float s = 0;
                    for (const Entity e : handles) s += rawPos[e.id()].x;
                    sink = sink + s;
                  }, {}});
  rows.push_back({"each_world", [&] {
                    (void)w.each<Position, Velocity>(
                        [](Entity, Position& p, const Velocity& v) {
                          p.x += v.x;
                          p.y += v.y;
                        },
                        laige::Write{}, laige::Read{});
                  }, {}});
  rows.push_back({"each_query", [&] {
                    (void)query.each(w, [](Entity, Position& p, const Velocity& v) {
                      p.x += v.x;
                      p.y += v.y;
                    });
                  }, {}});
  rows.push_back({"each_floor", [&] {
                    Position* p = rawPos.data();
                    const Velocity* v = rawVel.data();
                    for (std::uint32_t i = 0; i < kEntities; ++i) {
                      p[i].x += v[i].x;
                      p[i].y += v[i].y;
                    }
                    sink = sink + p[kEntities / 2].x;
                  }, {}});

  for (int r = -1; r < rounds; ++r) {
    for (Row& row : rows) {
      const auto t0 = Clock::now();
      for (int k = 0; k < kPasses; ++k) row.run();
      const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / (kPasses * kEntities);
      if (r >= 0) row.ns.push_back(ns);
    }
  }
  auto ratio = [&](const Row& a, const char* base) {
    const Row* b = nullptr;
    for (const Row& row : rows) {
      if (row.name == base) b = &row;
    }
    std::vector<double> v;
    for (std::size_t k = 0; k < a.ns.size(); ++k) v.push_back(a.ns[k] / b->ns[k]);
    return median(v);
  };
  std::printf("info entities %u rounds %d\n", kEntities, rounds);
  for (const Row& row : rows) {
    const char* base = row.name.rfind("get_", 0) == 0 ? "get_floor" : "each_floor";
    std::printf("row %-12s best %7.3f ns  median %7.3f ns  x_floor %6.2f\n", row.name.c_str(),
                *std::min_element(row.ns.begin(), row.ns.end()), median(row.ns), ratio(row, base));
  }
  std::printf("ratio get_reader/get_world %.3f\n", ratio(rows[1], "get_world"));
  std::printf("ratio each_world/each_query %.3f\n", ratio(rows[3], "each_query"));
  return sink == 42.0f ? 2 : 0;
}
