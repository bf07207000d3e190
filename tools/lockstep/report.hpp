// A command's summary, filled once: ordered key/value fields that print as the key=value line
// (str()) and become the --json object (json()). Every field is in both unless it is line_only or
// json_only. Formatting: strings with a space are quoted in the line; doubles print 6
// significant digits in the line (exact(): 15) and full precision in JSON; booleans print 1|0
// in the line and true|false in JSON.
//
//   Report r;
//   r.add("n", n).add("ms", ms).add("verified", ok);
//   std::cout << r.str() << "\n";
//   outs.json("json", r.json());
#pragma once
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace lockstep::cli {

class Report {
 public:
  template <typename T>
  Report& add(const std::string& key, const T& value) {
    return field(key, text(value), nlohmann::json(value), true, true);
  }
  /// A JSON value (a tuning parameter, a metric): strings unquoted in the line, objects dumped.
  Report& add_json(const std::string& key, const nlohmann::json& value);
  /// Every object member of `j`, in its order, through add_json.
  Report& add_all(const nlohmann::json& j);
  /// A double printed with 15 significant digits in the line too (sums of weights).
  Report& exact(const std::string& key, double value);
  template <typename T>
  Report& line_only(const std::string& key, const T& value) {
    return field(key, text(value), nullptr, true, false);
  }
  Report& json_only(const std::string& key, const nlohmann::json& value) {
    return field(key, "", value, false, true);
  }
  /// The key=value line.
  const std::string& str() const { return line_; }
  /// The JSON object (keys sorted, as nlohmann::json keeps them).
  nlohmann::json json() const;

 private:
  template <typename T>
  static std::string text(const T& value) {
    std::ostringstream s;
    s.precision(6);
    s << value;
    return s.str();
  }
  Report& field(const std::string& key, std::string text, nlohmann::json value, bool line,
                bool json);
  std::vector<std::pair<std::string, nlohmann::json>> json_;
  std::string line_;
};

}  // namespace lockstep::cli
