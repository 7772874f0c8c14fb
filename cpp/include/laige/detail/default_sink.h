// default_sink.h - the sink a logger starts with before init() names one
// (implementation detail of cpp/src/logging).
#pragma once

#include <memory>

#include "laige/logging.h"

namespace laige::log::detail {

/// The sink of a fresh logger and of init() with a null sink. The library's
/// definition (cpp/src/logging/logging_default_sink.cpp) is a ConsoleSink
/// on stderr. The wasm module defines its own (web/bindings/default_sink_in_js.cpp):
/// a JsSink, so that the console sink, its line writer and the C stdio they
/// need stay out of the module (`build.md#the-wasm-modules-size`).
std::shared_ptr<Sink> makeDefaultSink() noexcept;

}  // namespace laige::log::detail
