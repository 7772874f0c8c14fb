// logging_sinks.cpp - the built-in sinks: console and file (one fwrite per
// line from a stack buffer, failures counted) and the capture sink of tests
// (docs/logging.md#sinks).
#include "laige/logging.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace laige::log {

namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
std::string_view orEmpty(const char* s) noexcept { return s != nullptr ? std::string_view(s) : std::string_view(); }
}  // namespace

// ---------------------------------------------------------------------------
// Sinks

namespace {

// Formats into a stack buffer and writes line + '\n' with one fwrite, so
// concurrent lines stay whole (stdio locks per call); counts a short write.
void writeLine(std::FILE* stream, const LogRecord& record, std::atomic<std::uint64_t>& failures) noexcept {
  char buffer[kLineBufferSize];
  const std::size_t n = formatLine(record, buffer, kLineBufferSize);
  buffer[n] = '\n';  // n <= kLineBufferSize - 1
  if (std::fwrite(buffer, 1, n + 1, stream) != n + 1) failures.fetch_add(1, kRelaxed);
}

void flushStream(std::FILE* stream, std::atomic<std::uint64_t>& failures) noexcept {
  if (std::fflush(stream) != 0) failures.fetch_add(1, kRelaxed);
}

}  // namespace

ConsoleSink::ConsoleSink(std::FILE* stream) noexcept : stream_(stream != nullptr ? stream : stderr) {}
void ConsoleSink::emit(const LogRecord& record) noexcept { writeLine(stream_, record, failedWrites_); }
void ConsoleSink::flush() noexcept { flushStream(stream_, failedWrites_); }

Result<std::unique_ptr<FileSink>> FileSink::create(const char* path) noexcept {
  if (path == nullptr || path[0] == '\0') {
    return Status::failure(ErrorCode::InvalidArgument, "log_file_failed").with("reason", "empty_path");
  }
  std::FILE* file = std::fopen(path, "ab");
  if (file == nullptr) {
    return Status::failure(ErrorCode::IoError, "log_file_failed")
        .with("reason", "open_failed")
        .with("path", path)
        .with("errno", errno);
  }
  FileSink* sink = new (std::nothrow) FileSink(file);
  if (sink == nullptr) {
    std::fclose(file);
    return Status::failure(ErrorCode::BudgetExhausted, "log_file_failed").with("reason", "out_of_memory");
  }
  return std::unique_ptr<FileSink>(sink);
}

FileSink::FileSink(std::FILE* file) noexcept : file_(file) {}

FileSink::~FileSink() {
  std::fflush(file_);
  std::fclose(file_);
}

void FileSink::emit(const LogRecord& record) noexcept {
  writeLine(file_, record, failedWrites_);
  // A warn or worse is what a post-mortem needs: never leave it buffered.
  if (record.severity >= Severity::Warn) flush();
}

void FileSink::flush() noexcept { flushStream(file_, failedWrites_); }

std::string CaptureSink::Captured::fieldValue(std::string_view key) const {
  const auto it = std::find_if(fields.begin(), fields.end(), [key](const auto& kv) { return kv.first == key; });
  return it != fields.end() ? it->second : std::string();
}

bool CaptureSink::Captured::hasField(std::string_view key) const {
  return std::any_of(fields.begin(), fields.end(), [key](const auto& kv) { return kv.first == key; });
}

void CaptureSink::emit(const LogRecord& record) noexcept {
  Captured c{record.severity, std::string(orEmpty(record.subsystem)), std::string(orEmpty(record.event)),
             std::string(orEmpty(record.message)), {}, formatLine(record)};
  for (std::size_t i = 0; record.fields != nullptr && i < record.fieldCount; ++i) {
    c.fields.emplace_back(std::string(orEmpty(record.fields[i].key)), std::string(record.fields[i].view()));
  }
  const std::lock_guard<std::mutex> lock(mutex_);
  records_.push_back(std::move(c));
}

std::size_t CaptureSink::count(std::string_view subsystem, std::string_view event) const {
  const std::lock_guard<std::mutex> lock(mutex_);
  std::size_t n = 0;
  for (const auto& r : records_) n += (r.subsystem == subsystem && r.event == event) ? 1u : 0u;
  return n;
}

void CaptureSink::clear() {
  const std::lock_guard<std::mutex> lock(mutex_);
  records_.clear();
}

}  // namespace laige::log
