// module.cpp - the module: version, error registry, logging
// (part of the binding layer: web/bindings/common.h says how it is built).
#include "common.h"
#include "layouts.gen.h"
#include "limits.gen.h"


using namespace laige_wasm;

namespace {

// ---------------------------------------------------------------------------
// Module: version, error registry, logging
// ---------------------------------------------------------------------------

std::string_view version() { return laige::kVersionString; }
std::string_view errorLine(std::uint32_t c) { return laige::errorText(static_cast<ErrorCode>(c)); }

void logInstallJsSink() {
  laige::log::LoggerOptions o = laige::log::Logger::instance().options();
  o.sink = std::make_shared<laige::log::JsSink>();
  laige::log::Logger::instance().init(o);
}
// Level 0..6 = trace..off.
void logSetLevel(std::uint32_t level) {
  laige::log::Logger::instance().setGlobalMinimum(static_cast<laige::log::Level>(level > 6 ? 6 : level));
}
void logSetRateLimiting(bool on) {
  laige::log::LoggerOptions o = laige::log::Logger::instance().options();
  o.rateLimiting = on;
  laige::log::Logger::instance().init(o);
}

// The out-parameter layout table this module was built from (web/layouts.json):
// the TypeScript layer's test compares it with the table it was generated from.
std::string_view layoutTable() { return laige_layout::kTable; }
std::string_view limitsTable() { return laige_limits::kTable; }

// The last failure noted by code() (ok = none since the last clear).
Status gLastFailure{};

// {code, reason, fields: {key: value}} of the last failure, or null. Integer
// fields come as numbers (as strings above 15 digits, where a double would
// round them), the rest as strings.
void lastFailure(Json& out) {
  if (gLastFailure.ok()) {
    out.null();
    return;
  }
  out.beginObject().field("code", gLastFailure.codeValue()).field("reason", gLastFailure.reason());
  out.key("fields").beginObject();
  for (std::size_t i = 0; i < gLastFailure.fieldCount(); ++i) {
    const laige::ErrorField& f = gLastFailure.field(i);
    out.key(f.key);
    if (f.isNumber && std::strlen(f.value) <= 15) {
      out.raw(f.value);
    } else {
      out.string(f.value);
    }
  }
  out.endObject().endObject();
}
void clearLastFailure() { gLastFailure = Status{}; }


}  // namespace

void laige_wasm::noteFailure(const Status& s) noexcept { gLastFailure = s; }

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_MODULE
#include "registrations.gen.inc"
