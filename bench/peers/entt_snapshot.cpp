// entt_snapshot.cpp - the peer figure for World::snapshot / restore
// (docs/snapshots.md#costs): EnTT's entt::snapshot / entt::snapshot_loader
// over the same scene as the stress world (10,000 entities, 2,000 of them
// with two 8-byte components), into and out of a memory archive, next to a
// memcpy of the archive's bytes. Not part of the CMake build (EnTT is not a
// dependency); build it by hand against EnTT's single header, e.g.
//   g++ -std=c++20 -O3 -DNDEBUG -I<entt>/single_include bench/peers/entt_snapshot.cpp -o /tmp/entt_snapshot
//   em++ -std=c++20 -O3 -DNDEBUG -I<entt>/single_include bench/peers/entt_snapshot.cpp -o /tmp/entt_snapshot.js
// Output: "pass entt_<name> <ns> ns/call", like bench/pass_timing.cpp.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include <entt/entt.hpp>

namespace {

using Clock = std::chrono::steady_clock;

struct Position2D {
  std::int32_t x, y;
};
struct BenchVel {
  std::int32_t vx, vy;
};

// EnTT's archives are callables: one call per value. The output one writes
// into a presized buffer (no growth, no bounds check: the cheapest archive).
struct OutArchive {
  std::uint8_t* p;
  template <class T>
  void operator()(const T& v) {
    std::memcpy(p, &v, sizeof(T));
    p += sizeof(T);
  }
};
struct InArchive {
  const std::uint8_t* p;
  template <class T>
  void operator()(T& v) {
    std::memcpy(&v, p, sizeof(T));
    p += sizeof(T);
  }
};

template <class Fn>
double best(int reps, double units, Fn&& fn) {
  double bestNs = 1e300;
  for (int r = -2; r < reps; ++r) {
    const auto t0 = Clock::now();
    fn();
    const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    if (r >= 0) bestNs = std::min(bestNs, ns);
  }
  return bestNs / units;
}

}  // namespace

int main() {
  entt::registry reg;
  for (int i = 0; i < 10000; ++i) {
    const entt::entity e = reg.create();
    if (i % 5 == 0) {
      reg.emplace<Position2D>(e, Position2D{i * 65536, 0});
      reg.emplace<BenchVel>(e, BenchVel{65536, 32768});
    }
  }
  std::vector<std::uint8_t> bytes(1 << 20);
  std::size_t used = 0;
  constexpr int kCalls = 50;
  const double snapNs = best(9, kCalls, [&] {
    for (int i = 0; i < kCalls; ++i) {
      OutArchive out{bytes.data()};
      entt::snapshot{reg}.get<entt::entity>(out).get<Position2D>(out).get<BenchVel>(out);
      used = static_cast<std::size_t>(out.p - bytes.data());
    }
  });
  const std::vector<std::uint8_t> saved(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(used));
  entt::registry into;
  const double restoreNs = best(9, kCalls, [&] {
    for (int i = 0; i < kCalls; ++i) {
      into.clear<>();  // the loader needs a registry without live entities
      InArchive in{saved.data()};
      entt::snapshot_loader{into}.get<entt::entity>(in).get<Position2D>(in).get<BenchVel>(in);
    }
  });
  std::vector<std::uint8_t> copy(saved.size());
  const double memcpyNs = best(9, kCalls, [&] {
    for (int i = 0; i < kCalls; ++i) {
      std::memcpy(copy.data(), saved.data(), saved.size());
      asm volatile("" : : "r"(copy.data()) : "memory");
    }
  });
  const bool same = into.storage<Position2D>().size() == 2000 && into.storage<entt::entity>().free_list() == 10000;
  std::printf("pass entt_snapshot %.1f ns/call (%zu bytes)\n", snapNs, saved.size());
  std::printf("pass entt_restore %.1f ns/call%s\n", restoreNs, same ? "" : " (restore INCOMPLETE)");
  std::printf("pass entt_snapshot_restore %.1f ns/call\n", snapNs + restoreNs);
  std::printf("pass entt_memcpy %.1f ns/call\n", memcpyNs);
  std::printf("ratio entt_snapshot_restore/memcpy %.2f\n", (snapNs + restoreNs) / memcpyNs);
  return 0;
}
