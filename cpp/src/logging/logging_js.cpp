// logging_js.cpp - the wasm build's sink that hands log records to JavaScript.
#include "laige/logging.h"

#if defined(__EMSCRIPTEN__)
#include <emscripten.h>

#include <cstring>

// Fields travel as one "key=value\x1fkey=value" string: values never contain
// '=' (field() sanitises them) and the unit separator never appears in them.
EM_JS(void, laige_js_emit_log,
      (int severity, const char* subsystem, const char* event, const char* message,
       const char* fields, double timestampUs, int textId),
      {
        if (typeof Module === 'undefined' || typeof Module['onLaigeLog'] !== 'function') return;
        var names = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];
        var out = {};
        var text = UTF8ToString(fields);
        if (text.length > 0) {
          text.split(String.fromCharCode(31)).forEach(function(kv) {
            var i = kv.indexOf('=');
            out[kv.slice(0, i)] = kv.slice(i + 1);
          });
        }
        try {
          Module['onLaigeLog']({
            severity: names[severity] || 'error',
            subsystem: UTF8ToString(subsystem),
            event: UTF8ToString(event),
            message: UTF8ToString(message),
            textId: textId,
            fields: out,
            timestampUs: timestampUs
          });
        } catch (e) {
          // A throwing JS handler must not unwind through C++ (no exceptions in the core).
        }
      });

namespace laige::log {

void JsSink::emit(const LogRecord& record) noexcept {
  char fields[1536];
  std::size_t n = 0;
  fields[0] = '\0';
  for (std::size_t i = 0; i < record.fieldCount; ++i) {
    const Field& f = record.fields[i];
    const std::size_t keyLen = std::strlen(f.key);
    const std::size_t need = keyLen + 1 + f.length + 1;
    if (n + need >= sizeof fields) break;  // a record never has this many fields; cut safely
    if (n > 0) fields[n++] = '\x1f';
    std::memcpy(fields + n, f.key, keyLen);
    n += keyLen;
    fields[n++] = '=';
    std::memcpy(fields + n, f.value, f.length);
    n += f.length;
    fields[n] = '\0';
  }
  laige_js_emit_log(static_cast<int>(record.severity), record.subsystem, record.event,
                    record.message, fields, static_cast<double>(record.timestampUs),
                    static_cast<int>(record.textId));
}

}  // namespace laige::log
#endif
