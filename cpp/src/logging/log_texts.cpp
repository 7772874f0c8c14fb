// log_texts.cpp - the catalogue's texts compiled in: catalogueText() for
// native builds and the wasm tests. The wasm module of @laige/sim links
// web/bindings/log_texts_in_js.cpp instead, whose catalogueText() returns ""
// (its TypeScript layer holds the texts): an object file of the module
// defines the symbol, so the linker never pulls this member out of the
// library. This file must therefore define nothing else.
#include "logging/log_texts.h"

namespace laige::log {

namespace {
constexpr const char* kTexts[detail::kTextCount] = {
    "",
#define LAIGE_LOG_TEXT(id, text) text,
#include "logging/log_texts.def"
#undef LAIGE_LOG_TEXT
};
}  // namespace

const char* catalogueText(TextId id) noexcept {
  const auto i = static_cast<std::uint16_t>(id);
  return i < detail::kTextCount ? kTexts[i] : "";
}

}  // namespace laige::log
