// ecmeta — the range and iterator vocabulary the public headers use (std::ranges' concepts and
// begin/end, std::input_iterator, std::reverse_iterator) without the views of <ranges> and the
// stream iterators of <iterator>: with g++ 12 those two cost about a tenth of
// <ecmeta/ecmeta.hpp>'s compile time, in every translation unit, for names its users never see.
// libstdc++ declares all of it in two internal headers that its <span> includes (they are not
// self-contained, so <span> comes first); any other standard library gets the standard headers.
// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <version>

#if defined(__GLIBCXX__) && __has_include(<bits/ranges_base.h>) && __has_include(<bits/stl_iterator.h>)
#include <span>
// clang-format off
#include <bits/ranges_base.h>
#include <bits/stl_iterator.h>
// clang-format on
#else
#include <iterator>
#include <ranges>
#endif
