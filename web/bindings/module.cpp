// module.cpp - the module: version, error registry, logging
// (part of the embind layer: web/bindings/common.h says how it is built).
#include "common.h"
#include "layouts.gen.h"
#include "limits.gen.h"


using namespace laige_wasm;
using emscripten::val;

namespace {

// ---------------------------------------------------------------------------
// Module: version, error registry, logging
// ---------------------------------------------------------------------------

std::string version() { return laige::kVersionString; }
std::string errorLine(std::uint32_t c) { return laige::errorText(static_cast<ErrorCode>(c)); }

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
std::string layoutTable() { return laige_layout::kTable; }
std::string limitsTable() { return laige_limits::kTable; }

// The last failure noted by code() (ok = none since the last clear).
Status gLastFailure{};

// An integer field's decimal text (an optional '-', at most 15 characters)
// as a double: exact, since it is below 2^53. By hand rather than strtod,
// whose float parsing is several KB of the module.
double integerValue(const char* text) {
  const bool negative = *text == '-';
  double v = 0;
  for (const char* c = text + (negative ? 1 : 0); *c >= '0' && *c <= '9'; ++c) v = v * 10 + (*c - '0');
  return negative ? -v : v;
}

// {code, reason, fields: {key: value}} of the last failure, or null. Integer
// fields come as numbers (as strings above 15 digits, where a double would
// round them), the rest as strings.
val lastFailure() {
  if (gLastFailure.ok()) return val::null();
  val o = val::object();
  o.set("code", gLastFailure.codeValue());
  o.set("reason", std::string(gLastFailure.reason()));
  val fields = val::object();
  for (std::size_t i = 0; i < gLastFailure.fieldCount(); ++i) {
    const laige::ErrorField& f = gLastFailure.field(i);
    if (f.isNumber && std::strlen(f.value) <= 15) {
      fields.set(f.key, integerValue(f.value));
    } else {
      fields.set(f.key, std::string(f.value));
    }
  }
  o.set("fields", fields);
  return o;
}
void clearLastFailure() { gLastFailure = Status{}; }


}  // namespace

void laige_wasm::noteFailure(const Status& s) noexcept { gLastFailure = s; }

// The exports and embind registrations web/boundary.json lists for this file.
#define LAIGE_BINDINGS_MODULE
#include "registrations.gen.inc"
