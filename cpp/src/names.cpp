// names.cpp - the name rules of laige/names.h.
#include "laige/names.h"

#include "laige/component.h"

namespace laige {

namespace {

bool isControl(char c) noexcept {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20u || u == 0x7fu;
}

const char* commonProblem(std::string_view name, std::uint32_t maxLength) noexcept {
  if (name.empty()) return "empty";
  if (name.size() > maxLength) return "too_long";
  for (const char c : name) {
    if (isControl(c)) return "control_char";
  }
  if (name.front() == ' ' || name.back() == ' ') return "surrounding_space";
  return nullptr;
}

}  // namespace

const char* systemNameProblem(std::string_view name) noexcept {
  if (const char* why = commonProblem(name, kMaxSystemNameLength); why != nullptr) return why;
  return name.find(',') != std::string_view::npos ? "comma" : nullptr;
}

const char* componentNameProblem(std::string_view name) noexcept {
  return commonProblem(name, kMaxComponentNameLength);
}

}  // namespace laige
