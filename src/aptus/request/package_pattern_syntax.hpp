// The syntax of apt's search patterns, as apt 2.6 reads it: the parse tree
// (long names, words, argument lists) with the span of the input each node
// covers, and apt's syntax errors. package_pattern.cpp gives the tree its
// meaning.
//
//   top     := or                          (nothing may follow but space)
//   or      := and ('|' and)*
//   and     := unary unary*                (juxtaposition)
//   unary   := '!' primary | primary
//   primary := short | long | '(' or ')'
//   long    := '?' NAME ['(' [arg (',' arg)* [',']] ')']
//   short   := '~' LETTER [arg]            (~n, ~s, ... take an argument)
//   arg     := '"' text '"' | word | or
//
// A word inside a long form runs to one of "|,()"; after a short form it
// also stops at a space and at "!?~".

#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aptus::request {

// A node: a word (quoted or bare) or a pattern ("?name", short forms
// already spelled long; "?and"/"?or"/"?not" for juxtaposition, | and !).
struct PatternSyntax {
    bool is_word = false;
    std::string text;  // the word, or the long name ("?installed")
    std::vector<PatternSyntax> args;
    bool has_args = false;
    size_t start = 0, end = 0;
};

struct PatternSyntaxError {
    size_t start, end;
    std::string message;
};


// The tree of the whole input. Throws PatternSyntaxError.
PatternSyntax parse_syntax(std::string_view text);

// apt's message for an error: "input:S-E: error: MESSAGE", the input, and
// the span underlined (each further line indented by 3, as apt prints it).
std::string error_text(std::string_view input, const PatternSyntaxError& e);

}  // namespace aptus::request
