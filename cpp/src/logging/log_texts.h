// log_texts.h - the ids of the catalogue of log texts (log_texts.def), as
// log::texts::InputTooLate and so on: what the core's LAIGE_LOG_* calls pass
// as their message (docs/logging.md#message-texts).
#pragma once

#include <cstdint>

#include "laige/logging.h"

namespace laige::log {

namespace detail {
// Index 0 is "no text"; the catalogue's entries follow in file order.
enum TextIndex : std::uint16_t {
  kNoText = 0,
#define LAIGE_LOG_TEXT(id, text) id,
#include "logging/log_texts.def"
#undef LAIGE_LOG_TEXT
  kTextCount
};
}  // namespace detail

namespace texts {
#define LAIGE_LOG_TEXT(id, text) inline constexpr TextId id{detail::TextIndex::id};
#include "logging/log_texts.def"
#undef LAIGE_LOG_TEXT
}  // namespace texts

}  // namespace laige::log
