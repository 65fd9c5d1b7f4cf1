// The exceptions of the graph layer. Every message names the node or the line and column it is about.
#pragma once
#include <string>
#include <utility>

#include "evg/hw/error.hpp"

namespace evg::graph {

// Base of every error thrown by lib/graph.
class GraphError : public evg::Error {
  public:
    using evg::Error::Error;
};

// A text that is not a well-formed graph or problem. what() is "<line>:<column>: <message>".
class ParseError : public GraphError {
  public:
    ParseError(int line, int column, const std::string& message)
        : GraphError(std::to_string(line) + ":" + std::to_string(column) + ": " + message),
          line_(line),
          column_(column),
          message_(message) {}
    int line() const { return line_; }
    int column() const { return column_; }
    // The sentence without the position prefix.
    const std::string& message() const { return message_; }

  private:
    int line_;
    int column_;
    std::string message_;
};

// A well-formed graph or problem that breaks a rule of validate.hpp. what() is the formatted diagnostic.
class ValidationError : public GraphError {
  public:
    ValidationError(std::string rule, const std::string& formatted)
        : GraphError(formatted), rule_(std::move(rule)) {}
    // The stable rule id, e.g. "cast-illegal".
    const std::string& rule() const { return rule_; }

  private:
    std::string rule_;
};

}  // namespace evg::graph
