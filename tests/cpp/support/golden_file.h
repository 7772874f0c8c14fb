// golden_file.h - a test's text against a golden file under tests/golden:
// equal, or (with the named environment variable set) the file rewritten
// from the text first, for minting a golden on purpose.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace laige::test {

/// Expects the file at `path` to hold exactly `text`; when the environment
/// variable `writeVar` is set, writes `text` there first. A missing file
/// fails the test and names `writeVar`.
inline void expectGoldenFile(const std::string& path, const std::string& text, const char* writeVar) {
  if (std::getenv(writeVar) != nullptr) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
  }
  std::FILE* f = std::fopen(path.c_str(), "rb");
  ASSERT_NE(f, nullptr) << path << " (write it with " << writeVar << "=1)";
  std::string golden;
  char chunk[4096];
  std::size_t got = 0;
  while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) golden.append(chunk, got);
  std::fclose(f);
  EXPECT_EQ(golden, text);
}

}  // namespace laige::test
