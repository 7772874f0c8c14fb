// log_texts_in_js.cpp - the module's catalogueText(): the catalogue of log
// texts (cpp/src/logging/log_texts.def) is not compiled into the wasm module.
// A record reaches JavaScript with its textId (logging_js.cpp) and the
// TypeScript layer fills its message from web/src/boundary/log_texts.gen.ts,
// generated from the same file: 17 KB of text the module does not carry
// (docs/logging.md#message-texts). Defining the symbol here keeps the
// library's cpp/src/logging/log_texts.cpp out of the link.
#include "laige/logging.h"

namespace laige::log {

const char* catalogueText(TextId) noexcept { return ""; }

}  // namespace laige::log
