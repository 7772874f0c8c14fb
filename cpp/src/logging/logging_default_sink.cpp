// logging_default_sink.cpp - a fresh logger's sink: a ConsoleSink on stderr.
// Alone in its file so that a program defining makeDefaultSink() itself (the
// wasm module: a JsSink) never links this one.
#include <cstdio>

#include "laige/detail/default_sink.h"

namespace laige::log::detail {

std::shared_ptr<Sink> makeDefaultSink() noexcept { return std::make_shared<ConsoleSink>(stderr); }

}  // namespace laige::log::detail
