// libFuzzer target: the text parsers of replay_text.h. The first byte picks
// the parser (even: parseReplayConfigJson, odd: parseHashBaseline); the rest
// is the text. Invariants: no crash / UB / leak; an error carries a reason;
// a parsed baseline compares equal to itself; a parsed config is bounded.
#include <cstdint>
#include <cstdlib>

#include "laige/logging.h"
#include <string_view>
#include <vector>

#include "laige/replay_text.h"

// Rejections log a warning each; silence them unless LAIGE_FUZZ_LOG is set.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (std::getenv("LAIGE_FUZZ_LOG") == nullptr) {
    laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool baseline = (data[0] & 1u) != 0;
  std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  laige::TextParseError why;
  if (!baseline) {
    auto r = laige::parseReplayConfigJson(text, &why);
    if (r.isError()) {
      if (why.reason == nullptr) std::abort();
      return 0;
    }
    if (r.value().scenario.size() > laige::kMaxScenarioNameLength) std::abort();
    (void)laige::configHash(r.value().config);
    (void)laige::worldOptionsFor(r.value().config);
    return 0;
  }
  std::vector<std::uint64_t> out;
  auto s = laige::parseHashBaseline(text, out, &why);
  if (s.isError()) {
    if (why.reason == nullptr) std::abort();
    return 0;
  }
  if (out.size() > laige::kMaxBaselineLines) std::abort();
  if (!laige::compareHashStreams(out, out).match) std::abort();
  if (!out.empty()) {
    std::vector<std::uint64_t> shorter(out.begin(), out.end() - 1);
    auto c = laige::compareHashStreams(shorter, out);
    if (c.match || !c.lengthMismatch) std::abort();
  }
  return 0;
}
