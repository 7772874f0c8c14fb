// replay_identity.cpp - the replay identity (schema and config hashes, the
// field-by-field comparison) and the small encoding helpers every replay
// source and tool shares (file hash, hash line).
#include <cstdint>
#include <string_view>

#include "laige/component.h"
#include "laige/replay.h"
#include "replay/replay_internal.h"

namespace laige {

World::Options worldOptionsFor(const ReplayConfig& config) noexcept {
  World::Options o;
  o.capacity = config.entityCapacity;
  o.churnPerFrameBudget = config.churnPerFrameBudget;
  o.seed = config.seed;
  o.deterministic = config.determinism.enabled;
  return o;
}

namespace {

std::uint64_t hashName(std::uint64_t h, std::string_view name) noexcept {
  h = detail::fnvWordBE(h, name.size());
  for (const char c : name) h = detail::fnvWordBE(h, static_cast<unsigned char>(c));
  return h;
}

}  // namespace

std::uint64_t componentSchemaHash(const World& world, std::uint16_t formatVersion) noexcept {
  // Ids are dense from 1, so walking 1..count visits every registration in
  // id order; a hole (impossible today) would hash as id 0 / size 0, which
  // still differs from any real registry. Version 1 stops at the sizes: a
  // renamed component or a field of another kind of the same size went
  // unnoticed, which is why version 2 adds names and field layouts.
  const std::uint32_t count = world.componentCount();
  std::uint64_t h = detail::fnvWordBE(detail::kFnvBasis, count);
  for (ComponentTypeId id = 1; id <= count; ++id) {
    const Result<ComponentInfo> info = world.componentInfo(id);
    const ComponentInfo* ci = info.valueIfOk();
    h = detail::fnvWordBE(h, ci != nullptr ? ci->id : 0);
    h = detail::fnvWordBE(h, ci != nullptr ? ci->size : 0);
    h = detail::fnvWordBE(h, ci != nullptr ? ci->alignment : 0);
    if (formatVersion < 2 || ci == nullptr) continue;
    h = hashName(h, ci->name);
    h = detail::fnvWordBE(h, ci->fields.size());
    for (const ComponentField& f : ci->fields) {
      h = hashName(h, f.name);
      h = detail::fnvWordBE(h, static_cast<std::uint64_t>(f.kind));
      h = detail::fnvWordBE(h, f.count);
      h = detail::fnvWordBE(h, f.offset);
    }
  }
  return h;
}

std::uint64_t configHash(const ReplayConfig& config) noexcept {
  // The leading 1 is the encoding tag: a future encoding of the config
  // (new fields) changes the tag, so old and new hashes can never collide
  // by accident of field order.
  std::uint64_t h = detail::fnvWordBE(detail::kFnvBasis, 1);
  h = detail::fnvWordBE(h, config.tickRateHz);
  h = detail::fnvWordBE(h, config.entityCapacity);
  h = detail::fnvWordBE(h, config.churnPerFrameBudget);
  h = detail::fnvWordBE(h, config.seed);
  h = detail::fnvWordBE(h, config.determinism.enabled ? 1u : 0u);
  h = detail::fnvWordBE(h, static_cast<std::uint64_t>(config.determinism.math));
  return h;
}

ReplayIdentity makeReplayIdentity(const World& world, const ReplayConfig& config,
                                  std::uint16_t formatVersion) noexcept {
  ReplayIdentity id;
  id.seed = config.seed;
  id.tickRateHz = config.tickRateHz;
  id.componentSchemaHash = componentSchemaHash(world, formatVersion);
  id.mathBackendId = static_cast<std::uint32_t>(config.determinism.math);
  id.configHash = configHash(config);
  return id;
}

ReplayIdentityDiff replayIdentityDiff(const ReplayIdentity& recorded,
                                      const ReplayIdentity& current) noexcept {
  ReplayIdentityDiff d;
  d.seed = recorded.seed != current.seed;
  d.tickRateHz = recorded.tickRateHz != current.tickRateHz;
  d.componentSchemaHash = recorded.componentSchemaHash != current.componentSchemaHash;
  d.mathBackendId = recorded.mathBackendId != current.mathBackendId;
  d.configHash = recorded.configHash != current.configHash;
  return d;
}

ReplayIdentityDiff replayIdentityDiff(const ReplayLog& log, const World& world,
                                      const ReplayConfig& config) noexcept {
  return replayIdentityDiff(log.identity, makeReplayIdentity(world, config, log.formatVersion));
}

std::uint64_t replayFileHash(const std::uint8_t* data, std::size_t size, std::uint64_t hash) noexcept {
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= detail::kFnvPrime;
  }
  return hash;
}

std::size_t formatReplayHashLine(std::uint64_t tick, std::uint64_t hash,
                                 char (&out)[kReplayHashLineCapacity]) noexcept {
  // Hand-rolled instead of snprintf: PRIu64/PRIx64 differ in spelling
  // between hosts, and this runs once per tick in the CLI.
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + tick % 10);
    tick /= 10;
  } while (tick != 0);
  std::size_t len = 0;
  while (n > 0) out[len++] = digits[--n];
  out[len++] = ' ';
  constexpr char kHex[] = "0123456789abcdef";
  for (int shift = 60; shift >= 0; shift -= 4) out[len++] = kHex[(hash >> shift) & 0xfu];
  out[len++] = '\n';
  out[len] = '\0';
  return len;
}

}  // namespace laige
