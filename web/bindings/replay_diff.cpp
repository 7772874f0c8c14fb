// replay_diff.cpp - two replay logs run in lock step to their first
// divergence (laige/replay.h diffReplays, docs/guide-replays.md#diff) for
// sim.diffReplays (part of the binding layer: web/bindings/common.h says
// how it is built). A dev tool: linked into the module with the dev tools
// only; the lean module links web/bindings/lean/devtools_none.cpp.
#include "common.h"
#include "json_out.h"
#include "replay_config.h"

using namespace laige_wasm;

namespace {

// Diffs two logs in two fresh worlds set up alike. {code, identical, firstDivergentTick, ...}
void replayDiff(Json& out, std::uintptr_t wa, std::uintptr_t wb, std::uintptr_t dataA, std::uint32_t sizeA,
                std::uintptr_t dataB, std::uint32_t sizeB, std::uint32_t tickRateHz, std::uint32_t math,
                std::uint32_t maxEntries) {
  out.beginObject();
  auto la = laige::parseReplay(at<const std::uint8_t>(dataA), sizeA);
  if (la.isError()) {
    out.field("code", code(la)).field("which", "a").endObject();
    return;
  }
  auto lb = laige::parseReplay(at<const std::uint8_t>(dataB), sizeB);
  if (lb.isError()) {
    out.field("code", code(lb)).field("which", "b").endObject();
    return;
  }
  laige::World& a = W(wa).world;
  laige::World& b = W(wb).world;
  auto r = laige::diffReplays(la.value(), lb.value(), a, b, configOf(a, tickRateHz, math), configOf(b, tickRateHz, math),
                              maxEntries);
  out.field("code", code(r));
  if (r.isError()) {
    out.endObject();
    return;
  }
  const laige::ReplayDiffResult& d = r.value();
  out.field("identical", d.identical)
      .field("firstDivergentTick", std::uint64_t{d.firstDivergentTick})
      .field("lengthDivergence", d.lengthDivergence)
      .field("fullStateDivergent", d.fullStateDivergent)
      .field("framesA", std::uint64_t{d.framesA})
      .field("framesB", std::uint64_t{d.framesB})
      .field("differingItems", d.differingItems);
  out.key("entries").beginArray();
  for (const laige::ReplayDiffEntry& e : d.entries) {
    diffItemFields(out.beginObject(), e);
    out.key("bytesA").bytes(e.a.data(), e.a.size());
    out.key("bytesB").bytes(e.b.data(), e.b.size());
    out.field("text", std::string_view(e.text)).endObject();
  }
  out.endArray().endObject();
}

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_REPLAY_DIFF
#include "registrations.gen.inc"
