// laige/detail/component_macros.h - the preprocessor machinery behind
// LAIGE_COMPONENT: an argument counter and a FOR_EACH over up to 16 members.
//
// Internal: nothing here is API. The FOR_EACH applies `m(T, member)` to each
// member and joins the results with commas, so that the expansion can sit in
// a function argument list.
#pragma once

// Counts 0..16 arguments (__VA_OPT__ makes the empty list count 0).
#define LAIGE_DETAIL_COUNT(...) \
  LAIGE_DETAIL_COUNT_I(__VA_OPT__(__VA_ARGS__, ) 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define LAIGE_DETAIL_COUNT_I(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, \
                             a16, n, ...)                                                    \
  n

#define LAIGE_DETAIL_CAT(a, b) LAIGE_DETAIL_CAT_I(a, b)
#define LAIGE_DETAIL_CAT_I(a, b) a##b

// LAIGE_DETAIL_FOR_EACH(m, T, x, y, z) -> m(T, x), m(T, y), m(T, z)
#define LAIGE_DETAIL_FOR_EACH(m, T, ...) \
  LAIGE_DETAIL_CAT(LAIGE_DETAIL_FE_, LAIGE_DETAIL_COUNT(__VA_ARGS__))(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_1(m, T, a) m(T, a)
#define LAIGE_DETAIL_FE_2(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_1(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_3(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_2(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_4(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_3(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_5(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_4(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_6(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_5(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_7(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_6(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_8(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_7(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_9(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_8(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_10(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_9(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_11(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_10(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_12(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_11(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_13(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_12(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_14(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_13(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_15(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_14(m, T, __VA_ARGS__)
#define LAIGE_DETAIL_FE_16(m, T, a, ...) m(T, a), LAIGE_DETAIL_FE_15(m, T, __VA_ARGS__)

// One member's field description (kind, count, offset, name).
#define LAIGE_DETAIL_COMPONENT_FIELD(T, member) \
  ::laige::detail::makeComponentField<decltype(T::member)>(#member, offsetof(T, member))
