// query_cursors.h - the cursor table a TypeScript query walk reads (part of
// the binding layer: web/bindings/common.h says how it is built), shared by
// the archetype-order walk (query.cpp) and the hierarchy-order walk of the
// cascade option (relations.cpp).
#pragma once

#include "common.h"
#include "layouts.gen.h"

namespace laige_wasm {

inline JsWorld::Query* queryAt(JsWorld& jw, std::uint32_t q) {
  return q == 0 || q > jw.queries.size() ? nullptr : jw.queries[q - 1].get();
}

// One cursor per run of rows (layouts.json IterationCursor, then one column
// pointer per column term: 0 where the archetype lacks an optional term),
// and the runs' live handles, consecutively, when `handles` is non-null.
struct CursorWriter {
  std::vector<std::uint32_t>& table;
  const laige::detail::DynamicQuery& q;
  std::uint32_t columns;
  std::uint32_t* handles;
  const std::uint16_t* generations;
  std::uint32_t count = 0;

  void operator()(const laige::detail::Archetype& a, std::uint32_t start, std::uint32_t rows) noexcept {
    using Cursor = laige_layout::IterationCursor;
    static_assert(sizeof(std::uintptr_t) == sizeof(std::uint32_t) && Cursor::kCount == 3 && Cursor::archetype == 0 &&
                  Cursor::rows == 1 && Cursor::slots == 2);
    const std::size_t stride = Cursor::kCount + columns;
    const std::size_t at = std::size_t{count} * stride;
    if (table.size() < at + stride) table.resize((at + stride) * 2);  // grows once, then reused
    std::uint32_t* row = table.data() + at;
    row[Cursor::archetype] = a.id;
    row[Cursor::rows] = rows;
    row[Cursor::slots] = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(a.slots + start));
    for (std::uint32_t i = 0; i < columns; ++i) {
      const std::uint32_t col = a.colOf[q.ids[i]];
      const laige::detail::Column* c = col == 0 ? nullptr : &a.cols[col - 1];
      row[Cursor::kCount + i] =
          c == nullptr ? 0u : static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(c->data + std::size_t{start} * c->size));
    }
    ++count;
    if (handles != nullptr) {
      for (std::uint32_t r = 0; r < rows; ++r) {
        const std::uint32_t slot = a.slots[start + r];
        *handles++ = laige::Entity(static_cast<std::uint16_t>(slot), generations[slot]).bits();
      }
    }
  }
};

}  // namespace laige_wasm
