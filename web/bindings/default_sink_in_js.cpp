// default_sink_in_js.cpp - the module's default log sink: a JsSink from the
// start (the TypeScript layer also installs one at load). Defining the symbol
// here keeps the library's ConsoleSink, its line writer and the C stdio they
// use out of the module (docs/build.md#the-wasm-modules-size). A record logged
// before the package sets its handler is dropped, not printed.
#include "laige/detail/default_sink.h"

namespace laige::log::detail {

std::shared_ptr<Sink> makeDefaultSink() noexcept { return std::make_shared<JsSink>(); }

}  // namespace laige::log::detail
