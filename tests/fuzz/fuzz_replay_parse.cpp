// libFuzzer target: the binary replay parser (laige::parseReplay).
// Invariants: no crash / UB / leak; a parse error carries a reason; an
// accepted log has frames that lie inside its payload, in tick order.
#include <cstdint>
#include <cstdlib>

#include "laige/logging.h"

#include "laige/replay.h"

// Rejections log a warning each; silence them unless LAIGE_FUZZ_LOG is set.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (std::getenv("LAIGE_FUZZ_LOG") == nullptr) {
    laige::log::Logger::instance().setGlobalMinimum(laige::log::Level::Off);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  laige::ReplayParseError why;
  auto r = laige::parseReplay(data, size, &why);
  if (r.isError()) {
    if (why.reason == nullptr) std::abort();
    return 0;
  }
  const laige::ReplayLog& log = r.value();
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < log.frames.size(); ++i) {
    const auto& f = log.frames[i];
    if (f.offset + f.size > log.payload.size()) std::abort();
    auto bytes = log.frameBytes(i);
    if (bytes.size() != f.size) std::abort();
    total += f.size;
    (void)laige::replayFileHash(bytes.data(), bytes.size());
  }
  if (total > log.payload.size()) std::abort();
  (void)log.frameBytes(log.frames.size());  // out of range: empty span, no crash
  if (!log.frameBytes(log.frames.size() + 7).empty()) std::abort();
  return 0;
}
