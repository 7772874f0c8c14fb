// desync_exchange.cpp - laige::DesyncExchange (laige/desync_exchange.h,
// docs/desync.md#across-peers) for web/src/desync/desync_exchange.ts (part
// of the binding layer: web/bindings/common.h says how it is built). The
// exchange's outgoing messages wait in a queue the TypeScript side drains
// after every call (desyncExchangeNextMessage) and hands to the user's
// send function. Diagnostics only: every function here is cold.
#include <vector>

#include "common.h"
#include "json_out.h"
#include "laige/desync_exchange.h"
#include "laige/rollback.h"

using namespace laige_wasm;

namespace {

struct JsExchange {
  laige::DesyncExchange exchange;
  laige::RollbackSession* session = nullptr;
  std::vector<std::vector<std::uint8_t>> outbox;  // from `next` on: not handed out yet
  std::size_t next = 0;
  std::vector<std::uint8_t> current;  // the message desyncExchangeNextMessage returned last
};

void queueMessage(void* ctx, std::span<const std::uint8_t> m) noexcept {
  static_cast<JsExchange*>(ctx)->outbox.emplace_back(m.begin(), m.end());
}
Status pinFromSession(void* ctx, std::uint64_t tick, laige::DesyncPin& out) noexcept {
  auto* js = static_cast<JsExchange*>(ctx);
  if (js->session == nullptr) return Status::failure(ErrorCode::InvalidArgument, "desync_tick_unavailable").with("tick", tick);
  return laige::pinRollbackTick(*js->session, tick, out);
}

std::uint32_t desyncExchangeCreate(std::uintptr_t w, std::uintptr_t session, std::uint32_t maxItems, std::uintptr_t out) {
  auto js = std::make_unique<JsExchange>();
  js->session = session == 0 ? nullptr : &rollbackSessionAt(session);
  laige::DesyncExchange::Options o;
  o.send = &queueMessage;
  o.sendContext = js.get();
  o.pin = &pinFromSession;
  o.pinContext = js.get();
  o.maxItems = maxItems;
  auto r = laige::DesyncExchange::create(W(w).world, o);
  if (!r.ok()) return code(r);
  js->exchange = std::move(r).takeValue();
  *at<std::uint32_t>(out) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(js.release()));
  return 0;
}

void desyncExchangeDestroy(std::uintptr_t x) { delete at<JsExchange>(x); }

std::uint32_t desyncExchangeStart(std::uintptr_t x, double tick) {
  return code(at<JsExchange>(x)->exchange.start(static_cast<std::uint64_t>(tick)));
}

std::uint32_t desyncExchangeReceive(std::uintptr_t x, std::uintptr_t data, std::uint32_t size) {
  return code(at<JsExchange>(x)->exchange.receive({at<const std::uint8_t>(data), size}));
}

std::span<const std::uint8_t> desyncExchangeNextMessage(std::uintptr_t x) {
  JsExchange& js = *at<JsExchange>(x);
  js.current.clear();
  if (js.next < js.outbox.size()) js.current = std::move(js.outbox[js.next++]);
  if (js.next == js.outbox.size()) {
    js.outbox.clear();
    js.next = 0;
  }
  return {js.current.data(), js.current.size()};
}

void desyncExchangeReport(Json& out, std::uintptr_t x) {
  const laige::DesyncExchange& ex = at<JsExchange>(x)->exchange;
  const laige::DesyncExchangeStats st = ex.stats();
  out.beginObject()
      .field("ready", ex.hasReport())
      .key("pinnedTick").hex64(ex.pinnedTick())
      .field("messagesSent", st.messagesSent)
      .field("messagesReceived", st.messagesReceived)
      .field("bytesSent", st.bytesSent)
      .field("bytesReceived", st.bytesReceived)
      .field("hashesReceived", st.hashesReceived)
      .field("leafBytesReceived", st.leafBytesReceived);
  if (ex.hasReport()) {
    const laige::DesyncExchangeReport& r = ex.report();
    const laige::World& w = *ex.pinnedWorld();
    const laige::SystemId first = r.summary.firstSystem;
    out.key("tick").hex64(r.summary.tick)
        .field("checkpointsCompared", r.summary.checkpointsCompared)
        .field("firstSystem", first.value)
        .field("firstSystemName", first.value == 0 ? std::string_view{} : std::string_view{w.system(first).value().def.name})
        .field("firstSystemPosition", r.summary.firstSystemPosition)
        .field("differences", r.summary.differences)
        .key("checksumA").hex64(r.summary.checksumA)
        .field("systemsPart", w.componentCount() + 1)
        .key("items").beginArray();
    for (const laige::DesyncExchangeItem& d : r.items) {
      out.beginObject()
          .field("part", d.part)
          .field("slot", d.slot)
          .field("componentId", d.componentId)
          .field("size", d.size)
          .field("presentInA", d.presentInA)
          .field("presentInB", d.presentInB)
          .field("entityA", d.entityA.bits())
          .field("entityB", d.entityB.bits());
      out.key("bytesA");
      if (d.presentInA) {
        out.bytes(d.bytesA.data(), d.bytesA.size());
      } else {
        out.null();
      }
      out.key("bytesB");
      if (d.presentInB) {
        out.bytes(d.bytesB.data(), d.bytesB.size());
      } else {
        out.null();
      }
      out.field("field", d.field == laige::kNoField ? std::int32_t{-1} : static_cast<std::int32_t>(d.field))
          .field("fieldName", std::string_view{d.fieldName})
          .endObject();
    }
    out.endArray();
  }
  out.endObject();
}

}  // namespace

// The exports web/boundary.json lists for this file.
#define LAIGE_BINDINGS_DESYNC_EXCHANGE
#include "registrations.gen.inc"
