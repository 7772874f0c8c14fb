// desync_report.cpp - the desync report of two worlds of one module
// (laige/desync.h, docs/desync.md#the-report) for World.desyncReport (part
// of the binding layer: web/bindings/common.h says how it is built). A dev
// tool: linked into the module with the dev tools only; the lean module
// links web/bindings/lean/devtools_none.cpp. (Two peers' report, the desync
// exchange, is in both: web/bindings/desync_exchange.cpp.)
#include "common.h"
#include "json_out.h"
#include "laige/desync.h"

using namespace laige_wasm;

namespace {

void worldDesyncReport(Json& out, std::uintptr_t a, std::uintptr_t b, std::uint32_t maxItems) {
  out.beginObject().key("items").beginArray();
  const auto r = laige::desyncReport(W(a).world, W(b).world, maxItems, [&](const laige::DesyncItem& d) {
    diffItemFields(out.beginObject(), d.item);
    const auto value = [&](const char* k, const std::uint8_t* p) {
      out.key(k);
      if (p == nullptr) {
        out.null();
      } else {
        out.bytes(p, d.item.size);
      }
    };
    value("bytesA", d.item.bytesA);
    value("bytesB", d.item.bytesB);
    out.field("text", std::string_view{})
        .field("field", d.field == laige::kNoField ? std::int32_t{-1} : static_cast<std::int32_t>(d.field))
        .field("fieldName", d.fieldName)
        .endObject();
  });
  out.endArray().field("code", code(r));
  if (r.ok()) {
    const laige::DesyncReport& rep = r.value();
    out.key("tick").hex64(rep.tick)
        .field("checkpointsCompared", rep.checkpointsCompared)
        .field("firstSystem", rep.firstSystem.value)
        .field("firstSystemPosition", rep.firstSystemPosition)
        .field("differences", rep.differences)
        .key("checksumA").hex64(rep.checksumA)
        .key("checksumB").hex64(rep.checksumB);
  }
  out.endObject();
}

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_DESYNC_REPORT
#include "registrations.gen.inc"
